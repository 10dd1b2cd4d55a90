import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, httpRequest, safeJson, startGateway, TESTS, waitFor } from '../../helpers.js';

const BOARD_REGISTRY = join(TESTS, 'fixtures', 'routes-plugin', 'registry');

type Opened = { ws: WebSocket; messages: any[]; closed: Promise<{ code: number; reason: string }> };
type Refused = { status: number; body: any };

/** Opens a WebSocket; resolves once open (collecting messages) or with the refusal's status and body. */
function openSocket(url: string, headers: Record<string, string> = {}): Promise<Opened | Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: any[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('message', (data, isBinary) => messages.push(isBinary ? data : (safeJson(data.toString()) ?? data.toString())));
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    ws.on('error', (err) => {
      if (ws.readyState !== WebSocket.CLOSED) reject(err);
    });
  });
}

/** Calls `read` until `done` holds for its value; throws after 10 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function opened(result: Opened | Refused): Opened {
  assert.ok('ws' in result, `refused: ${JSON.stringify(result)}`);
  after(() => result.ws.terminate());
  return result;
}

describe('plugin WebSocket routes', async () => {
  const route = createApiKey();
  const admin = createApiKey();
  const tools = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [
      { name: 'board-routes', hash: route.hash, scopes: ['route:board'] },
      { name: 'board-admin', hash: admin.hash, scopes: ['route:board:admin'] },
      { name: 'tools', hash: tools.hash, scopes: ['echo', 'events'] },
    ],
    registries: [FIXTURE_REGISTRY, BOARD_REGISTRY],
    plugins: { board: {}, echo: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 0 } } },
  });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const url = (path: string) => `ws://127.0.0.1:${port}${path}`;
  const withKey = (key: { key: string }) => ({ authorization: `Bearer ${key.key}` });

  it('accepts a key with the route scope and greets it by its key name', async () => {
    const { ws, messages } = opened(await openSocket(url('/plugins/board/feed?room=a'), withKey(route)));
    await waitFor(() => messages.length >= 1);
    assert.deepEqual(messages[0], { type: 'hello', identity: 'board-routes', query: { room: 'a' } });
    ws.send('ping me');
    ws.send(Buffer.from([1, 2, 3]));
    await waitFor(() => messages.length >= 3);
    assert.deepEqual(messages.slice(1), [{ type: 'echo', text: 'ping me' }, { type: 'echo', bytes: 3 }]);
  });

  it('pushes what a route does to the connected clients', async () => {
    const { messages } = opened(await openSocket(url('/plugins/board/feed'), withKey(route)));
    await waitFor(() => messages.length >= 1);
    const res = await httpRequest(port, { method: 'POST', url: '/plugins/board/items', headers: withKey(route), payload: { text: 'pushed' } });
    assert.equal(res.statusCode, 200);
    await waitFor(() => messages.some((m) => m.type === 'item'));
    assert.equal(messages.find((m) => m.type === 'item').item.text, 'pushed');
  });

  const refusals: Array<[string, string, Record<string, string>, number, string]> = [
    ['no key', '/plugins/board/feed', {}, 401, 'UNAUTHORIZED'],
    ['a key without a route scope', '/plugins/board/feed', withKey(tools), 403, 'FORBIDDEN'],
    ['a key of another route scope', '/plugins/board/feed', withKey(admin), 403, 'FORBIDDEN'],
    ['a foreign Origin, with a good key', '/plugins/board/feed', { ...withKey(route), origin: 'http://evil.example' }, 403, 'HOST_NOT_ALLOWED'],
    ['a path no plugin serves', '/plugins/board/nothing', withKey(route), 404, 'NOT_FOUND'],
    ['a path that is not a socket', '/nowhere', withKey(route), 404, 'NOT_FOUND'],
  ];
  for (const [label, path, headers, status, code] of refusals) {
    it(`refuses the upgrade with ${status} ${code} for ${label}`, async () => {
      const result = await openSocket(url(path), headers);
      assert.ok('status' in result, 'the upgrade was accepted');
      assert.equal(result.status, status);
      assert.equal(result.body.error.code, code);
    });
  }

  it('lets a key of the scope the socket names open it', async () => {
    opened(await openSocket(url('/plugins/board/flood'), withKey(admin)));
  });

  it('answers a plain GET on a socket path with 426 UPGRADE_REQUIRED', async () => {
    const res = await httpRequest(port, { method: 'GET', url: '/plugins/board/feed', headers: withKey(route) });
    assert.equal(res.statusCode, 426);
    assert.equal(res.json().error.code, 'UPGRADE_REQUIRED');
  });

  it('still serves /events beside the plugin sockets', async () => {
    opened(await openSocket(url('/events'), withKey(tools)));
  });

  it('closes with 1009 a client that sends a message over the cap', async () => {
    const { ws, closed } = opened(await openSocket(url('/plugins/board/feed'), withKey(route)));
    ws.send('x'.repeat(2048));
    assert.equal((await closed).code, 1009);
  });

  it('closes with 1011 when the plugin handler throws, and the gateway goes on', async () => {
    const { ws, closed } = opened(await openSocket(url('/plugins/board/feed'), withKey(route)));
    ws.send('boom');
    assert.equal((await closed).code, 1011);
    opened(await openSocket(url('/plugins/board/feed'), withKey(route)));
  });

  it('drops a client that stops reading once its queue passes maxQueuedBytes', async () => {
    const { ws, closed } = opened(await openSocket(url('/plugins/board/flood'), withKey(admin)));
    const raw = (ws as unknown as { _socket: import('node:net').Socket })._socket;
    ws.send('go');
    raw.pause();
    const last = async () => (await httpRequest(port, { method: 'GET', url: '/plugins/board/flood/last', headers: withKey(route) })).json().data;
    const outcome = await until(last, (value) => value !== null);
    assert.equal(outcome.dropped, true, 'send() refused once the queue was over the cap');
    raw.resume();
    const { code } = await closed;
    // 4008 when the close frame gets through, 1006 when the gateway had to cut the connection.
    assert.ok(code === 4008 || code === 1006, String(code));
    await until(last, (value) => value.closedSignal === true);
  });
});

describe('plugin WebSocket limits and shutdown', async () => {
  const gateway = await startGateway({
    registries: [FIXTURE_REGISTRY, BOARD_REGISTRY],
    plugins: { board: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { pluginSockets: { maxClients: 1 } } },
  });
  const app = await createHttpApp(gateway);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/plugins/board/feed`;

  it('refuses a client past pluginSockets.maxClients with 503 CONNECTION_LIMIT, and closes clients with 1001 at shutdown', async () => {
    const first = await openSocket(url);
    assert.ok('ws' in first);
    const second = await openSocket(url);
    assert.ok('status' in second);
    assert.equal(second.status, 503);
    assert.equal(second.body.error.code, 'CONNECTION_LIMIT');
    await app.close();
    assert.equal((await first.closed).code, 1001);
  });
});
