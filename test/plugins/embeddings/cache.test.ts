import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { storeMatrix } from '../../support/test-stores.js';
import { bootEmbeddings, embedText, providerConfig, startEmbeddingsServer, type EmbeddingsServer } from './embeddings-helpers.js';

const embed = (texts: string[], purpose: 'document' | 'query' = 'document') => ({ name: 'embeddings_embed', arguments: { texts, purpose } });
type Answer = { vectors: number[][]; cached: number; space: string };

// The cache lives in the shared store: the same behaviour on SQLite and PostgreSQL.
for (const backend of storeMatrix()) {
  describe(`embeddings cache on ${backend.name}`, { skip: backend.skip }, () => {
    let server: EmbeddingsServer;
    before(async () => {
      server = await startEmbeddingsServer({ dimensions: 12 });
    });
    afterEach(() => {
      server.mode = 'ok';
      server.requests.length = 0;
    });
    after(async () => {
      await server.close();
      await backend.close();
    });

    it('a second call makes no request; the vectors are the same numbers, float32 from the store', async (t) => {
      const { client, status } = await bootEmbeddings(t, { config: providerConfig(server), target: await backend.fresh() });
      const first = (await client.callTool(embed(['alpha beta', 'gamma']))).structuredContent as Answer;
      assert.equal(first.cached, 0);
      assert.equal(server.requests.length, 1);
      const second = (await client.callTool(embed(['gamma', 'alpha beta', 'delta']))).structuredContent as Answer;
      assert.equal(second.cached, 2);
      assert.deepEqual(server.requests.map((r) => r.inputs), [['alpha beta', 'gamma'], ['delta']], 'only the new text was sent');
      assert.deepEqual(second.vectors[0], first.vectors[1]);
      assert.deepEqual(second.vectors[1], first.vectors[0]);
      assert.deepEqual(second.vectors[0], embedText('gamma', 12).map(Math.fround));
      assert.deepEqual(status().detail.cache, { enabled: true, entries: 3, hits: 2, misses: 3 });
    });

    it('survives a restart on the same store: the new gateway sends nothing for texts seen before', async (t) => {
      const target = await backend.fresh();
      const first = await bootEmbeddings({ after: () => {} }, { config: providerConfig(server), target });
      const before = (await first.client.callTool(embed(['kept across restarts']))).structuredContent as Answer;
      await first.gateway.close();
      server.requests.length = 0;
      const second = await bootEmbeddings(t, { config: providerConfig(server), target });
      assert.equal(second.status().detail.cache.entries, 1, 'counted at start');
      const after = (await second.client.callTool(embed(['kept across restarts']))).structuredContent as Answer;
      assert.equal(after.cached, 1);
      assert.deepEqual(after.vectors, before.vectors);
      assert.equal(server.requests.length, 0);
    });

    it('keys by vector space: another model or prefix is embedded anew, not answered from the other', async (t) => {
      const target = await backend.fresh();
      const one = await bootEmbeddings({ after: () => {} }, { config: providerConfig(server), target });
      await one.client.callTool(embed(['shared text']));
      await one.gateway.close();
      server.requests.length = 0;
      const other = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { model: 'another-model' }), target });
      assert.equal(((await other.client.callTool(embed(['shared text']))).structuredContent as Answer).cached, 0);
      assert.equal(server.requests.length, 1);
    });

    it('is bounded: past maxEntries the least recently used go, down to nine tenths', async (t) => {
      const { client, gateway, status } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { cache: { maxEntries: 20 } }), target: await backend.fresh() });
      const texts = Array.from({ length: 50 }, (_, i) => `text ${i}`);
      for (let i = 0; i < texts.length; i += 10) await client.callTool(embed(texts.slice(i, i + 10)));
      const rows = await gateway.store('embeddings').db.selectFrom('embeddings_cache').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      assert.ok(Number(rows.n) <= 20, `${rows.n} rows`);
      assert.equal(status().detail.cache.entries, Number(rows.n));
      server.requests.length = 0;
      // The newest are kept, the oldest are gone.
      assert.equal(((await client.callTool(embed(texts.slice(45)))).structuredContent as Answer).cached, 5);
      assert.equal(((await client.callTool(embed(texts.slice(0, 5)))).structuredContent as Answer).cached, 0);
    });

    it('stores float32 bytes: 4 per number', async (t) => {
      const { client, gateway } = await bootEmbeddings(t, { config: providerConfig(server), target: await backend.fresh() });
      await client.callTool(embed(['bytes']));
      const row = await gateway.store('embeddings').db.selectFrom('embeddings_cache').select(['vector', 'space', 'hash']).executeTakeFirstOrThrow();
      assert.equal((row.vector as Buffer).byteLength, 12 * 4);
      assert.match(row.hash as string, /^[0-9a-f]{64}$/);
    });

    it('cache.enabled: false asks the provider every time', async (t) => {
      const { client, gateway } = await bootEmbeddings(t, { config: providerConfig(server, 'ollama', { cache: { enabled: false } }), target: await backend.fresh() });
      await client.callTool(embed(['again']));
      await client.callTool(embed(['again']));
      assert.equal(server.requests.length, 2);
      assert.equal((await gateway.store('embeddings').db.selectFrom('embeddings_cache').selectAll().execute()).length, 0);
    });
  });
}
