import { testStores, type TestStoreBackend } from '../../core/testing.js';
import { postgresSkipReason, startTestPostgres, type TestPostgres } from './postgres.js';

/**
 * @mcp-gateway/core/testing's `testStores` with this repository's PostgreSQL (postgres.ts): a fresh
 * database on the run's shared server (scripts/run-tests.js), or on one of the file's own when
 * it runs alone, started at the first `fresh()` and stopped by `close()`. Skipped, with the
 * reason, where PostgreSQL is not installed.
 */
export function storeMatrix(): TestStoreBackend[] {
  let server: Promise<TestPostgres> | undefined;
  const [sqlite, postgres] = testStores(
    postgresSkipReason ? { postgresSkip: postgresSkipReason } : { postgresDatabase: async () => (await (server ??= startTestPostgres())).createDatabase() },
  );
  const close = async () => {
    await postgres.close();
    await (await server)?.stop();
  };
  return [sqlite, { name: postgres.name, skip: postgres.skip, fresh: () => postgres.fresh(), close }];
}
