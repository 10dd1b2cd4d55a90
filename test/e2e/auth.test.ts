import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import WebSocket from 'ws';
import { createApiKey } from '../../core/auth/api-keys.js';
import { listenHttp } from '../../core/http/http-server.js';
import { listenSocket } from '../../core/mcp/socket-server.js';
import type { SocketAddress } from '../../core/contract/addresses.js';
import { httpRequest, resultJson, socketClient, spawnGateway, startGateway, tempDir, testConfigObject, waitFor, writeConfig } from '../helpers.js';

/** A gateway with the default `auth: key`, HTTP, TCP and a unix socket on loopback. */
async function serveWithKeys(extra: Record<string, unknown> = {}, dir = tempDir()) {
  const gateway = await startGateway({ auth: 'key', ...extra }, dir);
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  const limits = gateway.config.transports.tcp;
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, limits);
  const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, limits);
  after(() => Promise.all([http.close(), tcp.close(), unix.close()]));
  return { gateway, dir, port: http.address.port, tcp: tcp.address, unix: unix.address };
}

/** The SDK client over a socket, closed when the test ends; with `key`, sent in initialize as params._meta.apiKey. */
async function clientOver(address: SocketAddress, key?: string): Promise<Client> {
  const { client } = await socketClient(address, 'auth-test', key);
  after(() => client.close());
  return client;
}

/** Raw lines over TCP: what a client that is not the SDK sees. */
async function rawExchange(address: SocketAddress, line: string): Promise<any> {
  const socket = address.kind === 'tcp' ? connect(address.port, address.host) : connect(address.path);
  socket.on('error', () => {});
  socket.write(`${line}\n`);
  let text = '';
  for await (const chunk of socket) text += chunk;
  return JSON.parse(text.split('\n')[0]!);
}

const post = (port: number, headers: Record<string, string> = {}) =>
  httpRequest(port, { method: 'POST', url: '/tools/gateway_status', headers: { 'content-type': 'application/json', ...headers }, payload: '{}' });

describe('auth: key (the default)', async () => {
  const narrow = createApiKey();
  const { gateway, port, tcp, unix } = await serveWithKeys({ apiKeys: [{ name: 'narrow', hash: narrow.hash, scopes: ['echo'] }] });
  const owner = gateway.ownerKey!.key;
  const bearer = { authorization: `Bearer ${owner}` };

  it('creates an owner key at first start, 0600 in a 0700 data folder, and keeps it across restarts', async () => {
    assert.ok(gateway.ownerKey!.created);
    assert.match(owner, /^mgw_/);
    assert.equal(readFileSync(gateway.ownerKey!.file, 'utf8').trim(), owner);
    assert.equal(statSync(gateway.ownerKey!.file).mode & 0o777, 0o600);
    assert.equal(statSync(gateway.config.dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(gateway.config.dataDir, 'gateway.db')).mode & 0o777, 0o600);
    const again = await startGateway({ auth: 'key', dataDir: gateway.config.dataDir }, tempDir());
    assert.equal(again.ownerKey!.key, owner);
    assert.equal(again.ownerKey!.created, false);
  });

  it('REST: no key is 401 UNAUTHORIZED naming where the key is; the owner key or X-API-Key passes', async () => {
    const refused = await post(port);
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error.code, 'UNAUTHORIZED');
    assert.match(refused.json().error.message, /owner\.key/);
    assert.equal((await post(port, bearer)).statusCode, 200);
    assert.equal((await post(port, { 'x-api-key': owner })).statusCode, 200);
    assert.equal((await post(port, { authorization: 'Bearer mgw_wrong' })).statusCode, 401);
  });

  it('/mcp: refused without a key; the SDK client with the header lists the tools', async () => {
    const refused = await httpRequest(port, {
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
    });
    assert.equal(refused.statusCode, 401);
    const client = new Client({ name: 'auth-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: bearer } }));
    after(() => client.close());
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'gateway_status'));
  });

  it('/events: the upgrade is refused without a key and accepted with one', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/events`);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode!));
      ws.once('open', () => resolve(101));
      ws.on('error', () => {});
    });
    assert.equal(status, 401);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/events`, { headers: bearer });
    after(() => ws.terminate());
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  });

  it('TCP: the key comes in initialize as params._meta.apiKey and scopes the session', async () => {
    const client = await clientOver(tcp, owner);
    assert.equal(resultJson(await client.callTool({ name: 'gateway_status', arguments: {} })).sessions.tcp, 1);
    const scoped = await clientOver(tcp, narrow.key);
    assert.deepEqual((await scoped.listTools()).tools.map((t) => t.name), ['echo']);
  });

  const tcpRefusals: Array<[string, string, RegExp]> = [
    ['initialize without a key', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }), /params\._meta\.apiKey/],
    ['an unknown key', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: { apiKey: 'mgw_nope' }, protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }), /not known/],
    ['a tools/call before initialize', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'gateway_status', arguments: {} } }), /first request, initialize/],
  ];
  for (const [label, line, message] of tcpRefusals) {
    it(`TCP: ${label} is answered UNAUTHORIZED and the connection closed`, async () => {
      const reply = await rawExchange(tcp, line);
      assert.equal(reply.error.data.code, 'UNAUTHORIZED');
      assert.match(reply.error.message, message);
    });
  }

  it('TCP: a refused client that keeps its half of the connection open does not keep its slot', async () => {
    const limited = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, { ...gateway.config.transports.tcp, maxConnections: 2 });
    after(() => limited.close());
    const address = limited.address as Extract<SocketAddress, { kind: 'tcp' }>;
    const holders = [1, 2].map(() => {
      const socket = connect({ port: address.port, host: address.host, allowHalfOpen: true });
      socket.on('error', () => {});
      socket.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      after(() => socket.destroy());
      return new Promise<void>((resolve) => socket.once('data', () => resolve()));
    });
    await Promise.all(holders);
    await waitFor(() => limited.connections === 0);
    const client = await clientOver(address, owner);
    assert.ok((await client.listTools()).tools.length > 0);
  });

  it('TCP: the SDK client without a key cannot connect', async () => {
    await assert.rejects(clientOver(tcp));
  });

  it('the unix socket (0600, owner only) needs no key', async () => {
    assert.equal(statSync(unix.kind === 'unix' ? unix.path : '').mode & 0o777, 0o600);
    const client = await clientOver(unix);
    assert.ok((await client.listTools()).tools.length > 0);
  });

  it('explorer: /docs?key= trades the key for a same-origin cookie and sends the browser on to /docs', async () => {
    const login = await httpRequest(port, { method: 'GET', url: `/docs?key=${encodeURIComponent(owner)}` });
    assert.equal(login.statusCode, 303);
    assert.equal(login.headers.location, '/docs');
    const cookie = String(login.headers['set-cookie']);
    assert.match(cookie, /^mgw_key=mgw_[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    const jar = cookie.split(';')[0]!;
    assert.equal((await post(port, { cookie: jar, 'sec-fetch-site': 'same-origin' })).statusCode, 200);
    // Another page on a loopback port gets 127.0.0.1's cookies too, but not this header.
    assert.equal((await post(port, { cookie: jar, 'sec-fetch-site': 'same-site' })).statusCode, 401);
    assert.equal((await post(port, { cookie: jar })).statusCode, 401);
    const wrong = await httpRequest(port, { method: 'GET', url: '/docs?key=mgw_wrong' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error.code, 'UNAUTHORIZED');
    assert.ok(wrong.headers['x-ratelimit-remaining'] !== undefined, 'key guesses count against the rate limit');
    // The exchange passes the DNS-rebinding check first, like every route.
    const rebound = await httpRequest(port, { method: 'GET', url: `/docs?key=${encodeURIComponent(owner)}`, headers: { host: 'evil.example' } });
    assert.equal(rebound.statusCode, 403);
    assert.equal(rebound.headers['set-cookie'], undefined);
  });

  it('audits calls under the key name', async () => {
    await post(port, bearer);
    gateway.audit!.flush();
    const row = gateway.db.prepare("SELECT caller FROM core_audit WHERE transport = 'rest' ORDER BY id DESC LIMIT 1").get() as { caller: string };
    assert.equal(row.caller, 'owner');
  });
});

describe('auth at start-up (the binary)', () => {
  it('prints the owner key with ready-to-paste lines at the first start only', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, testConfigObject(dir, { auth: 'key', logLevel: 'info', transports: { unix: { enabled: false }, tcp: { port: 0 }, http: { port: 0 } } }));
    const first = spawnGateway(['serve', '--config', config]);
    await first.listening(2);
    await waitFor(() => first.stderrLines.some((l) => l.includes('explorer:')));
    const key = readFileSync(join(dir, 'data', 'owner.key'), 'utf8').trim();
    const printed = first.stderrLines.join('\n');
    assert.match(printed, new RegExp(`curl -X POST http://127\\.0\\.0\\.1:\\d+/tools/gateway_status -H 'Authorization: Bearer ${key}'`));
    assert.match(printed, new RegExp(`claude mcp add --transport http gateway http://127\\.0\\.0\\.1:\\d+/mcp --header 'Authorization: Bearer ${key}'`));
    assert.match(printed, new RegExp(`explorer: http://127\\.0\\.0\\.1:\\d+/docs\\?key=${key}`));
    assert.equal(await first.stop(), 0);
    const second = spawnGateway(['serve', '--config', config]);
    await second.listening(2);
    await waitFor(() => second.stderrLines.some((l) => /keys owner/.test(l)));
    assert.ok(!second.stderrLines.join('\n').includes(key), 'the key is printed only when it is created');
    assert.equal(await second.stop(), 0);
  });

  it('warns at every start with auth: none', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, testConfigObject(dir, { logLevel: 'info', transports: { unix: { enabled: false }, tcp: { port: 0 }, http: { enabled: false } } }));
    const gateway = spawnGateway(['serve', '--config', config]);
    await gateway.listening(1);
    await waitFor(() => gateway.stderrLines.some((l) => /"level":40.*auth: none/.test(l)));
    assert.equal(await gateway.stop(), 0);
  });
});
