import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultJson } from '../../helpers.js';
import { bootEmbeddings, embedText, providerConfig, SIMILAR_REGISTRY, startEmbeddingsServer, type EmbeddingsServer } from './embeddings-helpers.js';

const expected = (text: string, dimensions: number) => embedText(text, dimensions).map(Math.fround);

/** The texts of every request the server got since the last reset. */
const sent = (server: EmbeddingsServer) => server.requests.map((r) => r.inputs);

describe('embeddings: what goes over the wire', () => {
  let server: EmbeddingsServer;
  before(async () => {
    server = await startEmbeddingsServer({ dimensions: 16 });
  });
  after(() => server.close());

  it('openai: POST <url>/embeddings with model and input, the key from apiKeyEnv, extra headers; vectors in order', async (t) => {
    process.env.EMB_WIRE_KEY = 'sk-wire-test';
    t.after(() => delete process.env.EMB_WIRE_KEY);
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { apiKeyEnv: 'EMB_WIRE_KEY', headers: { 'x-team': 'blue' } }) });
    server.requests.length = 0;
    const result = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['roll back a deploy', 'bounded cache'] } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const data = result.structuredContent as Record<string, any>;
    assert.equal(data.provider, 'openai');
    assert.equal(data.model, 'text-embedding-3-small');
    assert.equal(data.dimensions, 16);
    assert.match(data.space, /^[a-z0-9_]{1,24}$/);
    assert.equal(data.cached, 0);
    assert.deepEqual(data.vectors, [expected('roll back a deploy', 16), expected('bounded cache', 16)]);
    assert.deepEqual(resultJson(result), data);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request!.path, '/v1/embeddings');
    assert.equal(request!.model, 'text-embedding-3-small');
    assert.deepEqual(request!.inputs, ['roll back a deploy', 'bounded cache']);
    assert.equal(request!.dimensions, undefined, 'dimensions is sent only with sendDimensions');
    assert.equal(request!.authorization, 'Bearer sk-wire-test');
    assert.equal(request!.headers['x-team'], 'blue');
    assert.equal(request!.headers['content-type'], 'application/json');
  });

  it('openai at another url: OPENAI_API_KEY from the environment is not sent there unasked', async (t) => {
    process.env.OPENAI_API_KEY = 'sk-must-stay-home';
    t.after(() => delete process.env.OPENAI_API_KEY);
    const { apiKeyEnv: _, ...config } = providerConfig(server, 'openai');
    const { client } = await bootEmbeddings(t, { config });
    server.requests.length = 0;
    const result = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['where does the key go'] } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal(server.requests[0]!.authorization, undefined);
  });

  it('ollama: POST <url>/api/embed with model and input, and no key by default', async (t) => {
    const { client } = await bootEmbeddings(t, { config: { provider: 'ollama', url: server.url, model: 'nomic-embed-text', dimensions: 16 } });
    server.requests.length = 0;
    const result = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['one', 'two', 'three'] } });
    const data = result.structuredContent as Record<string, any>;
    assert.equal(data.provider, 'ollama');
    assert.deepEqual(data.vectors, ['one', 'two', 'three'].map((text) => expected(text, 16)));
    assert.deepEqual(
      server.requests.map((r) => ({ path: r.path, model: r.model, inputs: r.inputs, authorization: r.authorization })),
      [{ path: '/api/embed', model: 'nomic-embed-text', inputs: ['one', 'two', 'three'], authorization: undefined }],
    );
  });

  for (const provider of ['openai', 'ollama'] as const) {
    it(`${provider}: 150 texts with batchSize 64 go in 3 requests (64, 64, 22), the vectors in input order`, async (t) => {
      const { client } = await bootEmbeddings(t, {
        config: providerConfig(server, provider, { batchSize: 64 }),
        extra: { registries: [SIMILAR_REGISTRY], plugins: { similar: {} } },
      });
      const texts = Array.from({ length: 150 }, (_, i) => `text number ${i} about topic ${i % 7}`);
      server.requests.length = 0;
      const result = await client.callTool({ name: 'similar_embed', arguments: { texts } });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.deepEqual(sent(server).map((inputs) => inputs.length), [64, 64, 22]);
      assert.deepEqual(sent(server).flat(), texts);
      assert.deepEqual(resultJson(result).vectors, texts.map((text) => expected(text, 16)));
    });
  }

  it('prefixes: documentPrefix for documents (the default), queryPrefix for queries; each purpose cached apart', async (t) => {
    const { client } = await bootEmbeddings(t, {
      config: providerConfig(server, 'ollama', { queryPrefix: 'search_query: ', documentPrefix: 'search_document: ' }),
    });
    server.requests.length = 0;
    await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['deploys'] } });
    const query = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['deploys'], purpose: 'query' } });
    await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['deploys'], purpose: 'document' } });
    assert.deepEqual(sent(server), [['search_document: deploys'], ['search_query: deploys']]);
    assert.deepEqual((query.structuredContent as { vectors: number[][] }).vectors, [expected('search_query: deploys', 16)]);
  });

  it('sendDimensions: true sends dimensions in the request', async (t) => {
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { sendDimensions: true }) });
    server.requests.length = 0;
    await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['short vectors'] } });
    assert.equal(server.requests[0]!.dimensions, 16);
  });

  it("openai: items that come back out of order are put in their index's place", async (t) => {
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { cache: { enabled: false } }) });
    server.mode = 'shuffled';
    t.after(() => (server.mode = 'ok'));
    const result = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['alpha', 'beta', 'gamma'] } });
    assert.deepEqual((result.structuredContent as { vectors: number[][] }).vectors, ['alpha', 'beta', 'gamma'].map((text) => expected(text, 16)));
  });

  it('a text twice in one call is sent once and answered twice', async (t) => {
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { cache: { enabled: false } }) });
    server.requests.length = 0;
    const result = await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['same', 'other', 'same'] } });
    assert.deepEqual(sent(server), [['same', 'other']]);
    const { vectors } = result.structuredContent as { vectors: number[][] };
    assert.deepEqual(vectors, ['same', 'other', 'same'].map((text) => expected(text, 16)));
  });

  it('the space names provider, model, dimensions and prefixes, not the URL', async (t) => {
    const space = async (config: Record<string, unknown>) => {
      const { client } = await bootEmbeddings(t, { config });
      return ((await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['x'] } })).structuredContent as { space: string }).space;
    };
    const base = providerConfig(server, 'openai');
    const first = await space(base);
    assert.match(first, /^e[0-9a-f]{10}$/);
    assert.equal(await space({ ...base, url: `${server.url}/v1/` }), first);
    assert.notEqual(await space({ ...base, model: 'other-model' }), first);
    assert.notEqual(await space({ ...base, queryPrefix: 'q: ' }), first);
    assert.notEqual(await space(providerConfig(server, 'ollama', { model: base.model })), first);
  });
});
