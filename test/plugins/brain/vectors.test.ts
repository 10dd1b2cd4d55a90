import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmbeddingsServer, type EmbeddingsServer } from '../../fixtures/embeddings-server/server.js';
import { storeMatrix } from '../../support/test-stores.js';
import { brainGateway } from './brain-helpers.js';

// Recall with the real embeddings plugin and a local OpenAI-compatible server whose vectors are
// hashed words: texts sharing words are close, so "meaning" here means shared vocabulary.
const DIMENSIONS = 64;

function withEmbeddings(server: EmbeddingsServer) {
  return {
    plugins: {
      brain: {},
      embeddings: { config: { provider: 'openai', url: `${server.url}/v1`, model: 'test-embedder', dimensions: DIMENSIONS, sendDimensions: true } },
    },
  };
}

for (const backend of storeMatrix()) {
  describe(`brain recall with vectors on ${backend.name}`, { skip: backend.skip }, () => {
    let server: EmbeddingsServer;
    before(async () => {
      server = await startEmbeddingsServer({ dimensions: DIMENSIONS });
    });
    after(async () => {
      await server.close();
      await backend.close();
    });

    it('ranks hybrid with vectors, vector alone on request, lexical on request', async () => {
      server.mode = 'ok';
      const b = await brainGateway(withEmbeddings(server), await backend.fresh());
      const rollback = await b.call('brain_remember', { content: 'A failed deploy is rolled back with deploy rollback.', type: 'procedure' });
      await b.call('brain_remember', { content: 'Cache keys are hashes of the text and the model.', type: 'fact' });
      const hybrid = await b.call('brain_recall', { query: 'failed deploy rolled back' });
      assert.equal(hybrid.mode, 'hybrid');
      assert.equal(hybrid.degraded, undefined);
      assert.equal(hybrid.memories[0].id, rollback.memory.id);
      const vector = await b.call('brain_recall', { query: 'deploy rollback', mode: 'vector', top_k: 1 });
      assert.equal(vector.mode, 'vector');
      assert.equal(vector.memories[0].id, rollback.memory.id);
      assert.equal((await b.call('brain_recall', { query: 'deploy', mode: 'lexical' })).mode, 'lexical');
    });

    it('with the provider down: stores by words, recalls lexically saying why, and fills the vectors in later', async () => {
      server.mode = 'down';
      const b = await brainGateway(withEmbeddings(server), await backend.fresh());
      const stored = await b.call('brain_remember', { content: 'The nightly job prunes old audit rows.', type: 'fact' });
      assert.equal(stored.duplicate, false);
      const down = await b.call('brain_recall', { query: 'nightly audit job' });
      assert.equal(down.mode, 'lexical');
      assert.match(down.degraded, /ranked by words only/);
      assert.equal(down.memories[0].id, stored.memory.id);
      server.mode = 'ok';
      // The breaker may be open from the failures: wait until a recall gets vectors again.
      let recalled: any;
      for (let i = 0; i < 200; i++) {
        recalled = await b.call('brain_recall', { query: 'nightly audit job' });
        if (recalled.mode === 'hybrid' && recalled.degraded === undefined) break;
        await sleep(100);
      }
      assert.equal(recalled.mode, 'hybrid');
      assert.equal(recalled.degraded, undefined, 'the memory stored without a vector got one');
      assert.equal(recalled.memories[0].id, stored.memory.id);
    });

    it('a memory the provider refuses is found by its words and holds no other memory back', async () => {
      server.mode = 'ok';
      const config = withEmbeddings(server);
      (config.plugins.embeddings.config as Record<string, unknown>).maxInputChars = 60;
      const b = await brainGateway(config, await backend.fresh());
      const long = await b.call('brain_remember', { content: `A memory far longer than the provider takes: ${'words '.repeat(20)}`, type: 'fact' });
      const short = await b.call('brain_remember', { content: 'Short memories get vectors.', type: 'fact' });
      let recalled: any;
      for (let i = 0; i < 100; i++) {
        recalled = await b.call('brain_recall', { query: 'memory vectors words' });
        if (recalled.degraded === undefined) break;
        await sleep(100);
      }
      assert.equal(recalled.mode, 'hybrid');
      assert.equal(recalled.degraded, undefined, 'the refused memory is marked, not retried for ever');
      assert.deepEqual(recalled.memories.map((m: any) => m.id).sort(), [long.memory.id, short.memory.id].sort());
      const vector = await b.call('brain_recall', { query: 'short memories', mode: 'vector', top_k: 1 });
      assert.equal(vector.memories[0].id, short.memory.id);
    });

    it('asked for vectors without the embeddings plugin: lexical, and says why', async () => {
      const b = await brainGateway({}, await backend.fresh());
      await b.call('brain_remember', { content: 'Ports are configured in gateway.config.yaml.', type: 'fact' });
      const auto = await b.call('brain_recall', { query: 'ports' });
      assert.deepEqual([auto.mode, auto.degraded], ['lexical', undefined]);
      const asked = await b.call('brain_recall', { query: 'ports', mode: 'hybrid' });
      assert.equal(asked.mode, 'lexical');
      assert.match(asked.degraded, /the embeddings plugin is not enabled/);
    });
  });
}
