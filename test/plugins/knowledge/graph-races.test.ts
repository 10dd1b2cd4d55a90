import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { createSchemaCompiler } from '../../../core/lib/schema.js';
import { createLogger } from '../../../core/lib/logger.js';
import type { EmbeddingsApi } from '../../../plugins/embeddings/api.js';
import { configSchema, type KnowledgeConfig } from '../../../plugins/knowledge/config.js';
import { GraphStore, type NewNodeRow } from '../../../plugins/knowledge/graph/graph-store.js';
import { NodeIndex } from '../../../plugins/knowledge/graph/node-index.js';
import { recall } from '../../../plugins/knowledge/graph/recall.js';
import { graphMigrations } from '../../../plugins/knowledge/graph/schema.js';
import { OptionalVectors } from '../../../core/index.js';
import { embedText } from '../../fixtures/embeddings-server/server.js';
import { openStore, storeBackends, type BackendUnderTest } from '../../support/store-backends.js';

// A slow embedding must never put back what changed or went while it waited. The provider
// here is an in-process stand-in for the embeddings API whose answers for documents the test
// releases (queries pass), so that the writes can be made at the exact moment; the plugin's own
// HTTP path is tested elsewhere.
function gatedEmbeddings(): { api: EmbeddingsApi; release(): void; waiting(): number } {
  let gate: () => void = () => {};
  let opened = new Promise<void>((resolve) => (gate = resolve));
  let waiting = 0;
  const api: EmbeddingsApi = {
    provider: 'openai',
    model: 'gated',
    dimensions: 16,
    space: 'gated',
    readiness: () => ({ ok: true }),
    async embed(texts, options) {
      if (options?.purpose !== 'query') {
        waiting++;
        await opened;
        waiting--;
      }
      return texts.map((t) => embedText(t, 16));
    },
    async tryEmbed(texts, options) {
      return { vectors: await api.embed(texts, options) };
    },
  };
  return {
    api,
    release() {
      gate();
      opened = Promise.resolve();
    },
    waiting: () => waiting,
  };
}

/** The plugin's recall settings as an empty config section gets them (the schema's defaults). */
const RECALL_DEFAULTS = (() => {
  const config: Partial<KnowledgeConfig> = {};
  createSchemaCompiler({ useDefaults: true }).compile(configSchema)(config);
  return config.recall!;
})();

function row(id: string, content: string): NewNodeRow {
  const now = new Date().toISOString();
  return {
    id, type: 'note', summary: id, content, tags: '[]', base_confidence: 0.5, confidence: 0.5, evidence: '[]',
    verification_status: 'unverified', verification: null, content_key: `${id}-key`, agent: null, created_at: now, updated_at: now, vector_space: null,
  };
}

/** A migrated graph on a fresh store of `backend`, and its index with gated embeddings. */
async function gatedGraph(t: TestContext, backend: BackendUnderTest) {
  const store = (await openStore(t, backend)).forPlugin('knowledge');
  await store.migrate(graphMigrations);
  const graph = new GraphStore(store);
  const gated = gatedEmbeddings();
  const index = await NodeIndex.open(store, new OptionalVectors(gated.api), graph, createLogger('silent'));
  return { graph, gated, index };
}

for (const backend of storeBackends()) {
  describe(`knowledge index under concurrent writes on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());

    it('a fill in flight does not bring back a forgotten node, nor the old text of a changed one', async (t) => {
      const { graph, gated, index } = await gatedGraph(t, backend);
      await graph.insertNode(row('n-aaaaaaaaaaaa', 'aardvark burrows'), []);
      await graph.insertNode(row('n-bbbbbbbbbbbb', 'badger setts'), []);

      const filling = index.fillVectors();
      while (gated.waiting() === 0) await new Promise((r) => setImmediate(r));
      // While the provider holds the batch: one node forgotten, the other changed.
      await graph.deleteNode('n-aaaaaaaaaaaa');
      const b = (await graph.getNode('n-bbbbbbbbbbbb'))!;
      assert.equal(await graph.updateNode(b.id, b.version, { content: 'elephant trunks', content_key: 'b2' }), 'written');
      gated.release();
      await filling;

      const changed = (await graph.getNode(b.id))!;
      const put = await index.put([changed]);
      assert.equal(put.stored, true);
      assert.deepEqual((await index.search({ text: 'aardvark', limit: 5 })).map((h) => h.id), [], 'the forgotten node stays out');
      assert.deepEqual((await index.search({ text: 'badger', limit: 5 })).map((h) => h.id), [], 'the old text is not there');
      assert.deepEqual((await index.search({ text: 'elephant', limit: 5 })).map((h) => h.id), [b.id]);
      assert.equal(await graph.countWithoutVectors('gated'), 0);
    });

    it('a recall that says no vector is missing searched with every vector: a fill that ends during its search does not count', async (t) => {
      const { graph, gated, index } = await gatedGraph(t, backend);
      await graph.insertNode(row('n-aaaaaaaaaaaa', 'aardvark burrows'), []);
      // Indexed by its words, as a node written while the provider was down.
      await index.put([(await graph.getNode('n-aaaaaaaaaaaa'))!], { outcome: { vectors: null, reason: 'provider down' } });

      // The search lets the fill that is waiting for the provider finish before it answers.
      const search = index.search.bind(index);
      index.search = async (query) => {
        const hits = await search(query);
        gated.release();
        await index.fillVectors();
        return hits;
      };
      const answer = await recall('aardvark burrows', { limit: 5, mode: 'vector' }, { index, graph, settings: RECALL_DEFAULTS });
      assert.equal(await graph.countWithoutVectors('gated'), 0, 'the fill finished during the recall');
      assert.ok(answer.degraded !== undefined || answer.hits.length === 1, `found nothing yet said nothing is missing: ${JSON.stringify(answer)}`);
    });
  });
}
