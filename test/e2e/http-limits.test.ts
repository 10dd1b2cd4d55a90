import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listenHttp } from '../../core/http/http-server.js';
import { httpRequest, startGateway, waitFor } from '../helpers.js';

async function serve(http: Record<string, unknown>) {
  const gateway = await startGateway({ transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0, ...http } } });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  return { gateway, port: listener.address.port };
}

/** A raw connection that sends nothing; resolves once connected. Collects what it receives. */
async function idleConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  after(() => socket.destroy());
  return { socket, received: () => text, closed };
}

describe('HTTP connection limits', () => {
  it('refuses a connection past the per-address cap with 503 CONNECTION_LIMIT, and takes one again once another closes', async () => {
    const { port } = await serve({ maxConnectionsPerAddress: 3 });
    const held = await Promise.all([1, 2, 3].map(() => idleConnection(port)));
    const extra = await idleConnection(port);
    await extra.closed;
    assert.match(extra.received(), /^HTTP\/1\.1 503 /);
    assert.equal(JSON.parse(extra.received().split('\r\n\r\n')[1]!).error.code, 'CONNECTION_LIMIT');
    assert.match(extra.received(), /at most 3 per client address/);
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await waitFor(() => true);
    const answer = await httpRequest(port, { method: 'GET', url: '/health' });
    assert.equal(answer.statusCode, 200);
  });

  it('refuses a connection past the total cap', async () => {
    const { port } = await serve({ maxConnections: 2 });
    await idleConnection(port);
    await idleConnection(port);
    const extra = await idleConnection(port);
    await extra.closed;
    assert.match(extra.received(), /at most 2 in all/);
  });

  it('closes a connection that does not finish its headers within headersTimeoutMs (slow loris)', async () => {
    const { port } = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const slow = await idleConnection(port);
    slow.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await slow.closed;
    assert.match(slow.received(), /^HTTP\/1\.1 408 /);
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
