import { hash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { JournalFolder } from './audit-fold.js';
import type { FoldWorkerData, FoldWorkerMessage, FoldWorkerReport } from './audit-fold-worker.js';
import { AuditJournal } from './audit-journal.js';
import type { Logger } from './logger.js';
import type { Database } from './storage.js';
import { migrate } from './storage.js';
import type { CallRecord } from './tool-catalog.js';
import { startWorker } from './worker-thread.js';

const SECRET_KEY = /^(pass|pwd|auth)$|passw(or)?d|passphrase|secret|token|api[-_]?key|authori[sz]ation|credential|private[-_]?key|cookie/i;
const SUMMARY_CHARS = 512;
const NAME_CHARS = 256;
const REDACTED = '[redacted]';

const migrations = [
  `CREATE TABLE core_audit (
     id INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     transport TEXT NOT NULL,
     session TEXT,
     caller TEXT,
     tool TEXT NOT NULL,
     args_digest TEXT NOT NULL,
     args_summary TEXT NOT NULL,
     duration_ms INTEGER NOT NULL,
     outcome TEXT NOT NULL
   );
   CREATE INDEX core_audit_at ON core_audit (at);
   CREATE INDEX core_audit_tool ON core_audit (tool, at);`,
  'ALTER TABLE core_audit ADD COLUMN plugin TEXT',
  // Nothing reads by tool; the index cost a page write per call. By time stays (retention).
  'DROP INDEX core_audit_tool',
  // Each index is a page written per call. Rows are appended in time order, so retention finds
  // its cut by id instead.
  'DROP INDEX core_audit_at',
  // How far each journal file is folded into core_audit (see AuditLog).
  'CREATE TABLE core_audit_folded (journal TEXT PRIMARY KEY, offset INTEGER NOT NULL)',
];

export interface AuditRow {
  at: string;
  transport: string;
  session: string | null;
  caller: string | null;
  plugin: string | null;
  tool: string;
  args_digest: string;
  args_summary: string;
  duration_ms: number;
  outcome: string;
}

/** Rows wait at most this long in the journal before the folding thread moves them into `core_audit`. */
const FOLD_EVERY_MS = 100;
/** A journal over this size is replaced by a fresh file; the folding thread removes the old one once folded. */
const ROTATE_AT_BYTES = 4 * 1024 * 1024;
/** How often the journals of processes that are gone are looked for (one killed while we run). */
const SWEEP_EVERY_MS = 60_000;
/** How often the folding thread checkpoints the WAL (see storage.ts). */
const CHECKPOINT_EVERY_MS = 1000;
/** How long after the folding thread stopped (or failed to start) a new one starts. */
const RESTART_AFTER_MS = 5000;
/** Rows kept in memory while the journal refuses writes (disk full); past this, the oldest go. */
const MAX_UNWRITTEN_ROWS = 10_000;

export interface AuditLogOptions {
  /** Rows older than this many days are removed at start-up; 0 keeps all. */
  retentionDays?: number;
  /** Where the journal files go; default `audit-journal/` beside the database file. */
  journalDir?: string;
  /** How often the folding thread folds the journal (tests set it out of reach). */
  foldEveryMs?: number;
  /** How often the journals of processes that are gone are folded in while this one runs. */
  sweepEveryMs?: number;
  log?: Logger;
}

/**
 * The audit log: one row per tool call, on record before the reply leaves, so a call whose
 * answer a client saw survives the process being killed right after. A row is one line
 * appended to this process's journal (one write(2), see AuditJournal); that is all a call
 * pays. A folding thread (audit-fold-worker.ts) moves the lines
 * into the `core_audit` table every FOLD_EVERY_MS on a database connection of its own, removes
 * rotated-out files, folds in the journals of processes that are gone, and checkpoints the
 * WAL. Nothing waits in memory: a row is in the journal or in the table.
 * Folding is exactly-once whoever does it (JournalFolder); a journal left by a killed process
 * is folded in at the next start, or by a gateway still running within SWEEP_EVERY_MS.
 *
 * Arguments are kept as a SHA-256 digest plus a short summary, both with secret-looking keys
 * redacted. They are the effective arguments: ajv fills schema defaults in as it validates.
 * In-process readers of `core_audit` call `flush()` first to see the latest rows.
 */
export class AuditLog {
  readonly #insert;
  readonly #folder: JournalFolder;
  readonly #journal: AuditJournal | undefined;
  /** Files of this log rotated out and not yet removed by the folding thread. */
  readonly #retired = new Set<string>();
  /** Rows whose journal write failed, oldest first, written ahead of the next row. */
  readonly #unwritten: unknown[][] = [];
  #dropped = 0;
  readonly #database: string;
  readonly #foldEveryMs: number;
  readonly #sweepEveryMs: number;
  readonly #log: Logger | undefined;
  #worker: Worker | undefined;
  #restart: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Database, options: AuditLogOptions = {}) {
    this.#log = options.log;
    this.#database = db.name;
    this.#foldEveryMs = options.foldEveryMs ?? FOLD_EVERY_MS;
    this.#sweepEveryMs = options.sweepEveryMs ?? SWEEP_EVERY_MS;
    migrate(db, 'core', migrations);
    const retentionDays = options.retentionDays ?? 0;
    if (retentionDays > 0) {
      const cutoff = new Date(Date.now() - retentionDays * 86_400_000).toISOString();
      // Scans back from the newest row (rowid order) to the last one past the cut, once per
      // boot. Rows folded in from a killed process's journal can have older times than rows
      // before them, so the time is checked again for each row removed.
      const last = db.prepare('SELECT id FROM core_audit WHERE at < ? ORDER BY id DESC LIMIT 1').get(cutoff) as { id: number } | undefined;
      if (last) db.prepare('DELETE FROM core_audit WHERE id <= ? AND at < ?').run(last.id, cutoff);
    }
    this.#insert = db.prepare(
      `INSERT INTO core_audit (at, transport, session, caller, plugin, tool, args_digest, args_summary, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#folder = new JournalFolder(db, (journal, offset) => this.#log?.warn({ journal, offset }, 'an unreadable audit journal line was skipped'));

    // An in-memory database (tests) has nothing to recover and nowhere to put a journal.
    if (db.memory) return;
    const journal = new AuditJournal(options.journalDir ?? join(dirname(db.name), 'audit-journal'));
    try {
      // Before the first call: what a killed process left is part of opening the database.
      this.#folder.recover(journal.dir);
    } catch (err) {
      journal.remove();
      throw err;
    }
    this.#journal = journal;
    this.#startWorker(journal);
  }

  /** Whether the folding thread is running (while it is not, the gateway checkpoints itself). */
  get folding(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Writes the call's row to the journal before returning. If that write fails (disk full),
   * the row waits in memory (at most MAX_UNWRITTEN_ROWS, then the oldest are dropped and
   * counted in the log) and is written ahead of the next row, and the error is thrown for the
   * catalog to log: refusing calls because the audit disk is full would turn an audit problem
   * into an outage. After close() (the last step of shutdown) a call, which can only be a
   * refusal with SHUTTING_DOWN, is not recorded.
   */
  record(call: CallRecord): void {
    if (this.#closed) return;
    const row = rowOf(call);
    const journal = this.#journal;
    if (!journal) {
      this.#insert.run(...row);
      return;
    }
    this.#unwritten.push(row);
    this.#writeWaiting(journal);
    if (journal.size > ROTATE_AT_BYTES) this.#rotate(journal);
  }

  /**
   * Folds what the journals hold into `core_audit` now, on this thread. Throws what the
   * database throws (a lock held past busy_timeout, a full disk).
   */
  flush(): void {
    if (!this.#journal) return;
    const { dir } = this.#journal;
    for (const name of this.#retired) {
      // Folded and removed by the folding thread meanwhile, or now by us.
      this.#folder.foldAndRemove(dir, name);
      this.#retired.delete(name);
    }
    this.#folder.fold(dir, this.#journal.name);
  }

  /**
   * Stops the folding thread, folds what is left and closes this process's journal: removed
   * when all of it is in the table, left for the next start otherwise.
   */
  close(): void {
    if (this.#closed) return;
    clearTimeout(this.#restart);
    const journal = this.#journal;
    if (journal) this.#writeWaiting(journal, true);
    this.#closed = true;
    // Mid-transaction, the thread's connection rolls back as it goes; the fold below (or the
    // next start's) takes those lines, exactly once.
    void this.#worker?.terminate();
    if (!journal) return;
    try {
      this.flush();
      journal.close();
      this.#folder.foldAndRemove(journal.dir, journal.name);
    } catch (err) {
      this.#log?.error({ err }, 'audit rows could not be folded at close; the next start folds them');
      journal.close();
    }
  }

  /** Writes the rows waiting in memory, oldest first, until one fails. */
  #writeWaiting(journal: AuditJournal, quietly = false): void {
    let written = 0;
    try {
      for (const row of this.#unwritten) {
        journal.append(`${JSON.stringify(row)}\n`);
        written++;
      }
      this.#unwritten.length = 0;
    } catch (err) {
      this.#unwritten.splice(0, written);
      const excess = this.#unwritten.length - MAX_UNWRITTEN_ROWS;
      if (excess > 0) {
        this.#unwritten.splice(0, excess);
        this.#dropped += excess;
        this.#log?.error({ dropped: this.#dropped }, 'audit rows dropped: the journal has refused writes for too long');
      }
      if (!quietly) throw err;
    }
  }

  /** Rotation happens here, where the file is written; the folding thread removes the old file. */
  #rotate(journal: AuditJournal): void {
    try {
      const old = journal.rotate();
      this.#retired.add(old);
      this.#worker?.postMessage({ retired: old } satisfies FoldWorkerMessage);
      this.#worker?.postMessage({ written: journal.name } satisfies FoldWorkerMessage);
    } catch (err) {
      // The file just grows until the next row tries again.
      this.#log?.error({ err }, 'the audit journal could not be replaced by a fresh file');
    }
  }

  #startWorker(journal: AuditJournal): void {
    const data: FoldWorkerData = {
      database: this.#database,
      journalDir: journal.dir,
      foldEveryMs: this.#foldEveryMs,
      sweepEveryMs: this.#sweepEveryMs,
      checkpointEveryMs: CHECKPOINT_EVERY_MS,
    };
    let worker: Worker;
    try {
      worker = startWorker(import.meta.url, 'audit-fold-worker', { workerData: data });
    } catch (err) {
      this.#log?.error({ err }, 'the audit folding thread could not start; retrying');
      this.#scheduleRestart(journal);
      return;
    }
    worker.on('message', (report: FoldWorkerReport) => {
      if ('removed' in report) this.#retired.delete(report.removed);
      else this.#log?.[report.level](report.fields, report.msg);
    });
    worker.on('error', (err) => this.#log?.error({ err }, 'the audit folding thread failed'));
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      if (!this.#closed) this.#scheduleRestart(journal);
    });
    // Never what keeps a process alive: what it has not folded, the next start folds. (After
    // the listeners: adding a 'message' listener refs the thread again.)
    worker.unref();
    worker.postMessage({ written: journal.name } satisfies FoldWorkerMessage);
    for (const name of this.#retired) worker.postMessage({ retired: name } satisfies FoldWorkerMessage);
    this.#worker = worker;
  }

  #scheduleRestart(journal: AuditJournal): void {
    this.#restart = setTimeout(() => this.#startWorker(journal), RESTART_AFTER_MS).unref();
  }
}

/** The last timestamp formatted: under load many calls start in the same millisecond. */
let lastAt = { ms: Number.NaN, iso: '' };

function isoOf(ms: number): string {
  if (ms !== lastAt.ms) lastAt = { ms, iso: new Date(ms).toISOString() };
  return lastAt.iso;
}

function rowOf(call: CallRecord): unknown[] {
  const json = JSON.stringify(redactSecrets(call.args) ?? null);
  return [
    isoOf(call.startedAt),
    call.caller.transport,
    call.caller.sessionId ?? null,
    clip(call.caller.identity) ?? null,
    call.plugin ?? null,
    clip(call.tool)!,
    hash('sha256', json),
    json.length > SUMMARY_CHARS ? `${json.slice(0, SUMMARY_CHARS)}…` : json,
    Math.round(call.durationMs),
    call.outcome,
  ];
}

/**
 * Names that come from callers (a client's name from initialize, an unknown tool's name) cut
 * to NAME_CHARS: a megabyte-long name would otherwise make every row of that session huge.
 */
function clip(name: string | undefined): string | undefined {
  return name !== undefined && name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name;
}

/** A copy of `value` with the values of secret-looking keys replaced, at any depth. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  // fromEntries defines own properties: assigning `out['__proto__']` would set the prototype
  // instead, and that key (from JSON) would vanish from the audit summary.
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(v, depth + 1)]),
  );
}
