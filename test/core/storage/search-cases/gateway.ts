import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../../../core/config/config.js';
import { createGateway } from '../../../../core/gateway/gateway.js';
import { memoryClient, resultJson, testConfigObject, TESTS } from '../../../helpers.js';
import type { BackendUnderTest } from '../../../support/store-backends.js';

const FINDER_REGISTRY = join(TESTS, 'fixtures', 'search-plugin', 'registry');

export function gatewaySearchCases(backend: BackendUnderTest): void {
  describe('through a gateway', () => {
    it('serves a plugin whose tools index and query through ctx.store.search, errors keeping their codes', async (t) => {
      const target = await backend.fresh();
      const dir = join(target.dataDir, '..');
      const raw = testConfigObject(dir, { dataDir: target.dataDir, storage: target.storage, registries: [FINDER_REGISTRY], plugins: { finder: {} } });
      const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }) });
      t.after(() => gateway.close());
      const client = await memoryClient(gateway);

      const indexed = await client.callTool({
        name: 'finder_index',
        arguments: {
          notes: [
            { id: 'n1', text: 'The gateway restarts plugins after a crash', topic: 'ops', embedding: [1, 0, 0] },
            { id: 'n2', text: 'Plugins declare their tools with JSON Schema', topic: 'dev', embedding: [0, 1, 0] },
            { id: 'n3', text: 'Crash reports go to the log', topic: 'ops', embedding: [0.7, 0.7, 0] },
          ],
        },
      });
      assert.deepEqual(resultJson(indexed), { count: 3 });

      const lexical = await client.callTool({ name: 'finder_search', arguments: { text: 'crash "plugins* NEAR(' } });
      assert.equal(lexical.isError, undefined);
      assert.deepEqual((lexical.structuredContent as { hits: { id: string }[] }).hits.map((h) => h.id).sort(), ['n1', 'n2', 'n3']);
      assert.equal((lexical.structuredContent as { hits: { id: string }[] }).hits[0]!.id, 'n1', 'n1 holds both words');

      const hybrid = resultJson(await client.callTool({ name: 'finder_search', arguments: { text: 'crash', vector: [1, 0, 0], topic: 'ops', limit: 1 } }));
      assert.equal(hybrid.hits.length, 1);
      assert.equal(hybrid.hits[0].id, 'n1');
      assert.ok(hybrid.hits[0].lexicalScore > 0 && hybrid.hits[0].vectorScore > 0.99);

      const wrong = await client.callTool({ name: 'finder_search', arguments: { vector: [1, 0] } });
      assert.equal(wrong.isError, true);
      assert.equal(resultJson(wrong).code, 'SEARCH_DIMENSION_MISMATCH');
      const tooMany = await client.callTool({ name: 'finder_search', arguments: { text: 'x', limit: 5000 } });
      assert.equal(resultJson(tooMany).code, 'SEARCH_QUERY_INVALID');

      // gateway_status says how vectors are scored: in SQLite by sqlite-vec (it loads on the
      // platforms the package ships), by the gateway on PostgreSQL.
      const status = resultJson(await client.callTool({ name: 'gateway_status', arguments: {} }));
      assert.equal(status.store.dialect, backend.name);
      assert.equal(status.store.vectors, backend.name === 'sqlite' ? 'sqlite-vec' : 'exact');
    });
  });
}
