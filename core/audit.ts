import { createHash } from 'node:crypto';
import type { Database } from './storage.js';
import { migrate } from './storage.js';
import type { CallRecord } from './tool-catalog.js';

const SECRET_KEY = /^(pass|pwd|auth)$|passw(or)?d|passphrase|secret|token|api[-_]?key|authori[sz]ation|credential|private[-_]?key|cookie/i;
const SUMMARY_CHARS = 512;
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

/**
 * The audit log: one row per tool call, written before the reply leaves, so a call whose
 * answer a client saw is on record even if the process is killed right after. Arguments are
 * kept as a SHA-256 digest plus a short summary, both with secret-looking keys redacted.
 * They are the effective arguments: ajv fills schema defaults in as it validates.
 */
export class AuditLog {
  readonly #insert;
  readonly #insertBatch: (rows: unknown[][]) => void;
  readonly #busy: () => boolean;
  #queue: unknown[][] = [];
  #flush: Promise<void> | undefined;

  /**
   * Creates the table if needed and removes rows older than `retentionDays` (0 keeps all).
   * `busy` says whether other calls are in flight: then rows are committed together (one
   * transaction per event-loop turn), which costs each call far less than a commit of its own.
   */
  constructor(db: Database, retentionDays = 0, busy: () => boolean = () => false) {
    this.#busy = busy;
    migrate(db, 'core', migrations);
    if (retentionDays > 0) {
      const cutoff = new Date(Date.now() - retentionDays * 86_400_000).toISOString();
      // Scans back from the newest row (rowid order) to the first one past the cut, once per boot.
      const last = db.prepare('SELECT id FROM core_audit WHERE at < ? ORDER BY id DESC LIMIT 1').get(cutoff) as { id: number } | undefined;
      if (last) db.prepare('DELETE FROM core_audit WHERE id <= ?').run(last.id);
    }
    this.#insert = db.prepare(
      `INSERT INTO core_audit (at, transport, session, caller, plugin, tool, args_digest, args_summary, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insert = this.#insert;
    this.#insertBatch = db.transaction((rows: unknown[][]) => {
      for (const row of rows) insert.run(...row);
    });
  }

  /**
   * Writes the call's row. Returns a promise when the row waits for a group commit: the
   * caller must not answer before it settles, so that an answered call is on record. If the
   * commit itself fails (disk full, a lock held past busy_timeout) it rejects; the catalog
   * logs that and answers anyway — refusing calls because the audit disk is full would turn
   * an audit problem into an outage.
   */
  record(call: CallRecord): void | Promise<void> {
    const row = rowOf(call);
    if (!this.#busy() && !this.#flush) {
      this.#insert.run(...row);
      return;
    }
    this.#queue.push(row);
    this.#flush ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        const rows = this.#queue;
        this.#queue = [];
        this.#flush = undefined;
        try {
          this.#insertBatch(rows);
          resolve();
        } catch (err) {
          reject(err);
        }
      });
    });
    return this.#flush;
  }
}

function rowOf(call: CallRecord): unknown[] {
  const json = JSON.stringify(redactSecrets(call.args) ?? null);
  return [
    new Date(call.startedAt).toISOString(),
    call.caller.transport,
    call.caller.sessionId ?? null,
    call.caller.identity ?? null,
    call.plugin ?? null,
    call.tool,
    createHash('sha256').update(json).digest('hex'),
    json.length > SUMMARY_CHARS ? `${json.slice(0, SUMMARY_CHARS)}…` : json,
    Math.round(call.durationMs),
    call.outcome,
  ];
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
