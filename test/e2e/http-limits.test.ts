import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { listenHttp } from '../../core/http/http-server.js';
import { httpRequest, startGateway, waitFor } from '../helpers.js';

async function serve(http: Record<string, unknown>) {
  const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0, ...http } } });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  return { gateway, port: listener.address.port };
}

/** A raw connection that sends nothing; resolves once connected. Collects what it receives. */
async function idleConnection(port: number, localAddress?: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  socket.on('error', () => {});
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  after(() => socket.destroy());
  return { socket, received: () => text, closed };
}

/**
 * One kept-alive connection, from `localAddress` (any of 127.0.0.0/8: Linux routes them all to
 * lo), that makes requests one after another.
 */
function keptConnection(port: number, localAddress = '127.0.0.1') {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let socket: Socket | undefined;
  after(() => agent.destroy());
  return {
    get: (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, localAddress, agent, headers }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode!));
        });
        req.on('socket', (s: Socket) => (socket = s)).on('error', reject).end();
      }),
    close: () => agent.destroy(),
    /** Settles once the connection its requests went over is closed. */
    closed: () => new Promise<void>((resolve) => (socket!.destroyed ? resolve() : socket!.once('close', () => resolve()))),
    get open() {
      return socket !== undefined && !socket.destroyed;
    },
  };
}

async function refusedWith(connection: Awaited<ReturnType<typeof idleConnection>>, message: RegExp): Promise<void> {
  await connection.closed;
  assert.match(connection.received(), /^HTTP\/1\.1 503 /);
  assert.equal(JSON.parse(connection.received().split('\r\n\r\n')[1]!).error.code, 'CONNECTION_LIMIT');
  assert.match(connection.received(), message);
}

describe('HTTP connection limits', () => {
  it('refuses a connection past the per-address cap with 503 CONNECTION_LIMIT, and takes one again once another closes', async () => {
    const { port } = await serve({ maxConnectionsPerAddress: 3 });
    const held = [1, 2, 3].map(() => keptConnection(port));
    for (const connection of held) assert.equal(await connection.get('/tools'), 200);
    await refusedWith(await idleConnection(port), /at most 3 per client address/);
    held[0]!.close();
    await held[0]!.closed();
    // The server hears of the close a moment after the client: a few tries, never a wait.
    const statuses: number[] = [];
    while (statuses.at(-1) !== 200 && statuses.length < 50) statuses.push(await keptConnection(port).get('/health'));
    assert.equal(statuses.at(-1), 200);
  });

  it('counts every loopback address (127.0.0.2, 127.0.0.3, …) as one client', async () => {
    const { port } = await serve({ maxConnectionsPerAddress: 3 });
    const held = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((from) => keptConnection(port, from));
    for (const connection of held) assert.equal(await connection.get('/tools'), 200);
    await refusedWith(await idleConnection(port, '127.0.0.5'), /at most 3 per client address \(all loopback addresses count as one\)/);
    await refusedWith(await idleConnection(port, '127.0.0.1'), /at most 3 per client address/);
  });

  it('refuses a connection past the total cap', async () => {
    const { port } = await serve({ maxConnections: 2 });
    for (const connection of [keptConnection(port), keptConnection(port)]) assert.equal(await connection.get('/tools'), 200);
    await refusedWith(await idleConnection(port), /at most 2 in all/);
  });

  it('a connection that has made no request gives its slot to a new one, oldest first', async () => {
    const { port } = await serve({ maxConnectionsPerAddress: 3 });
    const idle = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((from) => idleConnection(port, from)));
    const newcomer = keptConnection(port, '127.0.0.5');
    assert.equal(await newcomer.get('/health'), 200);
    await idle[0]!.closed;
    assert.equal(idle[0]!.received(), '');
    assert.equal(idle[1]!.socket.destroyed, false);
  });

  it('with keys: connections without a valid key give their slots to a keyed caller; a keyed connection keeps its own', async () => {
    const gateway = await startGateway({ auth: 'key', transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0, maxConnectionsPerAddress: 3 } } });
    const listener = await listenHttp(gateway);
    after(() => listener.close());
    const port = listener.address.port;
    const bearer = { authorization: `Bearer ${gateway.ownerKey!.key}` };
    const keyed = keptConnection(port, '127.0.0.2');
    assert.equal(await keyed.get('/tools', bearer), 200);
    // Keyless: a refused request, and a public route that needs no key.
    const keyless = [keptConnection(port, '127.0.0.3'), keptConnection(port, '127.0.0.4')];
    assert.equal(await keyless[0]!.get('/tools'), 401);
    assert.equal(await keyless[1]!.get('/health'), 200);

    const owner = keptConnection(port, '127.0.0.5');
    assert.equal(await owner.get('/tools', bearer), 200);
    await keyless[0]!.closed();
    assert.equal(keyless[1]!.open, true);
    const second = keptConnection(port, '127.0.0.6');
    assert.equal(await second.get('/tools', bearer), 200);
    await keyless[1]!.closed();

    // Every slot is a keyed connection's: the next is refused, and theirs go on.
    await refusedWith(await idleConnection(port, '127.0.0.7'), /at most 3 per client address/);
    for (const connection of [keyed, owner, second]) assert.equal(await connection.get('/tools', bearer), 200);
  });

  it('closes a connection that does not finish its headers within headersTimeoutMs (slow loris)', async () => {
    const { port } = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const slow = await idleConnection(port);
    slow.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await slow.closed;
    assert.match(slow.received(), /^HTTP\/1\.1 408 /);
  });
});

describe('HTTP rate limit without keys', () => {
  it('counts the requests of every loopback address in one window', async () => {
    const { port } = await serve({ rateLimit: { max: 2, timeWindowMs: 60_000 } });
    assert.equal(await keptConnection(port, '127.0.0.2').get('/tools'), 200);
    assert.equal(await keptConnection(port, '127.0.0.3').get('/tools'), 200);
    assert.equal(await keptConnection(port, '127.0.0.4').get('/tools'), 429);
  });
});

describe('/mcp session limits', () => {
  const connectClient = async (port: number) => {
    const client = new Client({ name: 'limits', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    after(() => client.close());
    return client;
  };

  it('holds one client address (one API key with keys) to maxMcpSessionsPerKey: a new session closes its least recently used one', async () => {
    const { gateway, port } = await serve({ maxMcpSessionsPerKey: 2 });
    const first = await connectClient(port);
    const second = await connectClient(port);
    await second.listTools();
    const third = await connectClient(port);
    assert.equal(gateway.sessions.countByTransport().http, 2);
    await assert.rejects(first.listTools(), /Session .* is unknown or expired/);
    assert.ok((await second.listTools()).tools.length > 0);
    assert.ok((await third.listTools()).tools.length > 0);
  });

  it('expires an idle session even while it holds a GET stream open', async () => {
    const { gateway, port } = await serve({ mcpSessionIdleMs: 1000 });
    const client = await connectClient(port);
    await client.listTools();
    // The SDK client opens its GET stream after initialize; the session is idle from here on.
    await waitFor(() => (gateway.sessions.countByTransport().http ?? 0) === 0, 10_000);
    await assert.rejects(client.listTools(), /Session .* is unknown or expired/);
  });
});
