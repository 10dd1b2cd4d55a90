import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
  type SelectModifierNode,
  type SelectQueryNode,
} from '../vendor/kysely.js';
import type { Client } from 'pg';
import type { Logger } from '../lib/logger.js';
import { openSqlite, scheduleCheckpoints } from './storage.js';
import { describePostgres, parsePostgresUrl, postgresPoolConfig, type PostgresStoreConfig } from './postgres-options.js';
import { StoreDialectAdapter } from './store-driver.js';
import { secretRedactor, toStoreError, type StoreErrorContext } from './store-errors.js';
import type { StoreDialect } from '../contract/store-types.js';
import type { VectorEngine } from '../contract/search-types.js';
import { loadSqliteVec } from './sqlite-vec.js';

/** One back end opened: the Kysely instance over it and how to close it. */
export interface StoreBackend {
  readonly dialect: StoreDialect;
  readonly db: Kysely<any>;
  /** Where the store is, for messages and logs; never holds a password. */
  readonly where: string;
  /** Maps a driver error the way every query's is mapped, or with advice for the boot. */
  readonly mapError: (err: unknown, phase?: 'call' | 'boot') => unknown;
  /** Removes the store's secrets from a text. */
  readonly redact: (text: string) => string;
  /** How search scores vectors on this store, and why not in the database when it cannot. */
  readonly vectors: { readonly engine: VectorEngine; readonly reason?: string };
  /**
   * PostgreSQL only: a new, unconnected client with the pool's connection options, for a
   * session that must stay the same connection (LISTEN). Its application_name ends with
   * ` (<purpose>)`, so that pg_stat_activity tells it from the pool's. The caller connects and ends it.
   */
  readonly newClient?: (purpose: string) => Client;
  close(): Promise<void>;
}

/**
 * The shared store in its own SQLite file beside gateway.db: a transaction of `ctx.store` holds
 * its connection across awaits, and on the same file as `ctx.db` it would hold the one write
 * lock the audit fold and every synchronous `ctx.db` write wait for, blocking the event loop.
 */
export function openSqliteBackend(file: string): StoreBackend {
  const sqlite = openSqlite(file);
  // The store's driver waits for a busy lock itself, off the event loop (see whileBusy).
  sqlite.pragma('busy_timeout = 0');
  const vectors = loadSqliteVec(sqlite);
  const stopCheckpoints = scheduleCheckpoints(sqlite);
  const where = `SQLite ${file}`;
  const context: StoreErrorContext = { where, redact: (text) => text };
  const mapError = (err: unknown, phase?: 'call' | 'boot') => toStoreError(err, context, phase);
  const db = new Kysely<any>({
    dialect: new StoreDialectAdapter(new SqliteDialect({ database: sqlite }), { dialect: 'sqlite', mapError }),
    plugins: [new DropRowLocks()],
  });
  return {
    dialect: 'sqlite',
    db,
    where,
    mapError,
    redact: context.redact,
    vectors,
    async close() {
      stopCheckpoints();
      try {
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Busy or already closed: the WAL is folded in at the next open.
      }
      await db.destroy();
    },
  };
}

/** A pool on the configured PostgreSQL; nothing is connected until the first query. */
export async function openPostgresBackend(config: PostgresStoreConfig, configWhere: string, log: Logger): Promise<StoreBackend> {
  const url = parsePostgresUrl(config.url, configWhere);
  // Loaded here, not at start-up: a gateway on the default SQLite store never needs it.
  const { default: pg } = await import('pg');
  const where = describePostgres(url);
  const redact = secretRedactor(url.password);
  const context: StoreErrorContext = { where, statementTimeoutMs: config.statementTimeoutMs, redact };
  const mapError = (err: unknown, phase?: 'call' | 'boot') => toStoreError(err, context, phase);
  const poolConfig = postgresPoolConfig(config, url, configWhere, pg.types);
  const pool = new pg.Pool(poolConfig);
  // An idle pooled connection that the server ends (restart, pg_terminate_backend) is reported
  // here; without a listener the pool's 'error' event would end the process. The pool drops
  // that connection and opens another for the next query.
  pool.on('error', (err) => log.warn({ store: where, reason: redact(err.message) }, 'shared store connection lost; the pool replaces it'));
  // A connection that ends while checked out also emits 'error' on its client, where nobody
  // listens (the pool only does while it is idle): that would end the process too. The query
  // running on it fails with the same error, mapped to STORE_UNAVAILABLE for its caller.
  pool.on('connect', (client) => client.on('error', (err) => log.debug({ store: where, reason: redact(err.message) }, 'shared store connection ended during a query')));
  const db = new Kysely<any>({
    dialect: new StoreDialectAdapter(new PostgresDialect({ pool }), { dialect: 'postgres', mapError }),
  });
  // pgvector is not used yet (Debian 12 does not package it): vectors are scored exactly by the gateway.
  const vectors = { engine: 'exact', reason: 'PostgreSQL: vectors are stored as float32 bytes and scored exactly by the gateway' } as const;
  const newClient = (purpose: string) => new pg.Client({ ...poolConfig, application_name: `${poolConfig.application_name} (${purpose})` });
  return { dialect: 'postgres', db, where, mapError, redact, vectors, newClient, close: () => db.destroy() };
}

const ROW_LOCKS = new Set(['ForUpdate', 'ForNoKeyUpdate', 'ForShare', 'ForKeyShare', 'NoWait', 'SkipLocked']);

/**
 * SQLite has no row locks (`FOR UPDATE` is a syntax error there) and needs none: a store
 * transaction holds the database's write lock from its start. Dropping the clause lets one
 * plugin's `forUpdate()` read-modify-write run unchanged on both back ends.
 */
class DropRowLocks implements KyselyPlugin {
  // Only the top-level SELECT: that is where `forUpdate()` puts the clause, and checking one
  // node keeps every other query free of a tree walk.
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind !== 'SelectQueryNode' || !node.endModifiers?.some(isRowLock)) return node;
    return { ...node, endModifiers: node.endModifiers.filter((m) => !isRowLock(m)) } satisfies SelectQueryNode;
  }

  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}

function isRowLock(modifier: SelectModifierNode): boolean {
  return modifier.modifier !== undefined && ROW_LOCKS.has(modifier.modifier);
}
