/**
 * The stores a plugin's tests run on: SQLite (a fresh data folder each time) and PostgreSQL (a
 * fresh database each time, on a server the test suite provides). A `TestStore` handed to two
 * gateways puts them on one store, as two gateways of a deployment share a PostgreSQL server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `storage` section of gateway.config.yaml: `shared: sqlite`, or a PostgreSQL server. */
export interface TestStorage {
  readonly shared: 'sqlite' | { readonly postgres: { readonly url: string } & Readonly<Record<string, unknown>> };
}

/** One store: its `storage` config, and the data folder a gateway on it uses (SQLite's `shared.db` is there). */
export interface TestStore {
  readonly storage: TestStorage;
  readonly dataDir: string;
}

/** One back end of the matrix. */
export interface TestStoreBackend {
  readonly name: 'sqlite' | 'postgres';
  /** Why this back end's tests are skipped here (give it to `describe`'s `skip`), or false. */
  readonly skip: string | false;
  /** A new, empty store. */
  fresh(): Promise<TestStore>;
  /** Removes the data folders `fresh` made (a database stays on its server). */
  close(): Promise<void>;
}

export interface TestStoresOptions {
  /**
   * The URL of a new, empty PostgreSQL database, each time it is called (e.g. one made with
   * `CREATE DATABASE` on a throwaway server). Without it the PostgreSQL back end is skipped.
   */
  readonly postgresDatabase?: () => Promise<string>;
  /** Why PostgreSQL is skipped when `postgresDatabase` is absent. */
  readonly postgresSkip?: string;
}

/** SQLite and PostgreSQL, in that order: run a suite on each (`for (const backend of testStores(...))`). */
export function testStores(options: TestStoresOptions = {}): [TestStoreBackend, TestStoreBackend] {
  const { postgresDatabase } = options;
  const sqlite = backend('sqlite', false, async () => ({ shared: 'sqlite' }));
  const skip = postgresDatabase ? false : (options.postgresSkip ?? 'no PostgreSQL server was given (testStores({ postgresDatabase }))');
  const postgres = backend('postgres', skip, async () => {
    if (!postgresDatabase) throw new Error(`The PostgreSQL back end is skipped: ${skip}`);
    return { shared: { postgres: { url: await postgresDatabase() } } };
  });
  return [sqlite, postgres];
}

function backend(name: TestStoreBackend['name'], skip: string | false, storage: () => Promise<TestStorage>): TestStoreBackend {
  let root: string | undefined;
  let count = 0;
  return {
    name,
    skip,
    async fresh() {
      root ??= mkdtempSync(join(tmpdir(), `mcp-gateway-test-${name}-`));
      return { storage: await storage(), dataDir: join(root, `data-${++count}`) };
    },
    async close() {
      if (root) rmSync(root, { recursive: true, force: true, maxRetries: 5 });
      root = undefined;
    },
  };
}
