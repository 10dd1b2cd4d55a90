import type { Database } from 'better-sqlite3';
import type { Kysely, Transaction } from '../vendor/kysely.js';
import type { SearchIndex, SearchIndexOptions } from './search-types.js';

/** One numbered step of a plugin's tables in gateway.db (ctx.db): SQL text, or a function for steps that need code. */
export type Migration = string | ((db: Database) => void);

/** The shared store's back end: the embedded SQLite file (default) or a PostgreSQL server. */
export type StoreDialect = 'sqlite' | 'postgres';

/**
 * One numbered step of a plugin's tables in the shared store. Index 0 of the list is version 1.
 *
 * `up` runs inside a transaction together with the step's row in the versions table: when it
 * throws, both roll back and the boot stops naming the plugin and the step. Write it once with
 * Kysely's schema builder (`db.schema.createTable('notes_items')...`); where the engines
 * differ, branch on `dialect` and run raw SQL (`sql\`...\`.execute(db)`).
 *
 * Every table, view, index and trigger a step creates must be named with the plugin's prefix
 * (`notes_…`; a plugin `ide-bridge` uses `ide_bridge_…`), and a step may drop only its own:
 * anything else is refused and rolled back. Steps are append-only: never edit one that shipped.
 */
export interface StoreMigration {
  /** A few words saying what the step does; shown in messages and kept in the versions table. */
  readonly name?: string;
  up(db: Kysely<any>, dialect: StoreDialect): Promise<void>;
}

/**
 * `ctx.store`: the plugin's door to the shared store, the state a team shares (several
 * gateways may use the same PostgreSQL database). Machine-local state stays on `ctx.db`.
 *
 * Type the tables by annotating: `const store: PluginStore<NotesTables> = ctx.store;` where
 * `NotesTables` maps each table name to its row type (Kysely's `Database` interface).
 *
 * Failures of the store itself reach callers with stable codes: `STORE_UNAVAILABLE` (server
 * unreachable, connection lost: whatever the transaction had done is rolled back),
 * `STORE_TIMEOUT` (a statement ran past the configured timeout), `STORE_CONFLICT` (deadlock
 * or busy store: retry). Errors of the SQL itself (a constraint, a typo) keep the driver's
 * error and reach callers as `INTERNAL_ERROR` unless the plugin catches them.
 */
export interface PluginStore<Tables = any> {
  readonly dialect: StoreDialect;
  /** The Kysely query builder on the shared store; every query is a promise. */
  readonly db: Kysely<Tables>;
  /** What this plugin's table names start with: its name, `-` as `_`, then `_`. */
  readonly tablePrefix: string;
  /**
   * Applies the steps not applied yet, in order, each in its own transaction; resolves with
   * how many ran. Await it at the start of `setup`. Throws STORE_MIGRATION_FAILED (a step
   * failed or broke the naming rule) or STORE_SCHEMA_NEWER (the store is at a version this
   * code does not ship: it was written by a newer version of the plugin).
   */
  migrate(migrations: readonly StoreMigration[]): Promise<number>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the
   * error is rethrown). On SQLite the transaction takes the write lock at its start (`BEGIN
   * IMMEDIATE`) and `forUpdate()` is dropped from queries; on PostgreSQL `forUpdate()` locks
   * the rows read. Either way a read-modify-write inside it loses no concurrent update.
   */
  transaction<T>(fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T>;
  /**
   * The plugin's search index `name` (1 to 40 of a-z, 0-9, _), created on first use in
   * tables `<prefix>search_<name>…`: full-text (FTS5 bm25 on SQLite, tsvector and ts_rank on
   * PostgreSQL) and, with `dimensions`, vector similarity; scores in [0, 1] on both engines
   * (docs/storage.md, "Search"). Call it in `setup` and keep the index. Throws
   * SEARCH_INDEX_INVALID for a bad name, or dimensions other than those it was created with.
   */
  search(name: string, options?: SearchIndexOptions): Promise<SearchIndex>;
  /**
   * A random 32-byte key (base64url) that every gateway sharing this store reads alike, for
   * signing what callers hand back later (collab's agent handles): in the store's `core_secrets`
   * on PostgreSQL, in `<dataDir>/<plugin>.<name>.key` (mode 0600) beside the SQLite store. The
   * first gateway to ask makes it. `name` is 1 to 40 of a-z, 0-9 and -; another name is
   * CONFIG_INVALID.
   */
  secret(name: string): Promise<string>;
}
