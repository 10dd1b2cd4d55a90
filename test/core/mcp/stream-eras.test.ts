import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import type { SocketAddress } from '../../../core/contract/addresses.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, startGateway, tempDir, relayHookCalls, toolListChangesHeard, WITH_LIBRARY, WITH_RELAY } from '../../helpers.js';
import { RawConnection } from './socket-clients.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};

/** SDK v2's client over a socket: the SDK's stdio transport on the socket's two ends. */
async function v2Client(address: SocketAddress, versionNegotiation: ClientOptions['versionNegotiation']): Promise<Client> {
  const socket = address.kind === 'tcp' ? connect(address.port, address.host) : connect(address.path);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  const client = new Client({ name: 'v2-stream-client', version: '1.0.0' }, { versionNegotiation });
  const transport = new StdioServerTransport(socket, socket);
  const close = transport.close.bind(transport);
  transport.close = async () => {
    socket.end();
    await close();
  };
  await client.connect(transport);
  after(() => client.close());
  return client;
}

/**
 * The stream transports in both eras: the first message decides (SDK v2's `serveStdio` entry
 * over the gateway's own NDJSON framing), as on stdio.
 */
describe('TCP and the unix socket in both eras', async () => {
  const dir = tempDir();
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY], plugins: { echo: {}, conformance: {} } }, dir);
  const limits = gateway.config.transports.tcp;
  const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, limits);
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, limits);
  after(() => Promise.all([unix.close(), tcp.close()]));

  for (const address of [unix.address, tcp.address]) {
    it(`${address.kind}: a client pinned to 2026-07-28 lists and calls with no session`, async () => {
      const client = await v2Client(address, { mode: { pin: MODERN } });
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'echo'));
      const { structuredContent } = await client.callTool({ name: 'echo', arguments: { text: 'streamed' } });
      assert.equal((structuredContent as { text: string }).text, 'streamed');
      assert.deepEqual((structuredContent as { caller: unknown }).caller, { transport: address.kind, identity: 'v2-stream-client' });
      assert.equal(gateway.sessions.countByTransport()[address.kind], undefined);
    });
  }

  it('a client that discovers first gets 2026-07-28; one in legacy mode a 2025 session', async () => {
    const modern = await v2Client(unix.address, { mode: 'auto' });
    assert.equal(modern.getNegotiatedProtocolVersion(), MODERN);
    const legacy = await v2Client(unix.address, { mode: 'legacy' });
    assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
    const { structuredContent } = await legacy.callTool({ name: 'echo', arguments: { text: 'old' } });
    assert.ok((structuredContent as { caller: { sessionId?: string } }).caller.sessionId);
    assert.equal(gateway.sessions.countByTransport().unix, 1);
  });

  it('tells a subscriptions/listen stream on the connection that the tool list changed', async () => {
    assert.deepEqual(await toolListChangesHeard(await v2Client(unix.address, { mode: { pin: MODERN } })), ['tools']);
  });

  it('answers a revision it does not serve, and a 2025 initialize after the 2026 era was pinned, with -32022', async () => {
    const raw = await RawConnection.open(unix.address);
    after(() => raw.socket.destroy());
    raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2031-01-01' } } });
    const unknown = await raw.next();
    assert.equal(unknown.error.code, -32022);
    assert.deepEqual(unknown.error.data.supported, [MODERN]);
    raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    assert.ok((await raw.next()).result.tools.length > 0);
    raw.send({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '1' } } });
    assert.equal((await raw.next()).error.code, -32022);
  });

  it('refuses a request claiming 2026-07-28 on a connection that began with initialize, with -32022', async () => {
    const raw = await RawConnection.open(unix.address);
    after(() => raw.socket.destroy());
    raw.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mixed', version: '1' } } });
    assert.equal((await raw.next()).result.protocolVersion, '2025-11-25');
    raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: META } });
    const refused = await raw.next();
    assert.equal(refused.error.code, -32022);
    assert.equal(refused.error.data.requested, MODERN);
    raw.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
    assert.equal((await raw.next()).result.structuredContent.text, 'x');
  });
});

describe('TCP with keys in the 2026 era', async () => {
  const narrow = createApiKey();
  const gateway = await startGateway({ auth: 'key', apiKeys: [{ name: 'narrow', hash: narrow.hash, scopes: ['echo'] }], ...WITH_LIBRARY });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => tcp.close());

  it('takes the key from the first request, whatever its method, and holds the connection to its scopes', async () => {
    const raw = await RawConnection.open(tcp.address);
    after(() => raw.socket.destroy());
    raw.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { ...META, apiKey: narrow.key } } });
    assert.deepEqual((await raw.next()).result.supportedVersions, [MODERN]);
    raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    assert.deepEqual((await raw.next()).result.tools.map((t: { name: string }) => t.name), ['echo']);
    // A listen stream is held to the same scopes as a 2025 resources/subscribe.
    raw.send({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourceSubscriptions: ['library://readme'] } } });
    assert.equal((await raw.next()).error.data.code, 'FORBIDDEN');
  });

  it('refuses a 2026 request without a key with UNAUTHORIZED and closes', async () => {
    const raw = await RawConnection.open(tcp.address);
    raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
    const refused = await raw.next();
    assert.equal(refused.error.data.code, 'UNAUTHORIZED');
    assert.match(refused.error.message, /send it in tools\/list as params\._meta\.apiKey/);
    await raw.ended;
  });
});

describe('a 2026 listen holds the resources it names, as resources/subscribe does', async () => {
  const dir = tempDir();
  const gateway = await startGateway(WITH_RELAY, dir);
  const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, gateway.config.transports.tcp);
  after(() => unix.close());

  it("tells the entry of the listen's first hold and of its end", async () => {
    const client = await v2Client(unix.address, { mode: { pin: MODERN } });
    const subscription = await client.listen({ resourceSubscriptions: ['relay://status'] });
    assert.deepEqual(await relayHookCalls(client), ['subscribe relay://status']);
    await subscription.close();
    assert.deepEqual(await relayHookCalls(client, 2), ['subscribe relay://status', 'unsubscribe relay://status']);
  });

  it("refuses a listen the entry's onSubscribe refuses, with its code", async () => {
    const client = await v2Client(unix.address, { mode: { pin: MODERN } });
    await assert.rejects(client.listen({ resourceSubscriptions: ['relay://feeds/refused'] }), (err: any) => err.data?.code === 'RELAY_UPSTREAM_REFUSED');
  });
});
