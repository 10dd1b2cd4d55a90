// This gateway's own records for a remote brain, in the machine-local database (ctx.db): the
// queue of remembers waiting for the remote, and copies of the memories written through here.
// Machine-local on purpose: a queue belongs to the gateway that accepted the calls, and
// survives its restarts.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../../../core/index.js';
import type { Memory, RememberInput } from '../model.js';

export const offlineMigrations: Migration[] = [
  `CREATE TABLE brain_outbox (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     agent TEXT NOT NULL,
     input TEXT NOT NULL,
     queued_at TEXT NOT NULL
   );
   CREATE TABLE brain_written (
     id TEXT PRIMARY KEY,
     memory TEXT NOT NULL,
     queued INTEGER NOT NULL,
     written_at INTEGER NOT NULL
   );
   CREATE INDEX brain_written_at ON brain_written (written_at);`,
];

/** A remember waiting for the remote: its input (with the id it will have) and who made it. */
export interface Queued {
  readonly seq: number;
  readonly agent: string;
  readonly input: RememberInput & { readonly id: string };
  /** When it was queued (ms since the epoch). */
  readonly queuedAt: number;
}

type QueuedRow = { seq: number; agent: string; input: string; queued_at: string };
const queued = (row: QueuedRow): Queued => ({ seq: row.seq, agent: row.agent, input: JSON.parse(row.input) as Queued['input'], queuedAt: Date.parse(row.queued_at) });

/** The queue, oldest first. Sending the head and deleting it are two steps: the id makes a resend harmless. */
export class Outbox {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get length(): number {
    return (this.#db.prepare('SELECT count(*) AS n FROM brain_outbox').get() as { n: number }).n;
  }

  push(agent: string, input: RememberInput & { readonly id: string }, queuedAt: number): void {
    this.#db.prepare('INSERT OR IGNORE INTO brain_outbox (id, agent, input, queued_at) VALUES (?, ?, ?, ?)').run(input.id, agent, JSON.stringify(input), new Date(queuedAt).toISOString());
  }

  head(): Queued | undefined {
    const row = this.#db.prepare('SELECT seq, agent, input, queued_at FROM brain_outbox ORDER BY seq LIMIT 1').get() as QueuedRow | undefined;
    return row && queued(row);
  }

  find(id: string): Queued | undefined {
    const row = this.#db.prepare('SELECT seq, agent, input, queued_at FROM brain_outbox WHERE id = ?').get(id) as QueuedRow | undefined;
    return row && queued(row);
  }

  /** Takes a remember out (sent, refused, or forgotten before it left); true when it was there. */
  remove(id: string): boolean {
    return this.#db.prepare('DELETE FROM brain_outbox WHERE id = ?').run(id).changes > 0;
  }
}

/** How many copies are written between two prunings: the table holds at most keep + PRUNE_EVERY - 1. */
const PRUNE_EVERY = 64;

/**
 * Copies of the memories written through this gateway, newest `keep` of them, so that recall
 * and list can answer something while the remote is down. Queued ones are marked.
 */
export class WrittenMemories {
  readonly #db: Database;
  readonly #keep: number;
  #puts = 0;

  constructor(db: Database, keep: number) {
    this.#db = db;
    this.#keep = keep;
  }

  put(memory: Memory, queued: boolean): void {
    if (this.#keep === 0) return;
    this.#db.prepare('INSERT OR REPLACE INTO brain_written (id, memory, queued, written_at) VALUES (?, ?, ?, ?)').run(memory.id, JSON.stringify(memory), queued ? 1 : 0, Date.now());
    // Past `keep`: the oldest go (the subquery finds the newest row that no longer fits, if any).
    // Every PRUNE_EVERY writes, not each: a relayed remember should cost one small insert here.
    if (++this.#puts % PRUNE_EVERY !== 0) return;
    this.#db
      .prepare('DELETE FROM brain_written WHERE (written_at, id) <= (SELECT written_at, id FROM brain_written ORDER BY written_at DESC, id DESC LIMIT 1 OFFSET ?)')
      .run(this.#keep);
  }

  remove(id: string): void {
    this.#db.prepare('DELETE FROM brain_written WHERE id = ?').run(id);
  }

  /** Newest first. */
  all(): Memory[] {
    return (this.#db.prepare('SELECT memory FROM brain_written ORDER BY written_at DESC, id DESC').all() as Array<{ memory: string }>).map((row) => JSON.parse(row.memory) as Memory);
  }
}
