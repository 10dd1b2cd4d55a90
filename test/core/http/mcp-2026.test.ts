import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, relayHookCalls, resultJson, startGateway, toolListChangesHeard, WITH_LIBRARY, WITH_RELAY } from '../../helpers.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};

/** One 2026-07-28 request by hand: what a client that is not the SDK sends, and every header it may get wrong. */
async function raw(base: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  const text = await res.text();
  // A response that streamed (progress, logs) is SSE: its last data line is the result.
  const lines = text.startsWith('{') ? [text] : text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  return { status: res.status, session: res.headers.get('mcp-session-id'), messages: lines.map((l) => JSON.parse(l)), body: JSON.parse(lines.at(-1)!) };
}

/**
 * The 2026-07-28 revision on /mcp, beside the 2025 sessions: SDK v2's client pinned to the
 * revision, one that discovers first (as Claude Code does), and requests by hand for what a
 * client can get wrong.
 */
describe('MCP 2026-07-28 over /mcp', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY], plugins: { echo: {}, conformance: {} } });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const base = `http://127.0.0.1:${http.address.port}`;

  const connect = async (versionNegotiation: ClientOptions['versionNegotiation']) => {
    const client = new Client({ name: 'v2-client', version: '1.0.0' }, { versionNegotiation });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    after(() => client.close());
    return client;
  };

  it('serves a client pinned to 2026-07-28 with no session: lists, calls, reads, gets, completes', async () => {
    const client = await connect({ mode: { pin: MODERN } });
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'echo'));
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello 2026' } });
    assert.equal(echoed.isError, undefined);
    // The caller has no session id (the revision has none) and is named by its request's _meta.
    assert.deepEqual(echoed.structuredContent, { text: 'hello 2026', caller: { transport: 'http', identity: 'v2-client' } });
    const read = await client.readResource({ uri: 'test://static-text' });
    assert.equal((read.contents[0] as { text: string }).text, 'This is the content of the static text resource.');
    const prompt = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.equal((prompt.messages[0]!.content as { text: string }).text, 'This is a simple prompt for testing.');
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
    assert.deepEqual(completion.completion.values, ['testValue1', 'testValue2']);
    // No session was opened: the 2025 sessions count none over HTTP.
    assert.equal(gateway.sessions.countByTransport().http, undefined);
  });

  it('serves a client that sends server/discover first, as Claude Code does', async () => {
    const client = await connect({ mode: 'auto' });
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
    assert.equal(resultJson(await client.callTool({ name: 'echo_fail', arguments: { kind: 'declared' } })).code, 'ECHO_REFUSED');
  });

  it('still serves a 2025-11-25 session to the same client library in legacy mode', async () => {
    const client = await connect({ mode: 'legacy' });
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const { structuredContent } = await client.callTool({ name: 'echo', arguments: { text: 'old' } });
    assert.equal((structuredContent as { caller: { sessionId?: string } }).caller.sessionId, client.transport?.sessionId);
  });

  it('answers server/discover with the revision, the capabilities and serverInfo, every result typed', async () => {
    const { status, session, body } = await raw(base, 'server/discover', { _meta: META });
    assert.equal(status, 200);
    assert.equal(session, null);
    assert.deepEqual(body.result.supportedVersions, [MODERN]);
    assert.equal(body.result.resultType, 'complete');
    assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'mcp-gateway');
    assert.equal(body.result.capabilities.tools.listChanged, true);
  });

  it('refuses a revision it does not serve, naming the ones it does', async () => {
    const { body } = await raw(base, 'tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2031-01-01' } }, { 'mcp-protocol-version': '2031-01-01' });
    assert.equal(body.error.code, -32022);
    assert.deepEqual(body.error.data.supported, [MODERN]);
  });

  it('refuses a request without the client capabilities in _meta, and headers that disagree with the body', async () => {
    const { 'io.modelcontextprotocol/clientCapabilities': _, ...partial } = META;
    assert.equal((await raw(base, 'tools/list', { _meta: partial })).body.error.code, -32602);
    const mismatch = await raw(base, 'tools/list', { _meta: META }, { 'mcp-method': 'prompts/list' });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
  });

  it('answers the methods the revision removed with -32601, whatever their params', async () => {
    for (const method of ['logging/setLevel', 'resources/subscribe']) {
      const { status, body } = await raw(base, method, { _meta: META, level: 'nonsense' });
      assert.equal(status, 404, method);
      assert.equal(body.error.code, -32601, method);
    }
  });

  it('answers bad params with -32602 and a sentence, and a missing resource with -32602 naming the URI', async () => {
    const bad = await raw(base, 'tools/call', { _meta: META, name: 'echo', arguments: 'text' }, { 'mcp-name': 'echo' });
    assert.equal(bad.body.error.code, -32602);
    assert.match(bad.body.error.message, /"arguments" must be an object/);
    const missing = await raw(base, 'resources/read', { _meta: META, uri: 'test://nope' }, { 'mcp-name': 'test://nope' });
    assert.equal(missing.body.error.code, -32602);
    assert.deepEqual([missing.body.error.data.code, missing.body.error.data.uri], ['RESOURCE_NOT_FOUND', 'test://nope']);
  });

  it('sends a call its log messages on its own response only when the request names a log level', async () => {
    const call = (meta: Record<string, unknown>) => raw(base, 'tools/call', { _meta: meta, name: 'test_logging_tool', arguments: {} }, { 'mcp-name': 'test_logging_tool' });
    const silent = await call(META);
    assert.deepEqual(silent.messages.map((m) => m.method ?? 'result'), ['result']);
    const logged = await call({ ...META, 'io.modelcontextprotocol/logLevel': 'info' });
    assert.deepEqual(logged.messages.map((m) => m.method ?? 'result'), ['notifications/message', 'result']);
    assert.equal(logged.messages[0].params.data, 'test_logging_tool ran');
  });

  it('tells an open subscriptions/listen stream that the tool list changed', async () => {
    assert.deepEqual(await toolListChangesHeard(await connect({ mode: { pin: MODERN } })), ['tools']);
  });
});

describe('MCP 2026-07-28 over /mcp with keys', async () => {
  const narrow = createApiKey();
  const gateway = await startGateway({ auth: 'key', apiKeys: [{ name: 'narrow', hash: narrow.hash, scopes: ['echo'] }], ...WITH_LIBRARY });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const base = `http://127.0.0.1:${http.address.port}`;

  it('refuses a request without a key with 401, as a 2025 session', async () => {
    const { status } = await raw(base, 'tools/list', { _meta: META });
    assert.equal(status, 401);
  });

  it("holds a key to its scopes: it lists only what they allow and is refused the rest", async () => {
    const bearer = { authorization: `Bearer ${narrow.key}` };
    const { body } = await raw(base, 'tools/list', { _meta: META }, bearer);
    assert.deepEqual(body.result.tools.map((t: { name: string }) => t.name), ['echo']);
    const refused = await raw(base, 'tools/call', { _meta: META, name: 'gateway_status', arguments: {} }, { ...bearer, 'mcp-name': 'gateway_status' });
    assert.equal(JSON.parse(refused.body.result.content[0].text).code, 'FORBIDDEN');
  });

  it('refuses a subscriptions/listen on resources the key does not reach, or that do not exist', async () => {
    const bearer = { authorization: `Bearer ${narrow.key}` };
    const listen = (uri: string) => raw(base, 'subscriptions/listen', { _meta: META, notifications: { resourceSubscriptions: [uri] } }, bearer);
    const forbidden = await listen('library://readme');
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.data.code, 'FORBIDDEN');
    const missing = await listen('library://nope');
    assert.equal(missing.body.error.data.code, 'RESOURCE_NOT_FOUND');
  });
});

describe('a 2026 listen over /mcp holds the resources it names until its stream closes', async () => {
  const gateway = await startGateway(WITH_RELAY);
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const client = new Client({ name: 'v2-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address.port}/mcp`)));
  after(() => client.close());

  it("tells the entry of the listen's first hold and of its end", async () => {
    const subscription = await client.listen({ resourceSubscriptions: ['relay://status'] });
    assert.deepEqual(await relayHookCalls(client), ['subscribe relay://status']);
    await subscription.close();
    assert.deepEqual(await relayHookCalls(client, 2), ['subscribe relay://status', 'unsubscribe relay://status']);
  });
});
