import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { resolveConfig } from '../../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../../core/gateway/gateway.js';
import type { Logger } from '../../../../core/lib/logger.js';
import { STORE_VERSIONS_TABLE } from '../../../../core/storage/store-migrations.js';
import { memoryClient, resultJson, testConfigObject, TESTS } from '../../../helpers.js';
import type { BackendUnderTest, FreshStore } from '../../../support/store-backends.js';
import { rejectsWith } from './migrations.js';

export const TALLY_REGISTRY = join(TESTS, 'fixtures', 'store-plugin', 'registry');

/** A gateway with the tally plugin on `target`'s store; closed when the test ends. */
export async function bootTally(
  t: { after(fn: () => unknown): void },
  target: FreshStore,
  options: { tally?: Record<string, unknown>; log?: Logger; auth?: 'key' | 'none' } = {},
): Promise<Gateway> {
  const dir = join(target.dataDir, '..');
  const raw = testConfigObject(dir, {
    dataDir: target.dataDir,
    storage: target.storage,
    registries: [TALLY_REGISTRY],
    plugins: { tally: { config: options.tally ?? {} } },
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }), ...(options.log ? { log: options.log } : {}) });
  t.after(() => gateway.close());
  return gateway;
}

export function gatewayCases(backend: BackendUnderTest): void {
  describe('through a gateway', () => {
    it("gives a plugin ctx.store: its tools read and write the shared store, and ctx.db stays machine-local", async (t) => {
      const target = await backend.fresh();
      const gateway = await bootTally(t, target);
      const client = await memoryClient(gateway);
      assert.deepEqual(resultJson(await client.callTool({ name: 'tally_add', arguments: { name: 'builds', by: 2 } })), { name: 'builds', value: 2 });
      assert.deepEqual(resultJson(await client.callTool({ name: 'tally_add', arguments: { name: 'builds', by: 3 } })), { name: 'builds', value: 5 });
      const got = await client.callTool({ name: 'tally_get', arguments: { name: 'builds' } });
      assert.deepEqual(got.structuredContent, { name: 'builds', value: 5 });
      const log = await gateway.store.db.selectFrom('tally_log').select('delta').orderBy('id').execute();
      assert.deepEqual(log.map((r) => r.delta), [2, 3]);
      // gateway.db holds the machine-local state only: none of the plugin's shared tables.
      const local = new BetterSqlite3(join(target.dataDir, 'gateway.db'), { readonly: true });
      t.after(() => local.close());
      assert.deepEqual(local.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'tally%'").all(), []);
    });

    it('stops the boot naming the plugin and the step when a migration fails halfway, keeping the steps before it', async (t) => {
      const target = await backend.fresh();
      await rejectsWith(
        bootTally(t, target, { tally: { extraStep: 'fails-halfway' } }),
        'STORE_MIGRATION_FAILED',
        /Plugin "tally": shared-store migration 2 of 2 \("add a column to a table that is not there"\) failed and was rolled back/,
        /tally_missing/,
      );
      // The same store, booted with the shipped steps only: step 1 is there, the half of step 2 is not.
      const gateway = await bootTally(t, target);
      const steps = await gateway.store.db.selectFrom(STORE_VERSIONS_TABLE).select('version').where('owner', '=', 'tally').execute();
      assert.deepEqual(steps.map((s) => s.version), [1]);
      await assert.rejects(gateway.store.db.selectFrom('tally_extra').selectAll().execute());
    });
  });
}
