import assert from 'node:assert/strict';
import { afterEach, after, before, describe, it } from 'node:test';
import { resultJson, waitFor } from '../../helpers.js';
import { bootEmbeddings, capturedLog, providerConfig, SIMILAR_REGISTRY, startEmbeddingsServer, type EmbeddingsServer } from './embeddings-helpers.js';

const embed = (texts: string[]) => ({ name: 'embeddings_embed', arguments: { texts } });
const breakerOf = (booted: { gateway: { status(): { breakers: Array<{ name: string; state: string }> } } }) =>
  booted.gateway.status().breakers.find((b) => b.name === 'embeddings:provider')!;

describe('embeddings: a provider that fails', () => {
  let server: EmbeddingsServer;
  before(async () => {
    server = await startEmbeddingsServer({ dimensions: 8 });
  });
  afterEach(() => {
    server.mode = 'ok';
    server.requests.length = 0;
  });
  after(() => server.close());

  it('down (503): counted until the breaker opens, then BREAKER_OPEN at once with no request; readiness, status, /health and REST say so; cached texts still answered', async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server), extra: { registries: [SIMILAR_REGISTRY], plugins: { similar: {} } } });
    const { client } = booted;
    await client.callTool(embed(['seen before']));
    server.mode = 'down';
    for (let i = 0; i < 2; i++) {
      const failed = await client.callTool(embed([`new text ${i}`]));
      assert.equal(resultJson(failed).code, 'EMBEDDINGS_PROVIDER_FAILED');
      assert.equal(resultJson(failed).details.status, 503);
      assert.match(resultJson(failed).message, /answered 503: model is loading/);
    }
    assert.equal(breakerOf(booted).state, 'open');
    const sentBefore = server.requests.length;
    const open = await client.callTool(embed(['another new text']));
    assert.equal(resultJson(open).code, 'BREAKER_OPEN');
    assert.equal(server.requests.length, sentBefore, 'an open breaker sends nothing');

    const cached = await client.callTool(embed(['seen before']));
    assert.equal(cached.isError, undefined, 'a cached text needs no provider');
    assert.equal((cached.structuredContent as { cached: number }).cached, 1);

    const reason = `embedding provider ${server.url}/v1 unavailable: breaker open`;
    assert.deepEqual(resultJson(await client.callTool({ name: 'similar_compare', arguments: { a: 'x', b: 'y' } })).reason, reason);
    const status = booted.status();
    assert.equal(status.ok, false);
    assert.equal(status.detail.ready, false);
    assert.equal(status.detail.reason, reason);
    assert.equal(status.detail.failures, 2);
    const health = await booted.rest('GET', '/health');
    assert.equal(health.body.status, 'degraded');
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['yet another'] });
    assert.equal(rest.status, 503);
    assert.equal(rest.body.error.code, 'BREAKER_OPEN');
  });

  it('unreachable (nothing listens): EMBEDDINGS_PROVIDER_FAILED naming the reason, counted against the provider', async (t) => {
    const gone = await startEmbeddingsServer({ dimensions: 8 });
    await gone.close();
    const booted = await bootEmbeddings(t, { config: providerConfig(gone) });
    const failed = resultJson(await booted.client.callTool(embed(['hello'])));
    assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
    assert.equal(failed.details.reason, 'ECONNREFUSED');
    assert.match(failed.message, new RegExp(`The embedding provider ${gone.url}/v1 cannot be reached \\(ECONNREFUSED\\)`));
    await booted.client.callTool(embed(['hello again']));
    assert.equal(breakerOf(booted).state, 'open');
  });

  it('hangs: BREAKER_TIMEOUT after timeoutMs, the request aborted', async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server, 'ollama', { timeoutMs: 1000 }) });
    server.mode = 'hang';
    const started = Date.now();
    const failed = resultJson(await booted.client.callTool(embed(['slow'])));
    assert.equal(failed.code, 'BREAKER_TIMEOUT');
    assert.ok(Date.now() - started < 5000);
    assert.equal(booted.status().detail.failures, 1);
    await waitFor(() => server.aborted >= 1);
  });

  it("the caller cancels: the request is aborted at once and does not count against the provider", async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server, 'openai', { timeoutMs: 30_000 }) });
    server.mode = 'hang';
    const abortedBefore = server.aborted;
    const controller = new AbortController();
    const call = booted.client.callTool(embed(['never mind']), { signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    await assert.rejects(call);
    await waitFor(() => server.aborted === abortedBefore + 1);
    assert.equal(booted.status().detail.failures, 0);
    assert.equal(breakerOf(booted).state, 'closed');
  });

  it('401: EMBEDDINGS_PROVIDER_FAILED with the status and message, the breaker stays closed, and the key is nowhere', async (t) => {
    const keyed = await startEmbeddingsServer({ dimensions: 8, apiKey: 'sk-the-right-one' });
    t.after(() => keyed.close());
    const secret = 'sk-wrong-but-secret-4242';
    process.env.EMB_FAIL_KEY = secret;
    t.after(() => delete process.env.EMB_FAIL_KEY);
    const { log, text } = capturedLog();
    const booted = await bootEmbeddings(t, { config: providerConfig(keyed, 'openai', { apiKeyEnv: 'EMB_FAIL_KEY' }), log });
    for (let i = 0; i < 4; i++) {
      const failed = await booted.client.callTool(embed([`text ${i}`]));
      const body = resultJson(failed);
      assert.equal(body.code, 'EMBEDDINGS_PROVIDER_FAILED');
      assert.equal(body.details.status, 401);
      assert.match(body.message, /answered 401: Incorrect API key provided: \*\*\*\. Check the key in \$EMB_FAIL_KEY\./);
      assert.ok(!JSON.stringify(failed).includes(secret), 'the key is not in the result');
    }
    assert.equal(keyed.requests.length, 4, 'every call reached the provider: the breaker did not open');
    assert.equal(breakerOf(booted).state, 'closed');
    assert.equal(booted.status().ok, true);
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['over rest'] });
    assert.equal(rest.status, 502);
    assert.ok(!rest.text.includes(secret));
    for (const where of [JSON.stringify(booted.gateway.status()), (await booted.rest('GET', '/health')).text, (await booted.rest('GET', '/metrics')).text, text()]) {
      assert.ok(!where.includes(secret), 'the key is not in status, /health, /metrics or the log');
    }
  });

  it('no key set for openai: the request carries none, and a 401 says the variable is not set', async (t) => {
    const keyed = await startEmbeddingsServer({ dimensions: 8, apiKey: 'sk-needed' });
    t.after(() => keyed.close());
    delete process.env.EMB_UNSET_KEY;
    const booted = await bootEmbeddings(t, { config: providerConfig(keyed, 'openai', { apiKeyEnv: 'EMB_UNSET_KEY' }) });
    const body = resultJson(await booted.client.callTool(embed(['x'])));
    assert.equal(keyed.requests[0]!.authorization, undefined);
    assert.match(body.message, /No key was sent: \$EMB_UNSET_KEY is not set\./);
  });

  it('404 from an OpenAI-compatible url without /v1: the message says where such servers answer', async (t) => {
    const { client } = await bootEmbeddings(t, { config: { ...providerConfig(server), url: server.url } });
    const failed = resultJson(await client.callTool(embed(['where is the api'])));
    assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
    assert.equal(failed.details.status, 404);
    assert.match(failed.message, /answered 404: no route \/embeddings\. OpenAI-compatible servers answer under \/v1: try url http:\/\/host:port\/v1\./);
  });

  it('wrong dimensions: EMBEDDINGS_DIMENSION_MISMATCH naming both lengths; nothing cached, the breaker closed', async (t) => {
    const booted = await bootEmbeddings(t, { config: providerConfig(server) });
    server.mode = 'wrong-dimensions';
    for (let i = 0; i < 3; i++) {
      const body = resultJson(await booted.client.callTool(embed(['measured'])));
      assert.equal(body.code, 'EMBEDDINGS_DIMENSION_MISMATCH');
      assert.deepEqual(body.details, { model: 'text-embedding-3-small', expected: 8, got: [9] });
      assert.match(body.message, /answered vectors of 9 numbers, but plugins\.embeddings\.config\.dimensions is 8/);
    }
    assert.equal(breakerOf(booted).state, 'closed');
    assert.equal(booted.status().detail.cache.entries, 0);
    // A config mistake every write would meet: the plugin's status says so until an answer fits.
    assert.equal(booted.status().ok, false);
    assert.match(booted.status().detail.problem, /answered vectors of 9 numbers/);
    server.mode = 'ok';
    const fine = await booted.client.callTool(embed(['measured']));
    assert.equal((fine.structuredContent as { cached: number }).cached, 0, 'the wrong vectors were not cached');
    assert.equal(booted.status().ok, true);
    assert.equal(booted.status().detail.problem, undefined);
  });

  it('a body that is not embeddings: EMBEDDINGS_PROVIDER_FAILED saying so', async (t) => {
    for (const provider of ['openai', 'ollama'] as const) {
      const booted = await bootEmbeddings(t, { config: providerConfig(server, provider) });
      server.mode = 'garbage';
      const body = resultJson(await booted.client.callTool(embed(['anything'])));
      assert.equal(body.code, 'EMBEDDINGS_PROVIDER_FAILED');
      assert.match(body.message, /answered something that is not embeddings \(no (data|embeddings) array\)/);
      assert.equal(body.details.status, 200);
    }
  });

  it('input refused before anything is sent: too long (index and length), empty, too many', async (t) => {
    const booted = await bootEmbeddings(t, {
      config: providerConfig(server, 'openai', { maxInputChars: 10, maxTexts: 3 }),
      extra: { registries: [SIMILAR_REGISTRY], plugins: { similar: {} } },
    });
    const cases: Array<[string, Record<string, unknown>, RegExp, Record<string, unknown>]> = [
      ['embeddings_embed', { texts: ['short', 'this one is too long'] }, /Text 1 has 20 characters; at most 10/, { index: 1, length: 20, maxInputChars: 10 }],
      ['similar_embed', { texts: ['fine', ''] }, /Text 1 is empty/, { index: 1 }],
      ['similar_embed', { texts: ['a', 'b', 'c', 'd'] }, /4 texts in one call; at most 3/, { count: 4, maxTexts: 3 }],
    ];
    for (const [name, args, message, details] of cases) {
      const body = resultJson(await booted.client.callTool({ name, arguments: args }));
      assert.equal(body.code, 'EMBEDDINGS_INPUT_INVALID', name);
      assert.match(body.message, message);
      assert.deepEqual(body.details, details);
    }
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['this one is too long'] });
    assert.equal(rest.status, 400);
    assert.equal(rest.body.error.code, 'EMBEDDINGS_INPUT_INVALID');
    assert.equal(server.requests.length, 0);
  });
});
