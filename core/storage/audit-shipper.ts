import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../lib/logger.js';
import { AUDIT_SHIPPED_TABLE, CORE_STORE_MIGRATIONS, SHARED_AUDIT_TABLE } from './core-store-tables.js';
import type { SharedStore } from './shared-store.js';
import { migrate, type Database } from './storage.js';

/** How often rows folded into gateway.db are moved on to PostgreSQL. */
const SHIP_EVERY_MS = 500;
/** Rows per PostgreSQL transaction. */
const SHIP_BATCH = 1000;

const LOCAL_COLUMNS = ['at', 'transport', 'session', 'caller', 'plugin', 'tool', 'args_digest', 'args_summary', 'duration_ms', 'outcome', 'kind'] as const;

interface LocalRow {
  id: number;
  [column: string]: unknown;
}

export interface AuditShipperOptions {
  readonly db: Database;
  readonly store: SharedStore;
  readonly log: Logger;
  /** How often to ship; default SHIP_EVERY_MS. */
  readonly everyMs?: number;
}

/**
 * With a PostgreSQL store, moves the audit rows that AuditLog folds into gateway.db's
 * `core_audit` on to the shared `core_audit`, where every gateway's calls are in one table.
 * The journal and the fold into gateway.db stay as they are (before the reply, and off the
 * call path); this runs on a timer, so PostgreSQL is never on a call's path either.
 *
 * Exactly once: each batch is inserted together with this gateway's mark (the last local id
 * shipped) in one PostgreSQL transaction; only then are the local rows deleted. A crash in
 * between ships nothing twice (the mark says where to resume). While PostgreSQL is down the
 * rows wait in gateway.db, on disk, and the next round after it returns ships them: nothing
 * is lost, and calls go on (the audit precondition is the journal's, which still works).
 */
export class AuditShipper {
  readonly #db: Database;
  readonly #store: SharedStore;
  readonly #log: Logger;
  readonly #gateway: string;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<number> | undefined;
  /** The round after the running one, which every caller who asked meanwhile waits for. */
  #queued: Promise<number> | undefined;
  #failing = false;
  #closed = false;

  private constructor(options: AuditShipperOptions, gateway: string) {
    this.#db = options.db;
    this.#store = options.store;
    this.#log = options.log;
    this.#gateway = gateway;
    this.#timer = setInterval(() => void this.ship().catch(() => {}), options.everyMs ?? SHIP_EVERY_MS).unref();
  }

  /**
   * Applies core's shared-store steps, then ships what gateway.db holds (rows of an older
   * gateway on this dataDir included) before the gateway takes calls.
   */
  static async start(options: AuditShipperOptions): Promise<AuditShipper> {
    await options.store.migrate('core', CORE_STORE_MIGRATIONS);
    const shipper = new AuditShipper(options, gatewayName(options.db));
    try {
      await shipper.ship();
    } catch (err) {
      shipper.#stop();
      throw err;
    }
    return shipper;
  }

  /** This gateway's name in the shared `core_audit.gateway`: `<host>-<random>`, kept in gateway.db. */
  get gateway(): string {
    return this.#gateway;
  }

  /**
   * Ships every row waiting in gateway.db when it is called; resolves with how many the round
   * that covers them shipped. One round at a time: a call while one runs waits for it and for
   * one more round, since the running one may have read gateway.db before the caller's rows
   * were there; every call made meanwhile shares that next round. Rejects (and logs once per
   * outage) when PostgreSQL fails; the rows stay for the next round.
   */
  ship(): Promise<number> {
    if (!this.#running) return this.#round();
    return (this.#queued ??= this.#running
      .catch(() => 0)
      .then(() => {
        this.#queued = undefined;
        // Someone may have started a round since: it began after the callers' rows were written.
        return this.#running ?? this.#round();
      }));
  }

  #round(): Promise<number> {
    return (this.#running = this.#shipAll().finally(() => (this.#running = undefined)));
  }

  /** Stops the timer after a last round (best effort: what fails waits in gateway.db). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
    await this.ship().catch(() => {});
  }

  #stop(): void {
    clearInterval(this.#timer);
  }

  async #shipAll(): Promise<number> {
    let shipped = 0;
    try {
      for (;;) {
        const count = await this.#shipBatch();
        shipped += count;
        if (count < SHIP_BATCH) break;
      }
    } catch (err) {
      if (!this.#failing) this.#log.warn({ err, store: this.#store.where }, 'audit rows cannot reach the shared store; they wait in gateway.db and are shipped when it answers');
      this.#failing = true;
      throw err;
    }
    if (this.#failing) this.#log.info('audit rows reach the shared store again');
    this.#failing = false;
    return shipped;
  }

  async #shipBatch(): Promise<number> {
    const gateway = this.#gateway;
    const last = await this.#store.db.transaction().execute(async (trx) => {
      await trx.insertInto(AUDIT_SHIPPED_TABLE).values({ gateway, last_id: 0 }).onConflict((oc) => oc.column('gateway').doNothing()).execute();
      const mark = await trx.selectFrom(AUDIT_SHIPPED_TABLE).select('last_id').where('gateway', '=', gateway).forUpdate().executeTakeFirstOrThrow();
      // Shipping deletes every row up to the mark but the newest; if that one is gone too
      // (retention), ids restarted below the mark, and every row here is new.
      const localMax = (this.#db.prepare('SELECT MAX(id) AS id FROM core_audit').get() as { id: number | null }).id ?? 0;
      const from = localMax < Number(mark.last_id) ? 0 : Number(mark.last_id);
      const rows = this.#db
        .prepare(`SELECT id, ${LOCAL_COLUMNS.join(', ')} FROM core_audit WHERE id > ? ORDER BY id LIMIT ?`)
        .all(from, SHIP_BATCH) as LocalRow[];
      if (rows.length === 0) return { mark: Number(mark.last_id), count: 0 };
      await trx
        .insertInto(SHARED_AUDIT_TABLE)
        .values(rows.map(({ id, ...row }) => ({ gateway, local_id: id, ...row })))
        .execute();
      const newMark = rows.at(-1)!.id;
      await trx.updateTable(AUDIT_SHIPPED_TABLE).set({ last_id: newMark }).where('gateway', '=', gateway).execute();
      return { mark: newMark, count: rows.length };
    });
    // The newest row stays: SQLite gives a new row MAX(id) + 1, and with the table empty ids
    // would start again at 1, below the mark, and never be shipped.
    this.#db.prepare('DELETE FROM core_audit WHERE id <= ? AND id < (SELECT MAX(id) FROM core_audit)').run(last.mark);
    return last.count;
  }
}

const IDENTITY_MIGRATIONS = [
  'CREATE TABLE core_gateway_identity (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL)',
];

/**
 * The name this dataDir's gateway has in shared tables, made once and kept in gateway.db:
 * the host name tells people where it runs, the random part tells two gateways on one host
 * apart, and keeping it makes the shipping mark survive restarts.
 */
function gatewayName(db: Database): string {
  migrate(db, 'core-identity', IDENTITY_MIGRATIONS);
  db.prepare('INSERT OR IGNORE INTO core_gateway_identity (id, name) VALUES (1, ?)').run(`${hostname()}-${randomBytes(4).toString('hex')}`);
  return (db.prepare('SELECT name FROM core_gateway_identity WHERE id = 1').get() as { name: string }).name;
}
