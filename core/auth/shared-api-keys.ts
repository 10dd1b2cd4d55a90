import { randomUUID } from 'node:crypto';
import { sql } from '../vendor/kysely.js';
import type { ApiKeyConfig } from '../config/config.js';
import type { EventBus } from '../lib/events.js';
import type { ApiKeys } from './api-keys.js';
import type { Logger } from '../lib/logger.js';
import { CORE_STORE_MIGRATIONS, SHARED_KEYS_TABLE } from '../storage/core-store-tables.js';
import { EVENTS_NOTIFY_CHANNEL } from '../storage/pg-events.js';
import type { SharedStore } from '../storage/shared-store.js';

/** The event that tells every gateway to read the shared keys again. */
export const KEYS_CHANGED_CHANNEL = 'core.keys.changed';
/** Read again this often anyway: a NOTIFY missed while a LISTEN connection was down. */
const REFRESH_EVERY_MS = 30_000;

/**
 * Adds a key to the shared store's `core_api_keys` (PostgreSQL) and tells every gateway on
 * it (`core.keys.changed` on the events channel). Resolves false when the name is taken.
 */
export async function addSharedKey(store: SharedStore, key: ApiKeyConfig): Promise<boolean> {
  await store.migrate('core', CORE_STORE_MIGRATIONS);
  const inserted = await store.db
    .insertInto(SHARED_KEYS_TABLE)
    .values({ name: key.name, hash: key.hash, scopes: JSON.stringify(key.scopes), profile: key.profile ?? null, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  // The same message a gateway's bridge sends: this process is no gateway, so a fresh origin.
  const event = { origin: `cli-${randomUUID()}`, channel: KEYS_CHANGED_CHANNEL, data: { name: key.name }, source: 'core', time: new Date().toISOString() };
  await sql`select pg_notify(${EVENTS_NOTIFY_CHANNEL}, ${JSON.stringify(event)})`.execute(store.db);
  return true;
}

/** Every key in `core_api_keys`. */
export async function readSharedKeys(store: SharedStore): Promise<ApiKeyConfig[]> {
  const rows = await store.db.selectFrom(SHARED_KEYS_TABLE).select(['name', 'hash', 'scopes', 'profile']).orderBy('name').execute();
  return rows.map((row) => ({
    name: row.name as string,
    hash: row.hash as string,
    scopes: JSON.parse(row.scopes as string) as string[],
    ...(row.profile === null ? {} : { profile: row.profile as string }),
  }));
}

export interface SharedApiKeysOptions {
  readonly store: SharedStore;
  readonly keys: ApiKeys;
  readonly bus: EventBus;
  readonly log: Logger;
  readonly refreshEveryMs?: number;
}

/**
 * Keeps a gateway's `ApiKeys` in step with `core_api_keys`, so that a key made with
 * `mcp-gateway keys create` on any machine is accepted by every gateway on the database:
 * read at boot, again on each `core.keys.changed` event (from any gateway or the CLI, through
 * the event bridge), and every REFRESH_EVERY_MS in case a NOTIFY was missed. Checking a key
 * stays a lookup in memory: no request waits on PostgreSQL. A failed read keeps the keys
 * known so far.
 */
export class SharedApiKeys {
  readonly #options: SharedApiKeysOptions;
  readonly #timer: NodeJS.Timeout;
  readonly #unsubscribe: () => void;
  #refreshing: Promise<void> | undefined;
  #again = false;

  private constructor(options: SharedApiKeysOptions) {
    this.#options = options;
    this.#timer = setInterval(() => void this.refresh(), options.refreshEveryMs ?? REFRESH_EVERY_MS).unref();
    this.#unsubscribe = options.bus.subscribe(KEYS_CHANGED_CHANNEL, () => void this.refresh());
  }

  /** Reads the keys before the gateway takes requests; a failure stops the boot. */
  static async start(options: SharedApiKeysOptions): Promise<SharedApiKeys> {
    await options.store.migrate('core', CORE_STORE_MIGRATIONS);
    options.keys.replaceShared(await readSharedKeys(options.store));
    return new SharedApiKeys(options);
  }

  /** Reads the keys again; a refresh asked for while one runs runs once more after it. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#read().finally(() => {
      this.#refreshing = undefined;
      if (this.#again) {
        this.#again = false;
        void this.refresh();
      }
    });
    return this.#refreshing;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#unsubscribe();
  }

  async #read(): Promise<void> {
    try {
      this.#options.keys.replaceShared(await readSharedKeys(this.#options.store));
    } catch (err) {
      this.#options.log.warn({ err }, 'the shared API keys could not be read; the ones known so far stay accepted');
    }
  }
}
