import { join } from 'node:path';
import { sql, type Kysely } from '../vendor/kysely.js';
import type { Client } from 'pg';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import { openPostgresBackend, openSqliteBackend, type StoreBackend } from './store-dialects.js';
import type { StorageConfig } from './store-config.js';
import { migrateStore, tablePrefix } from './store-migrations.js';
import type { PluginStore, StoreDialect, StoreMigration } from '../contract/store-types.js';
import { openSearchIndex } from './search-index.js';
import { DEFAULT_STORE_HEALTH, StoreHealth } from './store-health.js';
import { pluginKeySpec } from './store-secrets.js';
import { loadSecretFile, type SecretFileSpec } from '../fs/secret-file.js';
import { CORE_STORE_MIGRATIONS, SHARED_SECRETS_TABLE } from './core-store-tables.js';
import type { VectorEngine } from '../contract/search-types.js';

/** The file the shared store uses when it is SQLite, in the gateway's dataDir. */
export const SHARED_SQLITE_FILE = 'shared.db';

export interface OpenSharedStoreOptions {
  readonly dataDir: string;
  readonly log: Logger;
  /** The config file, for messages (`(default configuration)` without one). */
  readonly configWhere: string;
}

/**
 * The shared store of one gateway: state a team shares, on the embedded SQLite file or on a
 * PostgreSQL server that several gateways use. Each plugin sees it through `forPlugin` as
 * `ctx.store`; core's own shared tables (owner `core`) go through `migrate` the same way.
 */
export class SharedStore {
  readonly #backend: StoreBackend;
  /** Whether the store answers now, for /health and gateway_status (store-health.ts). */
  readonly health: StoreHealth;
  /** Where the SQLite store's secrets live beside it (store-secrets.ts). */
  readonly #dataDir: string;
  /** Plugin secrets by file name, each read or made once. */
  readonly #secrets = new Map<string, Promise<string>>();
  #closing: Promise<void> | undefined;

  private constructor(backend: StoreBackend, health: StoreHealth, dataDir: string) {
    this.#backend = backend;
    this.health = health;
    this.#dataDir = dataDir;
  }

  /**
   * Opens the configured back end and makes sure it answers, so that a gateway whose
   * PostgreSQL is unreachable or refuses the login never starts (STORE_UNAVAILABLE); a
   * malformed URL or unreadable CA file is CONFIG_INVALID. Messages never hold the password.
   */
  static async open(config: StorageConfig, options: OpenSharedStoreOptions): Promise<SharedStore> {
    const backend =
      config.shared === 'sqlite'
        ? openSqliteBackend(join(options.dataDir, SHARED_SQLITE_FILE))
        : await openPostgresBackend(config.shared.postgres, options.configWhere, options.log);
    try {
      await sql`select 1`.execute(backend.db);
    } catch (err) {
      await backend.close().catch(() => {});
      // The driver mapped it for a call; word it again for the boot, from the driver's error.
      const driverError = isGatewayError(err) && err.cause !== undefined ? err.cause : err;
      const mapped = backend.mapError(driverError, 'boot');
      const reason = isGatewayError(mapped) ? mapped.message : `The shared store (${backend.where}) failed its first query: ${backend.redact(String((driverError as Error)?.message ?? driverError))}.`;
      throw new GatewayError('STORE_UNAVAILABLE', `${options.configWhere}: storage.shared: the gateway cannot start without its shared store. ${reason}`, { cause: driverError });
    }
    options.log.debug({ store: backend.where, vectors: backend.vectors.engine }, 'shared store open');
    if (backend.dialect === 'sqlite' && backend.vectors.engine === 'exact') {
      options.log.warn({ reason: backend.vectors.reason }, 'sqlite-vec did not load: search scores vectors exactly in the gateway (slower on large indexes)');
    }
    const health = new StoreHealth(
      { probe: () => sql`select 1`.execute(backend.db), where: backend.where, redact: (text) => backend.redact(text), log: options.log },
      config.healthCheck ?? DEFAULT_STORE_HEALTH,
    );
    return new SharedStore(backend, health, options.dataDir);
  }

  get dialect(): StoreDialect {
    return this.#backend.dialect;
  }

  /** Where the store is, for status and logs; never holds a password. */
  get where(): string {
    return this.#backend.where;
  }

  /** How search scores vectors on this store (`sqlite-vec`, or `exact` in the gateway), and why. */
  get vectors(): { readonly engine: VectorEngine; readonly reason?: string } {
    return this.#backend.vectors;
  }

  /** Every owner's queries share this one instance (one pool, or SQLite's one connection). */
  get db(): Kysely<any> {
    return this.#backend.db;
  }

  /**
   * A new, unconnected PostgreSQL client with the pool's options, for a session that must stay
   * on one connection (LISTEN); `undefined` on SQLite. Its application_name ends with
   * ` (<purpose>)`. The caller connects it and ends it.
   */
  newClient(purpose: string): Client | undefined {
    return this.#backend.newClient?.(purpose);
  }

  /** Removes the store's secrets (the password) from a text, for logs. */
  redact(text: string): string {
    return this.#backend.redact(text);
  }

  /** Applies `owner`'s numbered steps (see `PluginStore.migrate`). */
  migrate(owner: string, migrations: readonly StoreMigration[]): Promise<number> {
    return migrateStore(this.#backend.db, this.#backend.dialect, owner, migrations);
  }

  /** The `ctx.store` of plugin `name`. */
  forPlugin(name: string): PluginStore {
    const db = this.#backend.db;
    const home = { db, dialect: this.#backend.dialect, vectorEngine: this.#backend.vectors.engine, tablePrefix: tablePrefix(name), owner: name };
    return {
      dialect: this.#backend.dialect,
      db,
      tablePrefix: tablePrefix(name),
      migrate: (migrations) => this.migrate(name, migrations),
      transaction: (fn) => db.transaction().execute(fn),
      search: (index, options) => openSearchIndex(home, index, options),
      secret: (secret) => this.#pluginSecret(name, secret),
    };
  }

  async #pluginSecret(owner: string, name: string): Promise<string> {
    const spec = pluginKeySpec(owner, name);
    let secret = this.#secrets.get(spec.name);
    if (secret === undefined) {
      secret = storeSecret(this, this.#dataDir, spec);
      // A failure (the store down at that moment) is not kept: the next ask tries again.
      secret.catch(() => this.#secrets.delete(spec.name));
      this.#secrets.set(spec.name, secret);
    }
    return secret;
  }

  /** Closes the pool or the file; calls made after it fail with STORE_UNAVAILABLE. */
  close(): Promise<void> {
    return (this.#closing ??= this.#backend.close());
  }
}

/**
 * The secret `spec` names, the same for every gateway that may see what it signs: gateways on
 * one PostgreSQL store share it in `core_secrets` (the first to ask makes it); gateways on one
 * dataDir, which share the SQLite store, share it in a file there (mode 0600).
 */
export async function storeSecret(store: SharedStore, dataDir: string, spec: SecretFileSpec): Promise<string> {
  if (store.dialect !== 'postgres') return loadSecretFile(dataDir, spec).secret;
  await store.migrate('core', CORE_STORE_MIGRATIONS);
  await store.db
    .insertInto(SHARED_SECRETS_TABLE)
    .values({ name: spec.name, value: spec.make() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await store.db.selectFrom(SHARED_SECRETS_TABLE).select('value').where('name', '=', spec.name).executeTakeFirstOrThrow();
  const secret = row.value as string;
  // A row someone emptied or changed would sign with a guessable key: refused, as a bad file is.
  if (!spec.pattern.test(secret)) {
    throw new GatewayError('CONFIG_INVALID', `The shared store's ${SHARED_SECRETS_TABLE} row "${spec.name}" does not hold the ${spec.label} it should; delete the row and restart to make a new one.`);
  }
  return secret;
}
