import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultJson } from '../../helpers.js';
import { bootEmbeddings, providerConfig, startEmbeddingsServer, type EmbeddingsServer } from './embeddings-helpers.js';

const NO_PROVIDER = 'no embedding provider configured (plugins.embeddings.config.provider)';

describe('embeddings: without a provider (the default)', () => {
  it('loads with no config; the tool answers EMBEDDINGS_DISABLED over MCP and REST (409); ready false with the reason, ok true', async (t) => {
    const booted = await bootEmbeddings(t);
    const result = await booted.client.callTool({ name: 'embeddings_embed', arguments: { texts: ['hello'] } });
    assert.equal(result.isError, true);
    const body = resultJson(result);
    assert.equal(body.code, 'EMBEDDINGS_DISABLED');
    assert.match(body.message, /configure plugins\.embeddings\.config\.provider \(openai or ollama\) with model and dimensions/);
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['hello'] });
    assert.equal(rest.status, 409);
    assert.equal(rest.body.error.code, 'EMBEDDINGS_DISABLED');
    const status = booted.status();
    assert.equal(status.ok, true);
    assert.deepEqual(status.detail, {
      provider: 'none',
      model: null,
      dimensions: null,
      url: null,
      space: null,
      ready: false,
      reason: NO_PROVIDER,
      cache: { enabled: false, entries: 0, hits: 0, misses: 0 },
      requests: 0,
      failures: 0,
    });
    const health = await booted.rest('GET', '/health');
    assert.equal(health.body.status, 'ok');
    assert.match((await booted.rest('GET', '/metrics')).text, /^mcp_gateway_embeddings_ready 0$/m);
  });
});

describe('embeddings: config errors stop the boot with a message naming the key and the fix', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['openai without a model', { provider: 'openai', dimensions: 1536 }, /plugins\.embeddings\.config: provider openai needs a model, e\.g\. model: text-embedding-3-small/],
    ['ollama without a model', { provider: 'ollama', dimensions: 768 }, /provider ollama needs a model, e\.g\. model: nomic-embed-text/],
    [
      'openai without dimensions',
      { provider: 'openai', model: 'text-embedding-3-small' },
      /provider openai needs dimensions, the length of the model's vectors \(nomic-embed-text 768, text-embedding-3-small 1536, all-minilm 384\)/,
    ],
    ['an unknown provider', { provider: 'cohere' }, /plugins\.embeddings\.config\.provider/],
    ['a URL that is not http(s)', { provider: 'ollama', model: 'm', dimensions: 3, url: 'ftp://host' }, /plugins\.embeddings\.config\.url/],
    ['a URL with a password', { provider: 'ollama', model: 'm', dimensions: 3, url: 'http://me:secret@127.0.0.1:1' }, /user and password in the URL cannot be sent/],
    ['an unknown key', { provider: 'none', modle: 'x' }, /unknown key "modle"/],
    // The shared store's search indexes hold at most 4,096 numbers a vector: a longer length
    // would pass here and stop the boot in the knowledge plugin, opening its index.
    ['dimensions past what the search indexes hold', { provider: 'ollama', model: 'm', dimensions: 4097 }, /plugins\.embeddings\.config\.dimensions: must be <= 4096/],
  ];
  for (const [label, config, message] of cases) {
    it(label, async (t) => {
      await assert.rejects(bootEmbeddings(t, { config }), (err: { code?: string; message: string }) => {
        assert.equal(err.code, 'CONFIG_INVALID');
        assert.match(err.message, message);
        assert.ok(!err.message.includes('secret'));
        return true;
      });
    });
  }
});

describe('embeddings: with a provider', () => {
  let server: EmbeddingsServer;
  before(async () => {
    server = await startEmbeddingsServer({ dimensions: 4 });
  });
  after(() => server.close());

  it('embeddings_embed over MCP (structuredContent, listed with its schemas) and REST ({success, data})', async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server, 'ollama') });
    const { tools } = await booted.client.listTools();
    const tool = tools.find((x) => x.name === 'embeddings_embed')!;
    assert.equal(tool.title, 'Embed texts');
    // openWorldHint: true is the specification's default, left out of the lean listing.
    assert.deepEqual(tool.annotations, { readOnlyHint: true, idempotentHint: true });
    assert.ok(tool.outputSchema);
    const mcp = await booted.client.callTool({ name: 'embeddings_embed', arguments: { texts: ['over mcp'] } });
    assert.deepEqual(resultJson(mcp), mcp.structuredContent);
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['over mcp', 'over rest'], purpose: 'query' });
    assert.equal(rest.status, 200);
    assert.equal(rest.body.success, true);
    assert.deepEqual(Object.keys(rest.body.data).sort(), ['cached', 'dimensions', 'model', 'provider', 'space', 'vectors']);
    assert.equal(rest.body.data.vectors.length, 2);
    assert.equal(rest.body.data.cached, 1);
    const invalid = await booted.rest('POST', '/tools/embeddings_embed', { texts: [] });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.code, 'INVALID_ARGUMENTS');
  });

  it('gateway_status and /health show the plugin and its breaker; the URL without its query; gauges on /metrics', async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { url: `${server.url}/v1?team=secret-team-token` }) });
    const status = booted.status();
    assert.equal(status.ok, true);
    assert.equal(status.detail.url, `${server.url}/v1`);
    assert.equal(status.detail.ready, true);
    assert.equal(status.detail.reason, undefined);
    assert.match(status.detail.space, /^e[0-9a-f]{10}$/);
    assert.equal(booted.gateway.status().breakers.find((b) => b.name === 'embeddings:provider')?.state, 'closed', 'listed from boot');

    await booted.client.callTool({ name: 'embeddings_embed', arguments: { texts: ['one', 'two'] } });
    await booted.client.callTool({ name: 'embeddings_embed', arguments: { texts: ['one'] } });
    assert.equal(server.requests.at(-1)!.query, '?team=secret-team-token', 'the query is sent');
    const viaTool = resultJson(await booted.client.callTool({ name: 'gateway_status', arguments: {} }));
    const plugin = viaTool.plugins.find((p: { name: string }) => p.name === 'embeddings');
    assert.deepEqual(plugin.status.detail.cache, { enabled: true, entries: 2, hits: 1, misses: 2 });
    assert.equal(plugin.status.detail.requests, 1);
    const health = await booted.rest('GET', '/health');
    assert.ok(!health.text.includes('secret-team-token'));
    const metrics = (await booted.rest('GET', '/metrics')).text;
    for (const line of [
      'mcp_gateway_embeddings_ready 1',
      'mcp_gateway_embeddings_requests_total 1',
      'mcp_gateway_embeddings_failures_total 0',
      'mcp_gateway_embeddings_cache_hits 1',
      'mcp_gateway_embeddings_cache_misses 2',
      'mcp_gateway_embeddings_cache_entries 2',
    ]) {
      assert.match(metrics, new RegExp(`^${line}$`, 'm'));
    }
    assert.match(metrics, /^mcp_gateway_breaker_state\{breaker="embeddings:provider"\} 0$/m);
    assert.ok(!metrics.includes('secret-team-token'));
  });
});
