// This gateway's own records for a remote brain, in the machine-local database (ctx.db): the
// queue of remembers waiting for the remote, and copies of the memories written through here.
// Machine-local on purpose: a queue belongs to the gateway that accepted the calls, and
// survives its restarts.
import type { Database } from 'better-sqlite3';
import type { Migration } from '@mcp-gateway/core';
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
     written_at INTEGER NOT NULL
   );
   CREATE INDEX brain_written_at ON brain_written (written_at);`,
];

/**
 * A remember waiting for the remote: its input (with the id it will have), who made it and
 * when. `expires_in` counts from `queuedAt`: what is left of it is sent.
 */
export interface Queued {
  readonly agent: string;
  readonly input: RememberInput & { readonly id: string };
  /** When it was queued (ms since the epoch). */
  readonly queuedAt: number;
}

type QueuedRow = { agent: string; input: string; queued_at: string };
const queued = (row: QueuedRow): Queued => ({ agent: row.agent, input: JSON.parse(row.input) as Queued['input'], queuedAt: Date.parse(row.queued_at) });

/** The queue, oldest first. Sending the head and deleting it are two steps: the id makes a resend harmless. */
export class Outbox {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get length(): number {
    return (this.#db.prepare('SELECT count(*) AS n FROM brain_outbox').get() as { n: number }).n;
  }

  push(entry: Queued): void {
    this.#db.prepare('INSERT INTO brain_outbox (id, agent, input, queued_at) VALUES (?, ?, ?, ?)').run(entry.input.id, entry.agent, JSON.stringify(entry.input), new Date(entry.queuedAt).toISOString());
  }

  head(): Queued | undefined {
    const row = this.#db.prepare('SELECT agent, input, queued_at FROM brain_outbox ORDER BY seq LIMIT 1').get() as QueuedRow | undefined;
    return row && queued(row);
  }

  find(id: string): Queued | undefined {
    const row = this.#db.prepare('SELECT agent, input, queued_at FROM brain_outbox WHERE id = ?').get(id) as QueuedRow | undefined;
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
 * and list can answer something while the remote is down.
 */
export class WrittenMemories {
  readonly #db: Database;
  readonly #keep: number;
  #puts = 0;

  constructor(db: Database, keep: number) {
    this.#db = db;
    this.#keep = keep;
  }

  put(memory: Memory): void {
    if (this.#keep === 0) return;
    this.#db.prepare('INSERT OR REPLACE INTO brain_written (id, memory, written_at) VALUES (?, ?, ?)').run(memory.id, JSON.stringify(memory), Date.now());
    // Past `keep`: the oldest go (the subquery finds the newest row that no longer fits, if any).
    // Every PRUNE_EVERY writes, not each: a relayed remember should cost one small insert here.
    if (++this.#puts % PRUNE_EVERY !== 0) return;
    this.#db
      .prepare('DELETE FROM brain_written WHERE (written_at, id) <= (SELECT written_at, id FROM brain_written ORDER BY written_at DESC, id DESC LIMIT 1 OFFSET ?)')
      .run(this.#keep);
  }

  /** The copy of `id` now superseded by `by`, so that partial answers leave it out like the remote would. */
  supersede(id: string, by: string): void {
    const row = this.#db.prepare('SELECT memory FROM brain_written WHERE id = ?').get(id) as { memory: string } | undefined;
    if (!row) return;
    const memory = { ...(JSON.parse(row.memory) as Memory), superseded_by: by };
    this.#db.prepare('UPDATE brain_written SET memory = ? WHERE id = ?').run(JSON.stringify(memory), id);
  }

  remove(id: string): void {
    this.#db.prepare('DELETE FROM brain_written WHERE id = ?').run(id);
  }

  /** Newest first, one at a time: a partial answer never holds every copy in memory. */
  *all(): IterableIterator<Memory> {
    for (const row of this.#db.prepare('SELECT memory FROM brain_written ORDER BY written_at DESC, id DESC').iterate() as IterableIterator<{ memory: string }>) {
      yield JSON.parse(row.memory) as Memory;
    }
  }

  get count(): number {
    return (this.#db.prepare('SELECT count(*) AS n FROM brain_written').get() as { n: number }).n;
  }
}
