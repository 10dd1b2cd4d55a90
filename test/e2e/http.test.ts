import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import WebSocket from 'ws';
import { createApiKey } from '../../core/auth/api-keys.js';
import { EventsCloseCode } from '../../core/http/events-socket.js';
import type { Gateway } from '../../core/gateway/gateway.js';
import { listenHttp, type HttpListener } from '../../core/http/http-server.js';
import { lastOutcome, resultJson, startGateway, waitFor } from '../helpers.js';

type HttpOverrides = Record<string, unknown>;

async function serve(http: HttpOverrides = {}, extra: Record<string, unknown> = {}): Promise<{ gateway: Gateway; listener: HttpListener; base: string }> {
  const gateway = await startGateway({
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0, ...http } },
    ...extra,
  });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  return { gateway, listener, base: `http://127.0.0.1:${listener.address.port}` };
}

async function mcpClient(base: string, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'http-e2e', version: '1.0.0' });
  await client.connect(transport);
  after(() => client.close());
  return { client, transport };
}

/** Opens /events and resolves once open (or rejects with the refusal's status). */
function openEvents(base: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/events`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
    after(() => ws.terminate());
  });
}

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

describe('HTTP face on a real listening server', () => {
  describe('without keys', async () => {
    const { gateway, base } = await serve();

    it('REST: a real fetch gets the success envelope', async () => {
      const res = await fetch(`${base}/tools/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'rest' }) });
      assert.equal(res.status, 200);
      assert.equal((await res.json() as any).data.text, 'rest');
    });

    it('MCP Streamable HTTP: the SDK client lists and calls tools, with progress', async () => {
      const { client } = await mcpClient(base);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'mcp over http' } });
      assert.equal(resultJson(result).text, 'mcp over http');
      assert.equal(resultJson(result).caller.transport, 'http');
      const progress: number[] = [];
      await client.callTool({ name: 'echo_sleep', arguments: { ms: 30, steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
      assert.deepEqual(progress, [1, 2, 3]);
      assert.equal(gateway.sessions.countByTransport().http, 1);
    });

    it('MCP Streamable HTTP: DELETE ends the session; its id is then unknown (404)', async () => {
      const { transport } = await mcpClient(base);
      const id = transport.sessionId!;
      await transport.terminateSession();
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 404);
      assert.equal((await res.json() as any).error.data.code, 'SESSION_NOT_FOUND');
    });

    it('MCP Streamable HTTP: a request without a session that is not initialize is refused', async () => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 400);
      assert.equal((await res.json() as any).error.data.code, 'INVALID_REQUEST');
    });

    it('/mcp refuses a foreign Host (DNS rebinding) with a JSON-RPC error', async () => {
      // fetch will not send a forged Host header; a browser on a rebound name would.
      const { status, body } = await rawPost(`${base}/mcp`, { host: 'rebound.example', 'content-type': 'application/json' }, '{}');
      assert.equal(status, 403);
      assert.equal(JSON.parse(body).error.data.code, 'HOST_NOT_ALLOWED');
    });

    it('/events delivers what plugins publish, by pattern', async () => {
      const ws = await openEvents(base);
      ws.send(JSON.stringify({ type: 'subscribe', channels: ['echo.*'] }));
      assert.deepEqual(await nextMessage(ws), { type: 'subscribed', channels: ['echo.*'] });
      const event = nextMessage(ws);
      await fetch(`${base}/tools/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"published"}' });
      const received = await event;
      assert.equal(received.type, 'event');
      assert.equal(received.channel, 'echo.said');
      assert.equal(received.source, 'echo');
      assert.deepEqual(received.data, { text: 'published' });
      ws.send('not json');
      assert.equal((await nextMessage(ws)).code, 'INVALID_REQUEST');
      ws.send(JSON.stringify({ type: 'subscribe', channels: ['a.**.b'] }));
      assert.equal((await nextMessage(ws)).code, 'INVALID_REQUEST');
    });

    it('/events disconnects a consumer that falls behind with 4008, and nobody else waits', async () => {
      const slow = await openEvents(base);
      const fast = await openEvents(base);
      for (const ws of [slow, fast]) {
        ws.send(JSON.stringify({ type: 'subscribe', channels: ['flood.**'] }));
        await nextMessage(ws);
      }
      // The slow client stops reading its socket; the fast one keeps reading.
      (slow as unknown as { _socket: { pause(): void } })._socket.pause();
      let fastCount = 0;
      fast.on('message', () => fastCount++);
      const closed = new Promise<number>((resolve) => slow.once('close', (code) => resolve(code)));
      const payload = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 200; i++) {
        gateway.events.publish('test', 'flood.data', { i, payload });
        await new Promise((r) => setImmediate(r));
      }
      (slow as unknown as { _socket: { resume(): void } })._socket.resume();
      // 4008 when the close frame gets through the full socket; 1006 when, a second later, the
      // gateway had to cut the connection (a loaded machine drains the backlog too slowly).
      const code = await closed;
      assert.ok(code === EventsCloseCode.TooSlow || code === 1006, String(code));
      await waitFor(() => fastCount === 200);
    });

    it('/events keeps the first 64 patterns of a subscribe that passes the limit, and names the rest', async () => {
      const ws = await openEvents(base);
      const channels = Array.from({ length: 66 }, (_, i) => `c${i}.*`);
      const replies: any[] = [];
      ws.on('message', (data) => replies.push(JSON.parse(data.toString())));
      ws.send(JSON.stringify({ type: 'subscribe', channels }));
      await waitFor(() => replies.length === 2);
      assert.deepEqual(replies[0], { type: 'subscribed', channels: channels.slice(0, 64) });
      assert.equal(replies[1].code, 'INVALID_REQUEST');
      assert.match(replies[1].message, /2 pattern\(s\) from c64\.\* on were not subscribed/);
      gateway.events.publish('test', 'c63.x', { n: 63 });
      gateway.events.publish('test', 'c64.x', { n: 64 });
      await waitFor(() => replies.length === 3);
      assert.equal(replies[2].data.n, 63);
    });

    it('MCP Streamable HTTP: an initialize the SDK refuses leaves no session behind', async () => {
      const before = gateway.sessions.countByTransport().http ?? 0;
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
      assert.equal(res.status, 406);
      await waitFor(() => (gateway.sessions.countByTransport().http ?? 0) === before);
    });

    it('REST: a client that hangs up cancels its call', async () => {
      const gone = new AbortController();
      const call = fetch(`${base}/tools/echo_sleep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":5000}', signal: gone.signal });
      await waitFor(() => gateway.calls.inFlight > 0);
      gone.abort();
      await assert.rejects(call);
      await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
    });

    it('REST: an unknown tool is audited like any other call', async () => {
      await fetch(`${base}/tools/no_such_tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(lastOutcome(gateway, 'no_such_tool'), 'UNKNOWN_TOOL');
    });

    it('serves an OpenAPI 3.1 document that validates, with one operation per tool', async () => {
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;
      assert.equal(doc.openapi, '3.1.0');
      const operations = Object.values(doc.paths).flatMap((p: any) => Object.values(p)).map((o: any) => o.operationId);
      for (const tool of gateway.catalog.list()) assert.ok(operations.includes(tool.listing.name), tool.listing.name);
      const echo = doc.paths['/tools/echo'].post;
      assert.deepEqual(echo.tags, ['echo']);
      assert.deepEqual(echo.requestBody.content['application/json'].schema.required, ['text']);
      assert.ok(echo.responses['503']);
      await SwaggerParser.validate(structuredClone(doc));
    });

    it('/metrics counts calls by tool and outcome; /health reports state', async () => {
      const metrics = await (await fetch(`${base}/metrics`)).text();
      assert.match(metrics, /mcp_gateway_tool_calls_total\{tool="echo",outcome="ok"\} \d+/);
      assert.match(metrics, /mcp_gateway_tool_call_duration_seconds_bucket/);
      assert.match(metrics, /mcp_gateway_breaker_state\{breaker="echo:upstream"\} 0/);
      const health = (await (await fetch(`${base}/health`)).json()) as any;
      assert.equal(health.status, 'ok');
      assert.equal(health.version, gateway.version);
    });
  });

  describe('with API keys: the auth matrix', async () => {
    const full = createApiKey();
    const narrow = createApiKey();
    const events = createApiKey();
    const { gateway, base } = await serve({}, {
      auth: 'key',
      apiKeys: [
        { name: 'full', hash: full.hash, scopes: ['*'] },
        { name: 'narrow', hash: narrow.hash, scopes: ['gateway_*'] },
        { name: 'events-only', hash: events.hash, scopes: ['events'] },
      ],
    });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const restCall = (headers: Record<string, string>) =>
      fetch(`${base}/tools/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"text":"x"}' });

    const rest: Array<[string, Record<string, string>, number, string?]> = [
      ['no key', {}, 401, 'UNAUTHORIZED'],
      ['a bad key', bearer('mgw_not-a-real-key'), 401, 'UNAUTHORIZED'],
      ['a key without the scope', bearer(narrow.key), 403, 'FORBIDDEN'],
      ['a key with the scope (Bearer)', bearer(full.key), 200],
      ['a key with the scope (X-API-Key)', { 'x-api-key': full.key }, 200],
    ];
    for (const [label, headers, status, code] of rest) {
      it(`REST, ${label}: ${status}`, async () => {
        const res = await restCall(headers);
        assert.equal(res.status, status);
        const body = (await res.json()) as any;
        if (code) assert.equal(body.error.code, code);
        else assert.equal(body.data.text, 'x');
      });
    }

    it('the audit row names the API key that made the call', async () => {
      await restCall({ 'x-api-key': full.key });
      gateway.audit!.flush();
      const row = gateway.db.prepare("SELECT transport, caller FROM core_audit WHERE tool = 'echo' ORDER BY id DESC LIMIT 1").get();
      assert.deepEqual(row, { transport: 'rest', caller: 'full' });
    });

    it('REST: /health and /openapi.json stay public; GET /tools shows only what the key may call', async () => {
      assert.equal((await fetch(`${base}/health`)).status, 200);
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;
      assert.ok(doc.components.securitySchemes.bearer);
      const tools = (await (await fetch(`${base}/tools`, { headers: bearer(narrow.key) })).json()) as any;
      // `gateway_*` covers tool search's two tools as well.
      assert.deepEqual(tools.data.map((t: any) => t.name), ['gateway_status', 'gateway_find_tools', 'gateway_call_tool']);
      assert.equal((await fetch(`${base}/tools`)).status, 401);
    });

    it('/mcp: no key 401, bad key 401', async () => {
      for (const headers of [{}, bearer('wrong')]) {
        const res = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
        });
        assert.equal(res.status, 401);
        assert.equal((await res.json() as any).error.data.code, 'UNAUTHORIZED');
      }
    });

    it('/mcp: a narrow key sees only its tools and gets FORBIDDEN for others; a full key calls them', async () => {
      const { client } = await mcpClient(base, bearer(narrow.key));
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['gateway_status', 'gateway_find_tools', 'gateway_call_tool']);
      const refused = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      assert.equal(resultJson(refused).code, 'FORBIDDEN');
      const { client: fullClient } = await mcpClient(base, bearer(full.key));
      assert.equal(resultJson(await fullClient.callTool({ name: 'echo', arguments: { text: 'ok' } })).text, 'ok');
    });

    const ws: Array<[string, Record<string, string>, number | 'open']> = [
      ['no key', {}, 401],
      ['a bad key', bearer('wrong'), 401],
      ['a key without the events scope', bearer(narrow.key), 403],
      ['a key with it', bearer(events.key), 'open'],
      ['the * scope', bearer(full.key), 'open'],
    ];
    for (const [label, headers, expected] of ws) {
      it(`/events, ${label}: ${expected}`, async () => {
        if (expected === 'open') {
          const socket = await openEvents(base, headers);
          assert.equal(socket.readyState, WebSocket.OPEN);
        } else {
          await assert.rejects(openEvents(base, headers), (err: any) => err.status === expected);
        }
      });
    }
  });

  it('rate limits per key (or address) with 429 and Retry-After', async () => {
    const { base } = await serve({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${base}/tools/gateway_status`, { method: 'POST' });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.ok(Number(last!.headers.get('retry-after')) > 0);
    assert.equal((await last!.json() as any).error.code, 'RATE_LIMITED');
  });

  it('closes open /events clients with 1001 when the server closes, without waiting for them', async () => {
    const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } } });
    const listener = await listenHttp(gateway);
    const ws = await openEvents(`http://127.0.0.1:${listener.address.port}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await listener.close();
    assert.equal(await closed, EventsCloseCode.GoingAway);
  });

  it('does not let an /events client that stops reading hold up the server closing', { timeout: 15_000 }, async () => {
    const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } } });
    const listener = await listenHttp(gateway);
    const ws = await openEvents(`http://127.0.0.1:${listener.address.port}`);
    // It will never read the close frame, let alone answer it (ws alone would wait 30 s).
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await listener.close();
  });

  it('answers REST calls on a kept-alive connection with 503 and closes it once the server is closing', { timeout: 15_000 }, async () => {
    const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } } });
    const listener = await listenHttp(gateway);
    const base = `http://127.0.0.1:${listener.address.port}`;
    // A client that stops reading holds the close in its preClose step for a while.
    const ws = await openEvents(base);
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (text: string) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = request(`${base}/tools/echo`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ text }));
      });
    assert.equal((await call('before')).status, 200);
    const closed = listener.close();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await call('during close'), { status: 503, connection: 'close' });
    await closed;
    agent.destroy();
  });

  it('closes MCP sessions left idle past mcpSessionIdleMs (no request)', async () => {
    const { gateway, base } = await serve({ mcpSessionIdleMs: 1000 });
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } }),
    });
    assert.ok(res.headers.get('mcp-session-id'));
    await res.text();
    assert.equal(gateway.sessions.countByTransport().http, 1);
    await waitFor(() => (gateway.sessions.countByTransport().http ?? 0) === 0);
  });

  it('refuses to bind a non-loopback address with auth: none', async () => {
    const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { host: '0.0.0.0', port: 0 } } });
    await assert.rejects(listenHttp(gateway), (err: any) => err.code === 'CONFIG_INVALID' && /Refusing to serve HTTP on 0\.0\.0\.0 with auth: none/.test(err.message));
  });
});

function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
