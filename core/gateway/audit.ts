import { hash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AuditJournal, abandonedJournals, readJournal } from '../storage/audit-journal.js';
import { GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Database } from '../storage/storage.js';
import { migrate } from '../storage/storage.js';
import type { CallRecord } from '../catalog/call-observers.js';

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
  // What the row records: a tool call, a resource read (tool holds the URI) or a prompt get.
  "ALTER TABLE core_audit ADD COLUMN kind TEXT NOT NULL DEFAULT 'tool'",
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
  /** `tool`, `resource` or `prompt`. */
  kind: string;
}

/** Rows wait at most this long in the journal before they are folded into `core_audit`. */
const FOLD_EVERY_MS = 100;
/** ... or until this many are waiting, whichever comes first. */
const FOLD_AT_ROWS = 1024;
/** A fully folded journal over this size is replaced by a fresh file. */
const ROTATE_AT_BYTES = 4 * 1024 * 1024;
/** How often the journals of processes that are gone are looked for (one killed while we run). */
const SWEEP_EVERY_MS = 60_000;
/** How often a running gateway deletes the rows past the retention (and at each start). */
const PRUNE_EVERY_MS = 86_400_000;
/** After a failed fold (disk full, database locked past busy_timeout). */
const RETRY_AFTER_MS = 5000;

/** Rows kept in memory only (their line could not be written) at most; later ones are counted, not kept. */
const MAX_UNWRITTEN_ROWS = 10_000;
/** While the journal cannot be written, how often a call may probe it again. */
const PROBE_EVERY_MS = 250;

/** Rows recorded in one turn of the event loop, written with one write(2) (AuditLog.record). */
interface Batch {
  readonly rows: unknown[][];
  /** Resolves once the rows are written; rejects with AUDIT_UNAVAILABLE when they could not be (fail-closed). */
  readonly written: Promise<void>;
  readonly settle: (error?: GatewayError) => void;
}

/** A row and the journal offset past its batch (Infinity: its batch could not be written). */
interface JournalEntry {
  readonly row: unknown[];
  readonly end: number;
}

export interface AuditLogOptions {
  /** Rows older than this many days are removed at start-up and then daily; 0 keeps all. */
  retentionDays?: number;
  /** How often rows past the retention are removed while this runs (checked at each sweep). */
  pruneEveryMs?: number;
  /** Where the journal files go; default `audit-journal/` beside the database file. */
  journalDir?: string;
  /** How often the journals of processes that are gone are folded in while this one runs. */
  sweepEveryMs?: number;
  /** Answer calls even when their row cannot be written (config `tools.auditFailOpen`). */
  failOpen?: boolean;
  log?: Logger;
}

/** Whether calls can be recorded now, for /health and gateway_status. */
export interface AuditState {
  readonly state: 'ok' | 'unavailable';
  readonly failOpen: boolean;
  /** Why the journal cannot be written (an errno code such as ENOSPC), while unavailable. */
  readonly reason?: string;
  /** Rows dropped because too many waited in memory while unavailable. */
  readonly droppedRows: number;
}

/**
 * The audit log: one row per tool call, on record before the reply leaves, so a call whose
 * answer a client saw survives the process being killed right after. A row goes first to this
 * process's journal (one write(2) for the rows of a turn of the event loop, see record) and
 * reaches the `core_audit` table in a batch within FOLD_EVERY_MS; a journal left behind by a
 * killed process is folded in at the next start, or within SWEEP_EVERY_MS by a gateway still
 * running. Folding is idempotent: `core_audit_folded` holds, per journal file, the offset up
 * to which its lines are in the table, updated in the same transaction as the rows.
 *
 * Arguments are kept as a SHA-256 digest plus a short summary, both with secret-looking keys
 * redacted. They are the effective arguments: ajv fills schema defaults in as it validates.
 * In-process readers of `core_audit` call `flush()` first to see the latest rows.
 */
export class AuditLog {
  readonly #insert;
  readonly #fold: (journal: string, entries: readonly JournalEntry[]) => void;
  readonly #foldFile: (journal: string, path: string) => void;
  readonly #forget: (journal: string) => void;
  readonly #journal: AuditJournal | undefined;
  readonly #log: Logger | undefined;
  readonly #failOpen: boolean;
  /** The rows recorded in this turn of the event loop, not yet written. */
  #batch: Batch | undefined;
  #pending: JournalEntry[] = [];
  #unwritten = 0;
  #dropped = 0;
  /** Set while the journal cannot be written: the errno code (or message) of the failure. */
  #failure: string | undefined;
  /** The length of the longest row of the batch that failed: what a probe must be able to write. */
  #failedBytes = 0;
  #lastProbe = 0;
  #timer: NodeJS.Timeout | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  /** Deletes the rows past the retention; undefined when everything is kept. */
  #prune: (() => void) | undefined;
  #prunedAt = 0;
  #closed = false;

  constructor(db: Database, options: AuditLogOptions = {}) {
    this.#log = options.log;
    this.#failOpen = options.failOpen ?? false;
    migrate(db, 'core', migrations);
    const retentionDays = options.retentionDays ?? 0;
    if (retentionDays > 0) {
      const lastPast = db.prepare('SELECT id FROM core_audit WHERE at < ? ORDER BY id DESC LIMIT 1');
      const remove = db.prepare('DELETE FROM core_audit WHERE id <= ? AND at < ?');
      // Scans back from the newest row (rowid order) to the last one past the cut. Rows folded
      // in from a killed process's journal can have older times than rows before them, so the
      // time is checked again for each row removed.
      this.#prune = () => {
        const cutoff = new Date(Date.now() - retentionDays * 86_400_000).toISOString();
        const last = lastPast.get(cutoff) as { id: number } | undefined;
        if (last) remove.run(last.id, cutoff);
        this.#prunedAt = Date.now();
      };
      this.#prune();
    }
    const insert = db.prepare(
      `INSERT INTO core_audit (at, transport, session, caller, plugin, tool, args_digest, args_summary, duration_ms, outcome, kind)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insert = insert;
    const foldedOf = db.prepare('SELECT offset FROM core_audit_folded WHERE journal = ?').pluck();
    const setFolded = db.prepare(
      'INSERT INTO core_audit_folded (journal, offset) VALUES (?, ?) ON CONFLICT (journal) DO UPDATE SET offset = excluded.offset',
    );
    /** Inserts the entries past the journal's recorded offset and moves the offset past them. */
    const foldEntries = (journal: string, entries: readonly JournalEntry[]) => {
      const done = (foldedOf.get(journal) as number | undefined) ?? 0;
      let last = done;
      for (const { row, end } of entries) {
        if (end <= done) continue;
        insert.run(...row);
        if (end !== Infinity && end > last) last = end;
      }
      setFolded.run(journal, last);
    };
    // IMMEDIATE: each transaction reads the offset before it writes; a deferred one would
    // fail with SQLITE_BUSY if another process committed in between.
    const fold = db.transaction(foldEntries);
    this.#fold = (journal, entries) => fold.immediate(journal, entries);
    // Another process's file is read inside the transaction, after its offset: its owner
    // removes the file before it forgets the offset, so a missing offset means a missing file,
    // and no line is folded twice whatever the two processes interleave.
    const foldFile = db.transaction((journal: string, path: string) => {
      const lines = readJournal(path, isAuditRow, (offset) => this.#log?.warn({ journal, offset }, 'an unreadable audit journal line was skipped'));
      foldEntries(journal, lines);
    });
    this.#foldFile = (journal, path) => foldFile.immediate(journal, path);
    const forget = db.prepare('DELETE FROM core_audit_folded WHERE journal = ?');
    this.#forget = (journal) => forget.run(journal);

    // An in-memory database (tests) has nothing to recover and nowhere to put a journal.
    if (db.memory) return;
    const journal = new AuditJournal(options.journalDir ?? join(dirname(db.name), 'audit-journal'));
    try {
      this.#recover(journal);
    } catch (err) {
      journal.remove();
      throw err;
    }
    this.#journal = journal;
    // A gateway killed while this one runs (an `mcp-gateway call`, another `serve`) leaves a
    // journal that would otherwise wait for the next start.
    // A gateway that runs for weeks prunes its old rows daily, not only when it starts.
    const pruneEveryMs = options.pruneEveryMs ?? PRUNE_EVERY_MS;
    this.#sweeper = setInterval(() => {
      try {
        this.#recover(journal);
      } catch (err) {
        this.#log?.error({ err }, 'journals of other processes could not be folded in; retrying later');
      }
      if (this.#prune && Date.now() - this.#prunedAt >= pruneEveryMs) {
        try {
          this.#prune();
        } catch (err) {
          this.#log?.error({ err }, 'audit rows past the retention could not be deleted; retrying later');
        }
      }
    }, options.sweepEveryMs ?? SWEEP_EVERY_MS).unref();
  }

  /**
   * Puts the call's row in the journal, with the rows of every other call that finishes in
   * this turn of the event loop: they are written together, one write(2), once the turn's I/O
   * callbacks are done (setImmediate), and the promise returned resolves then. The caller
   * answers the call only after that (ToolCatalog waits for it, see observeCall): one write
   * per turn instead of one per call, and the answers of a turn leave together, which costs
   * the gateway and its clients less than a write and a wake-up per answer (bench/analysis.md
   * section 22). If the write fails (disk full), the promise rejects with AUDIT_UNAVAILABLE,
   * which becomes the answer of those calls (they ran, but no reply leaves without its row),
   * and `availability()` refuses further calls until the journal takes writes again. With
   * `failOpen` the failure is only logged. Either way the rows are kept in memory (up to
   * MAX_UNWRITTEN_ROWS) and reach the table at the next fold the database accepts. Without a
   * journal (an in-memory database) the row is inserted at once and nothing is returned.
   * After close() (the last step of shutdown) a call, which can only be a refusal with
   * SHUTTING_DOWN, is not recorded.
   */
  record(call: CallRecord): Promise<void> | undefined {
    if (this.#closed) return undefined;
    const row = rowOf(call);
    if (!this.#journal) {
      this.#insert.run(...row);
      return undefined;
    }
    const batch = (this.#batch ??= this.#openBatch());
    batch.rows.push(row);
    return batch.written;
  }

  #openBatch(): Batch {
    let settle!: Batch['settle'];
    const written = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    // Every caller attaches its own handlers; this one keeps a failed batch that nobody waits
    // for any more (a flush at close) from being an unhandled rejection.
    written.catch(() => {});
    setImmediate(() => this.#writeBatch());
    return { rows: [], written, settle };
  }

  /** Writes the open batch, if any, and settles its promise. */
  #writeBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    const lines = batch.rows.map((row) => `${JSON.stringify(row)}\n`);
    let end = Infinity;
    try {
      end = this.#journal!.append(lines.join(''));
      this.#failure = undefined;
    } catch (err) {
      this.#failure = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      // A probe must find room for one row again, not for the whole batch.
      this.#failedBytes = lines.reduce((longest, line) => Math.max(longest, Buffer.byteLength(line)), 0);
      try {
        this.#log?.error({ err, rows: batch.rows.length }, 'audit rows could not be written to the journal');
      } catch {
        // stderr on the same full disk: the batch must still be settled.
      }
    }
    const withheld = end === Infinity && !this.#failOpen;
    for (const row of batch.rows) {
      // Every call of the batch is answered AUDIT_UNAVAILABLE (one refused by availability()
      // keeps its own message, see observeCall), and its row says the same as its reply.
      if (withheld) row[OUTCOME] = 'AUDIT_UNAVAILABLE';
      if (end === Infinity && ++this.#unwritten > MAX_UNWRITTEN_ROWS) this.#dropped++;
      // The rows of a batch are folded together, so they share the journal offset past it.
      else this.#pending.push({ row, end });
    }
    if (this.#pending.length >= FOLD_AT_ROWS) this.#schedule(0);
    else if (!this.#timer) this.#schedule(FOLD_EVERY_MS);
    if (!withheld) return batch.settle();
    batch.settle(
      new GatewayError('AUDIT_UNAVAILABLE', `The call ran, but its audit row could not be written (${this.#failure}), so its result is withheld. Free space on the gateway's disk; calls are refused until then.`),
    );
  }

  /**
   * AUDIT_UNAVAILABLE while the journal cannot be written (fail-closed only), checked before
   * a call runs. At most every PROBE_EVERY_MS, a write as long as the longest row that failed (taken
   * back at once) probes the journal again, so the first call after space is freed runs.
   */
  availability(): GatewayError | undefined {
    if (this.#failure === undefined || this.#failOpen || !this.#journal) return undefined;
    const now = Date.now();
    if (now - this.#lastProbe >= PROBE_EVERY_MS) {
      this.#lastProbe = now;
      try {
        this.#journal.probe(this.#failedBytes);
        this.#failure = undefined;
        return undefined;
      } catch {
        // Still failing: refuse.
      }
    }
    return new GatewayError('AUDIT_UNAVAILABLE', `Calls are refused: the audit journal cannot be written (${this.#failure}), and this gateway does not answer calls it cannot audit. Free space on the gateway's disk and retry.`);
  }

  get state(): AuditState {
    const base = { failOpen: this.#failOpen, droppedRows: this.#dropped };
    return this.#failure === undefined ? { state: 'ok', ...base } : { state: 'unavailable', reason: this.#failure, ...base };
  }

  /** Writes the open batch to the journal, then folds the waiting rows into `core_audit` now. */
  flush(): void {
    this.#writeBatch();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#journal || this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    try {
      this.#fold(this.#journal.name, batch);
      this.#unwritten = 0;
    } catch (err) {
      // The rows are safe in the journal; keep them and try again later.
      this.#pending = batch;
      this.#log?.error({ err, rows: batch.length }, 'audit rows could not be folded into the database; retrying');
      if (!this.#closed) this.#schedule(RETRY_AFTER_MS);
      return;
    }
    if (this.#journal.size <= ROTATE_AT_BYTES) return;
    try {
      this.#forget(this.#journal.rotate());
    } catch (err) {
      // Everything is folded: the file just grows until the next fold tries again.
      this.#log?.error({ err }, 'the audit journal could not be replaced by a fresh file');
    }
  }

  /**
   * Folds what is waiting, then closes this process's journal: removed when all of it is in
   * the table, left for the next start otherwise.
   */
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#sweeper);
    if (!this.#journal) return;
    if (this.#pending.length > 0) {
      this.#journal.close();
      return;
    }
    this.#journal.remove();
    this.#forget(this.#journal.name);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    // Unref'd: a process that ends without close() leaves the rows in its journal, and the
    // next start folds them.
    this.#timer = setTimeout(() => this.flush(), ms).unref();
  }

  /** Folds in the journals of processes that are gone, then removes them. */
  #recover(journal: AuditJournal): void {
    for (const file of abandonedJournals(journal.dir)) {
      this.#foldFile(file.name, file.path);
      rmSync(file.path, { force: true });
      this.#forget(file.name);
    }
  }
}

/**
 * Whether a journal line holds a row this version can insert (a file may come from another
 * version). A row from before the kind column is completed in place: it was a tool call.
 */
function isAuditRow(row: unknown[]): boolean {
  if (row.length === ROW_TYPES.length - 1) row.push('tool');
  if (row.length !== ROW_TYPES.length) return false;
  return row.every((value, i) => (value === null ? ROW_TYPES[i]!.endsWith('?') : typeof value === ROW_TYPES[i]!.replace('?', '')));
}

/** Where rowOf puts the outcome. */
const OUTCOME = 9;

/** The type of each value of a row, in rowOf's order; `?` where null is allowed. */
const ROW_TYPES = ['string', 'string', 'string?', 'string?', 'string?', 'string', 'string', 'string', 'number', 'string', 'string'];

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
    call.kind,
  ];
}

/**
 * Names that come from callers (a client's name from initialize, an unknown tool's name) cut
 * to NAME_CHARS: a megabyte-long name would otherwise make every row of that session huge.
 */
function clip(name: string | undefined): string | undefined {
  return name !== undefined && name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name;
}

/**
 * `value` with the values of secret-looking keys replaced, at any depth: a copy, or `value`
 * itself when the copy would serialise the same (the arguments of most calls: copying them
 * cost more than the rest of their row).
 */
export function redactSecrets(value: unknown): unknown {
  return isPlainAndClean(value, 0) ? value : redactedCopy(value, 0);
}

function redactedCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactedCopy(v, depth + 1));
  // fromEntries defines own properties: assigning `out['__proto__']` would set the prototype
  // instead, and that key (from JSON) would vanish from the audit summary.
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_KEY.test(key) ? REDACTED : redactedCopy(v, depth + 1)]),
  );
}

/**
 * Whether `value` is JSON-like data (arrays and plain objects) with no secret-looking key and
 * nothing past the depth cut: then redactedCopy would make an equal copy. Anything else (a
 * class instance, an inherited enumerable key) gets the copy, as before.
 */
function isPlainAndClean(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > 32) return false;
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) if (!isPlainAndClean(v, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || SECRET_KEY.test(key) || !isPlainAndClean((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
