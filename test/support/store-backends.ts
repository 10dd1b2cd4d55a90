import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../core/lib/logger.js';
import { SharedStore } from '../../core/storage/shared-store.js';
import type { StorageConfig } from '../../core/storage/store-config.js';
import type { StoreDialect } from '../../core/contract/store-types.js';
import { postgresSkipReason, startTestPostgres, type TestPostgres } from './postgres.js';

/** One shared store made for one test: its config, and the dataDir a gateway would use with it. */
export interface FreshStore {
  readonly storage: StorageConfig;
  readonly dataDir: string;
}

/** A back end the storage suite runs on; the suite is the same for each. */
export interface BackendUnderTest {
  readonly name: StoreDialect;
  /** Why this back end's tests are skipped here, or false. */
  readonly skip: string | false;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A new, empty store: a fresh dataDir (SQLite) or a fresh database (PostgreSQL). */
  fresh(options?: { statementTimeoutMs?: number }): Promise<FreshStore>;
  /** The PostgreSQL server, between start and stop; undefined for SQLite. */
  readonly postgres: TestPostgres | undefined;
}

/** SQLite and PostgreSQL; `ownPostgres` for a suite that stops and starts its server (see startTestPostgres). */
export function storeBackends(options: { ownPostgres?: boolean } = {}): BackendUnderTest[] {
  return [sqliteBackend(), postgresBackend(options.ownPostgres ?? false)];
}

function sqliteBackend(): BackendUnderTest {
  let root: string | undefined;
  let count = 0;
  return {
    name: 'sqlite',
    skip: false,
    postgres: undefined,
    async start() {
      root = mkdtempSync(join(tmpdir(), 'mcpgw-store-'));
    },
    async stop() {
      if (root) rmSync(root, { recursive: true, force: true });
    },
    async fresh() {
      return { storage: { shared: 'sqlite' }, dataDir: join(root!, `data-${++count}`) };
    },
  };
}

function postgresBackend(own: boolean): BackendUnderTest {
  let server: TestPostgres | undefined;
  let root: string | undefined;
  let count = 0;
  return {
    name: 'postgres',
    skip: postgresSkipReason,
    get postgres() {
      return server;
    },
    async start() {
      root = mkdtempSync(join(tmpdir(), 'mcpgw-store-'));
      server = await startTestPostgres({ own });
    },
    async stop() {
      await server?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    },
    async fresh(options = {}) {
      const url = await server!.createDatabase();
      const postgres = { url, poolSize: 10, statementTimeoutMs: options.statementTimeoutMs ?? 30_000, connectTimeoutMs: 10_000 };
      return { storage: { shared: { postgres } }, dataDir: join(root!, `data-${++count}`) };
    },
  };
}

/** Opens `target` (a fresh store unless given) and closes it when the test ends. */
export async function openStore(
  t: { after(fn: () => unknown): void },
  backend: BackendUnderTest,
  target?: FreshStore,
  log: Logger = createLogger('silent'),
): Promise<SharedStore> {
  const { storage, dataDir } = target ?? (await backend.fresh());
  const store = await SharedStore.open(storage, { dataDir, log, configWhere: 'test' });
  t.after(() => store.close());
  return store;
}
