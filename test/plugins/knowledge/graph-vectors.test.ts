import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmbeddingsServer, type EmbeddingsServer } from '../../fixtures/embeddings-server/server.js';
import { storeBackends } from '../../support/store-backends.js';
import { knowledgeGateway } from './knowledge-helpers.js';

// The graph with the real embeddings plugin and a local OpenAI-compatible server whose vectors
// are hashed words: texts sharing words are close, so "semantic" here means shared vocabulary.
const DIMENSIONS = 64;

function withEmbeddings(server: EmbeddingsServer, dimensions = DIMENSIONS) {
  return {
    plugins: {
      knowledge: {},
      // sendDimensions: the test server then answers vectors of the length asked for.
      embeddings: { config: { provider: 'openai', url: `${server.url}/v1`, model: 'test-embedder', dimensions, sendDimensions: true } },
    },
  };
}

const rollback = { type: 'decision', summary: 'Deploys roll back in one command', content: 'A failed deploy is rolled back with deploy rollback; the previous release stays warm.' };
const rollbackAgain = { type: 'risk', summary: 'Rollback window is short', content: 'A failed deploy can be rolled back only while the previous release stays warm.' };
const unrelated = { type: 'note', summary: 'Cache keys', content: 'Cache keys are hashes of the text and the model name.' };

for (const backend of storeBackends()) {
  describe(`knowledge graph with vectors on ${backend.name}`, { skip: backend.skip }, () => {
    let server: EmbeddingsServer;
    before(async () => {
      await backend.start();
      server = await startEmbeddingsServer({ dimensions: DIMENSIONS });
    });
    after(async () => {
      await server.close();
      await backend.stop();
    });

    it('recalls in hybrid mode and links nodes whose vectors are close', async () => {
      server.mode = 'ok';
      const k = await knowledgeGateway(withEmbeddings(server), await backend.fresh());
      const a = await k.call('knowledge_add', rollback);
      assert.deepEqual(a.vectors, { stored: true });
      const b = await k.call('knowledge_add', rollbackAgain);
      assert.equal(b.links.semantically_similar, 1);
      await k.call('knowledge_add', unrelated);
      const edges = (await k.call('knowledge_get', { id: a.node.id })).edges;
      assert.deepEqual(edges.map((e: any) => [e.relation, e.other.id]), [['semantically_similar', b.node.id]]);
      assert.ok(edges[0].confidence >= 0.55);

      const found = await k.call('knowledge_recall', { query: 'how do I undo a failed deploy', limit: 3 });
      assert.equal(found.mode, 'hybrid');
      assert.equal(found.degraded, undefined);
      assert.ok([a.node.id, b.node.id].includes(found.results[0].id));
      assert.equal(typeof found.results[0].vector_similarity, 'number');
      const words = await k.call('knowledge_recall', { query: 'deploy rollback', mode: 'lexical' });
      assert.deepEqual([words.mode, words.degraded, words.results[0].vector_similarity], ['lexical', undefined, null]);
      const meaning = await k.call('knowledge_recall', { query: 'undo failed deploy', mode: 'vector' });
      assert.equal(meaning.mode, 'vector');
      assert.ok(meaning.results.length > 0 && meaning.results.every((r: any) => r.lexical_score === 0 && r.vector_similarity >= 0.25));
      const summary = await k.call('knowledge_summary');
      assert.equal(summary.vectors.available, true);
      const status = k.gateway.status().plugins.find((p) => p.name === 'knowledge')!.status as any;
      assert.equal(status.detail.search, 'hybrid');
    });

    it('keeps writing while the provider is down, says recall is lexical, and fills the vectors in once it is back', async () => {
      server.mode = 'ok';
      const k = await knowledgeGateway(withEmbeddings(server), await backend.fresh());
      server.mode = 'down';
      const a = await k.call('knowledge_add', rollback);
      assert.equal(a.vectors.stored, false);
      assert.match(a.vectors.reason, /EMBEDDINGS_PROVIDER_FAILED|BREAKER_OPEN/);
      const lexical = await k.call('knowledge_recall', { query: 'deploy rollback' });
      assert.equal(lexical.mode, 'lexical');
      assert.match(lexical.degraded, /search is lexical/);
      assert.equal(lexical.results[0].id, a.node.id);

      server.mode = 'ok';
      // The first search with vectors back says what still lacks one, and starts filling it in.
      const partly = await k.call('knowledge_recall', { query: 'deploy rollback', mode: 'vector' });
      assert.equal(partly.mode, 'vector');
      assert.match(partly.degraded, /^1 node\(s\) have no vector yet/);
      await k.call('knowledge_add', unrelated);
      // The node written while down got its vector: a query sharing none of its words' spelling
      // but most of its vocabulary finds it through the vector half.
      const deadline = Date.now() + 20_000;
      let hybrid: any;
      // Polled with a pause: on SQLite a call can complete without giving the event loop a turn.
      while ((hybrid = await k.call('knowledge_recall', { query: 'previous release warm failed deploy', limit: 2 })).results[0]?.vector_similarity == null && Date.now() < deadline) await sleep(50);
      assert.equal(hybrid.mode, 'hybrid');
      assert.equal(hybrid.results[0].id, a.node.id);
      assert.ok(hybrid.results[0].vector_similarity > 0.25);
    });

    it('fills in the vectors of a batch node by node when the provider refuses one text, and leaves that one out', async () => {
      server.mode = 'ok';
      const config = withEmbeddings(server);
      (config.plugins.embeddings.config as Record<string, unknown>).maxInputChars = 300;
      const k = await knowledgeGateway(config, await backend.fresh());
      server.mode = 'down';
      const small = await k.call('knowledge_add', rollback);
      const long = await k.call('knowledge_add', { type: 'note', summary: 'A long note', content: 'deploy '.repeat(100) });
      assert.equal(long.vectors.stored, false);
      server.mode = 'ok';
      const first = await k.call('knowledge_recall', { query: 'previous release warm', mode: 'vector' });
      assert.match(first.degraded, /^2 node\(s\) have no vector yet/);
      const deadline = Date.now() + 20_000;
      let found: any;
      while ((found = await k.call('knowledge_recall', { query: 'previous release warm', mode: 'vector' })).degraded !== undefined && Date.now() < deadline) await sleep(50);
      assert.equal(found.degraded, undefined, 'the refused node no longer counts as waiting');
      assert.equal(found.results[0].id, small.node.id);
    });

    it('refuses a node when the provider answers vectors of the wrong length, storing nothing', async () => {
      server.mode = 'ok';
      const k = await knowledgeGateway(withEmbeddings(server), await backend.fresh());
      server.mode = 'wrong-dimensions';
      const refused = await k.fail('knowledge_add', rollback);
      assert.equal(refused.code, 'EMBEDDINGS_DIMENSION_MISMATCH');
      server.mode = 'ok';
      assert.equal((await k.call('knowledge_list')).total, 0);
      assert.deepEqual((await k.call('knowledge_recall', { query: 'deploy rollback' })).results, []);
      // And the same content can be added once the provider is right again.
      assert.equal((await k.call('knowledge_add', rollback)).vectors.stored, true);
    });

    it('indexes every node again in a new vector space when the model changes', async () => {
      server.mode = 'ok';
      const store = await backend.fresh();
      const first = await knowledgeGateway(withEmbeddings(server), store);
      const a = await first.call('knowledge_add', rollback);
      await first.gateway.close();
      const second = await knowledgeGateway(withEmbeddings(server, 32), store);
      const deadline = Date.now() + 20_000;
      let found: any;
      while ((found = await second.call('knowledge_recall', { query: 'deploy rollback' })).results[0]?.vector_similarity == null && Date.now() < deadline) await sleep(50);
      assert.equal(found.mode, 'hybrid');
      assert.equal(found.results[0].id, a.node.id);
      assert.equal(typeof found.results[0].vector_similarity, 'number');
    });
  });
}
