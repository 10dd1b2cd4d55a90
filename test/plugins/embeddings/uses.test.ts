import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultJson } from '../../helpers.js';
import { bootEmbeddings, providerConfig, SIMILAR_REGISTRY, startEmbeddingsServer, type EmbeddingsServer } from './embeddings-helpers.js';

// ctx.api('embeddings') from another plugin: the `similar` fixture lists embeddings in `uses`,
// as knowledge and brain do, and must work with it, with it unconfigured, and without it.
describe('embeddings: the API another plugin gets', () => {
  let server: EmbeddingsServer;
  before(async () => {
    server = await startEmbeddingsServer({ dimensions: 32 });
  });
  after(() => server.close());

  const withSimilar = (plugins: Record<string, unknown> = {}) => ({ registries: [SIMILAR_REGISTRY], plugins: { similar: {}, ...plugins } });
  const compare = (a: string, b: string) => ({ name: 'similar_compare', arguments: { a, b } });

  it('embeds through ctx.api: vectors, space and dimensions as the plugin reports them', async (t) => {
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'ollama'), extra: withSimilar() });
    const same = resultJson(await client.callTool(compare('roll back the deploy', 'the deploy roll back')));
    const other = resultJson(await client.callTool(compare('roll back the deploy', 'bounded cache of vectors')));
    const tool = (await client.callTool({ name: 'embeddings_embed', arguments: { texts: ['x'] } })).structuredContent as { space: string };
    assert.equal(same.enabled, true);
    assert.equal(same.space, tool.space);
    assert.equal(same.dimensions, 32);
    assert.ok(Math.abs(same.similarity - 1) < 1e-6, `${same.similarity}`);
    assert.ok(other.similarity < 0.5, `${other.similarity}`);
  });

  it('passes purpose on (the query prefix) and lets the codes through to the other plugin\'s caller', async (t) => {
    const { client } = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { queryPrefix: 'q: ' }), extra: withSimilar() });
    server.requests.length = 0;
    await client.callTool({ name: 'similar_embed', arguments: { texts: ['find me'], purpose: 'query' } });
    assert.deepEqual(server.requests[0]!.inputs, ['q: find me']);
    server.mode = 'wrong-dimensions';
    t.after(() => (server.mode = 'ok'));
    assert.equal(resultJson(await client.callTool({ name: 'similar_embed', arguments: { texts: ['new text'] } })).code, 'EMBEDDINGS_DIMENSION_MISMATCH');
  });

  it('with provider none: the API is there, readiness says why there are no vectors, space is null', async (t) => {
    const { client } = await bootEmbeddings(t, { extra: withSimilar() });
    assert.deepEqual(resultJson(await client.callTool(compare('a', 'b'))), {
      enabled: true,
      space: null,
      reason: 'no embedding provider configured (plugins.embeddings.config.provider)',
    });
    assert.equal(resultJson(await client.callTool({ name: 'similar_embed', arguments: { texts: ['a'] } })).code, 'EMBEDDINGS_DISABLED');
  });

  it('with the embeddings plugin not enabled: the other plugin loads all the same and gets undefined', async (t) => {
    const { client, gateway } = await bootEmbeddings(t, { extra: withSimilar({ embeddings: { enabled: false } }) });
    assert.deepEqual(gateway.status().plugins.map((p) => p.name), ['similar']);
    assert.deepEqual(resultJson(await client.callTool(compare('a', 'b'))), { enabled: false });
  });
});
