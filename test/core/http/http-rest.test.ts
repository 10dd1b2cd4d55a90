import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createHttpApp } from '../../../core/http/http-server.js';
import { httpRequest, memoryClient, resultJson, startGateway, type HttpAnswer } from '../../helpers.js';

const TEN_MIB = 10 * 1024 * 1024;

/** A loopback HTTP server the echo_fetch tool can be pointed at: ok, fail or hang. */
async function upstream(): Promise<{ url: (mode: string) => string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/ok') res.end('fine');
    else if (req.url === '/fail') res.writeHead(500).end('broken');
    // '/hang' never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as { port: number }).port;
  return { url: (mode) => `http://127.0.0.1:${port}/${mode}`, server };
}

// Every case runs twice: through fastify's routes (inject), and on a listening server, where
// well-formed tool calls take the path ahead of fastify (core/http/rest-calls.ts). Both must answer
// alike.
for (const via of ['inject', 'socket'] as const) describe(`REST bridge (${via})`, async () => {
  const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 0 } } } });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  if (via === 'socket') await app.listen({ host: '127.0.0.1', port: 0 });
  const port = () => (app.server.address() as { port: number }).port;
  const send = (request: InjectOptions & { url: string; method: string }): Promise<HttpAnswer> =>
    via === 'inject'
      ? app.inject(request).then((res) => ({ statusCode: res.statusCode, headers: res.headers, body: res.body, json: () => res.json() }))
      : httpRequest(port(), request as { method: string; url: string; headers?: Record<string, string>; payload?: unknown });
  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    send({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  const json = { 'content-type': 'application/json' };

  it('200 with {success: true, data} for a good call', async () => {
    const res = await post('/tools/echo', { text: 'hi', times: 2 });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: true, data: { text: 'hihi', caller: { transport: 'rest', identity: '127.0.0.1' } } });
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('a POST with no body calls a tool that needs no arguments', async () => {
    const res = await send({ method: 'POST', url: '/tools/gateway_status' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.toolCount, 8);
  });

  it('returns image content as {content: [...]}', async () => {
    const res = await post('/tools/echo_image', {});
    assert.deepEqual(res.json().data.content.map((c: { type: string }) => c.type), ['text', 'image']);
  });

  const statuses: Array<[string, () => Promise<HttpAnswer>, number, string]> = [
    ['malformed JSON', () => post('/tools/echo', '{"text": ', json), 400, 'PARSE_ERROR'],
    ['an empty object body that misses a field', () => post('/tools/echo', {}), 400, 'INVALID_ARGUMENTS'],
    ['an unknown tool', () => post('/tools/nope', {}), 404, 'UNKNOWN_TOOL'],
    ['a body over 10 MiB', () => post('/tools/echo', `{"text":"${'x'.repeat(TEN_MIB)}"}`, json), 413, 'MESSAGE_TOO_LARGE'],
    ['a body that is not JSON', () => post('/tools/echo', 'text=hi', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain', () => post('/tools/echo', 'hi', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an unexpected failure (no internals sent)', () => post('/tools/echo_fail', { kind: 'unexpected' }), 500, 'INTERNAL_ERROR'],
    ['a declared plugin error', () => post('/tools/echo_fail', { kind: 'declared' }), 409, 'ECHO_REFUSED'],
    ['an unknown route', () => send({ method: 'GET', url: '/nowhere' }), 404, 'NOT_FOUND'],
    ['a plain GET on the /events WebSocket', () => send({ method: 'GET', url: '/events' }), 426, 'UPGRADE_REQUIRED'],
  ];
  for (const [label, request, status, code] of statuses) {
    it(`${status} ${code} for ${label}`, async () => {
      const res = await request();
      assert.equal(res.statusCode, status);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, code);
      assert.equal(typeof body.error.message, 'string');
      assert.doesNotMatch(JSON.stringify(body), /secret internal detail|\bat .*\.ts:\d+/);
    });
  }

  it('404 NOT_FOUND for the deprecated HTTP+SSE transport\'s paths, saying to use /mcp', async () => {
    for (const [method, url] of [['GET', '/sse'], ['POST', '/messages?sessionId=x'], ['POST', '/message']] as const) {
      const res = await send({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error.code, 'NOT_FOUND');
      assert.match(res.json().error.message, /HTTP\+SSE transport .* is not served: connect to \/mcp/, url);
    }
  });

  it('400 INVALID_ARGUMENTS carries ajv\'s problems in details', async () => {
    const res = await post('/tools/echo', { text: 1 });
    assert.deepEqual(res.json().error.details, [{ path: '/text', message: 'must be string' }]);
  });

  it('503 BREAKER_OPEN with Retry-After once a service keeps failing, 504 BREAKER_TIMEOUT when it hangs', async () => {
    const { url } = await upstream();
    const hung = await post('/tools/echo_fetch', { url: url('hang') });
    assert.equal(hung.statusCode, 504);
    assert.equal(hung.json().error.code, 'BREAKER_TIMEOUT');
    for (let i = 0; i < 3; i++) await post('/tools/echo_fetch', { url: url('fail') });
    const open = await post('/tools/echo_fetch', { url: url('ok') });
    assert.equal(open.statusCode, 503);
    assert.equal(open.json().error.code, 'BREAKER_OPEN');
    assert.ok(Number(open.headers['retry-after']) >= 1);
    const health = (await send({ method: 'GET', url: '/health' })).json();
    assert.equal(health.status, 'degraded');
    assert.equal(health.breakers[0].state, 'open');
  });

  it('504 TOOL_TIMEOUT when a tool runs past its limit', { timeout: 20_000 }, async () => {
    const res = await post('/tools/echo_sleep', { ms: 6000, ignoreCancel: true });
    assert.equal(res.statusCode, 504);
    assert.equal(res.json().error.code, 'TOOL_TIMEOUT');
  });

  it('GET /tools lists the catalog with schemas; GET /tools/<name> one tool', async () => {
    const list = (await send({ method: 'GET', url: '/tools' })).json();
    assert.equal(list.success, true);
    assert.ok(list.data.some((t: any) => t.name === 'echo' && t.plugin === 'echo' && t.inputSchema.type === 'object'));
    const one = (await send({ method: 'GET', url: '/tools/echo' })).json();
    assert.deepEqual(one.data.inputSchema.required, ['text']);
    assert.equal((await send({ method: 'GET', url: '/tools/ghost' })).statusCode, 404);
  });

  describe('hostile input: each gets its documented status, and the server keeps serving', () => {
    const hostile: Array<[string, InjectOptions, number, string]> = [
      ['truncated JSON', { method: 'POST', url: '/tools/echo', headers: json, payload: '{"text": "abc' }, 400, 'PARSE_ERROR'],
      ['a JSON array body', { method: 'POST', url: '/tools/echo', headers: json, payload: '["text"]' }, 400, 'INVALID_ARGUMENTS'],
      ['a JSON string body', { method: 'POST', url: '/tools/echo', headers: json, payload: '"text"' }, 400, 'INVALID_ARGUMENTS'],
      ['JSON null', { method: 'POST', url: '/tools/echo', headers: json, payload: 'null' }, 400, 'INVALID_ARGUMENTS'],
      // Not read as "no arguments", which this tool would accept.
      ['JSON null to a tool with no required argument', { method: 'POST', url: '/tools/gateway_status', headers: json, payload: 'null' }, 400, 'INVALID_ARGUMENTS'],
      ['a wrong content type', { method: 'POST', url: '/tools/echo', headers: { 'content-type': 'application/xml' }, payload: '<text/>' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['10 MiB + 1 byte', { method: 'POST', url: '/tools/echo', headers: json, payload: 'x'.repeat(TEN_MIB + 1) }, 413, 'MESSAGE_TOO_LARGE'],
      ['a huge number of keys', { method: 'POST', url: '/tools/echo', headers: json, payload: hugeObject(200_000) }, 400, 'INVALID_ARGUMENTS'],
      ['a __proto__ key', { method: 'POST', url: '/tools/echo', headers: json, payload: '{"text":"x","__proto__":{"admin":true}}' }, 400, 'INVALID_REQUEST'],
      ['a __proto__ key spelled with escapes', { method: 'POST', url: '/tools/echo', headers: json, payload: '{"text":"x","\\u005f_proto__":{"admin":true}}' }, 400, 'INVALID_REQUEST'],
      ['unicode in the tool name', { method: 'POST', url: `/tools/${encodeURIComponent('échø_☃')}`, payload: {} }, 404, 'UNKNOWN_TOOL'],
      ['a null byte in the tool name', { method: 'POST', url: '/tools/echo%00', payload: {} }, 404, 'UNKNOWN_TOOL'],
      ['path traversal in the tool name', { method: 'POST', url: '/tools/..%2F..%2Fetc%2Fpasswd', payload: {} }, 404, 'UNKNOWN_TOOL'],
      ['path traversal with dot segments', { method: 'POST', url: '/tools/../health', payload: {} }, 404, 'NOT_FOUND'],
      ['a 10 000-character tool name', { method: 'POST', url: `/tools/${'a'.repeat(10_000)}`, payload: {} }, 404, 'UNKNOWN_TOOL'],
      ['a wrong Host header', { method: 'POST', url: '/tools/echo', headers: { host: 'attacker.example' }, payload: { text: 'x' } }, 403, 'HOST_NOT_ALLOWED'],
      ['a foreign Origin', { method: 'POST', url: '/tools/echo', headers: { origin: 'https://attacker.example' }, payload: { text: 'x' } }, 403, 'HOST_NOT_ALLOWED'],
      ['JSON in a query-stringed URL with a charset', { method: 'POST', url: '/tools/echo?x=1', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, payload: '{"text":1}' }, 400, 'INVALID_ARGUMENTS'],
      ['a Content-Length over the limit (answered before the body is read)', { method: 'POST', url: '/tools/echo', headers: { ...json, 'content-length': String(TEN_MIB + 1) }, payload: '{}' }, 413, 'MESSAGE_TOO_LARGE'],
    ];
    for (const [label, request, status, code] of hostile) {
      // inject checks the declared length itself and refuses a lie before fastify sees it.
      if (via === 'inject' && label.startsWith('a Content-Length over')) continue;
      it(label, async () => {
        const res = await send(request as InjectOptions & { url: string; method: string });
        assert.equal(res.statusCode, status, res.body.slice(0, 300));
        assert.equal(res.json().error.code, code);
        // A body refused unread would be taken for the next request: that connection ends.
        if (via === 'socket' && status === 413) assert.equal(res.headers.connection, 'close');
        const healthy = await post('/tools/echo', { text: 'still here' });
        assert.equal(healthy.json().data.text, 'still here');
      });
    }
  });

  it('refuses exactly what MCP refuses, with the same code and message', async () => {
    const client = await memoryClient(gateway);
    const cases = [{ text: 5 }, {}, { text: 'a', extra: true }, { text: 'a', times: '2' }, { text: 'a', times: 0 }];
    for (const args of cases) {
      const rest = (await post('/tools/echo', args)).json().error;
      const mcp = resultJson(await client.callTool({ name: 'echo', arguments: args }));
      assert.deepEqual(rest, mcp, JSON.stringify(args));
    }
  });
});

function hugeObject(keys: number): string {
  const parts = ['"text":"x"'];
  for (let i = 0; i < keys; i++) parts.push(`"k${i}":${i}`);
  return `{${parts.join(',')}}`;
}
