import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { listenSocket, type SocketLimits } from '../../../core/mcp/socket-server.js';
import type { SocketAddress } from '../../../core/contract/addresses.js';
import { resultJson, socketClient, startGateway, waitFor } from '../../helpers.js';
import { RawConnection } from './socket-clients.js';

async function echoWorks(client: Client, text: string): Promise<void> {
  assert.equal(resultJson(await client.callTool({ name: 'echo', arguments: { text } })).text, text);
}

describe('TCP with keys: connections that have not authenticated', async () => {
  const gateway = await startGateway({ auth: 'key' });
  const owner = gateway.ownerKey!.key;
  const listen = async (limits: Partial<SocketLimits>) => {
    const listener = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, { ...gateway.config.transports.tcp, ...limits });
    after(() => listener.close());
    return listener;
  };
  /** The real SDK client with the owner's key, closed when the test ends. */
  const keyed = async (address: SocketAddress): Promise<Client> => {
    const { client } = await socketClient(address, 'keyed', owner);
    after(() => client.close());
    return client;
  };
  const idle = (address: SocketAddress, count: number) => Promise.all(Array.from({ length: count }, () => RawConnection.open(address)));

  it('64 idle connections, silent or with a line never finished, do not keep the owner out: its initialize and tools/call succeed', async () => {
    // A deadline long enough that it is not what frees the slots here.
    const listener = await listen({ authTimeoutMs: 600_000 });
    assert.equal(gateway.config.transports.tcp.maxConnections, 64);
    const waiting = await idle(listener.address, 64);
    waiting.forEach((raw, i) => i % 2 && raw.socket.write('{"jsonrpc":"2.0","id":1,"method":"initia'));
    await waitFor(() => listener.connections === 64);

    const client = await keyed(listener.address);
    await echoWorks(client, 'the owner got in');
    // The oldest waiting connection gave up its slot, and was told why.
    await waiting[0]!.ended;
    const [line] = waiting[0]!.received();
    assert.equal(line.error.data.code, 'CONNECTION_LIMIT');
    assert.match(line.error.message, /had not sent initialize with an API key/);
    assert.equal(waiting[1]!.closed, false);
  });

  it('authenticated sessions keep their slots: a new connection displaces only one still waiting, and is refused once all are authenticated', async () => {
    const listener = await listen({ maxConnections: 3, authTimeoutMs: 600_000 });
    const first = await keyed(listener.address);
    const second = await keyed(listener.address);
    const [waiting] = await idle(listener.address, 1);
    await waitFor(() => listener.connections === 3);
    const third = await RawConnection.open(listener.address);
    await waiting!.ended;
    assert.equal(waiting!.received()[0].error.data.code, 'CONNECTION_LIMIT');

    await third.initialize(owner);
    const refused = await RawConnection.open(listener.address);
    const line = await refused.next();
    assert.equal(line.error.data.code, 'CONNECTION_LIMIT');
    assert.match(line.error.message, /at most 3 on this transport/);
    await refused.ended;
    await echoWorks(first, 'first');
    await echoWorks(second, 'second');
    third.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'third' } } });
    assert.equal(JSON.parse((await third.next()).result.content[0].text).text, 'third');
    third.socket.destroy();
  });

  it('closes a connection that has not authenticated within authTimeoutMs, saying so', async () => {
    // Short, and only for sockets that never authenticate: nothing here has to be quick.
    const listener = await listen({ authTimeoutMs: 200 });
    const [silent, partial] = await idle(listener.address, 2);
    partial!.socket.write('{"jsonrpc":"2.0"');
    await Promise.all([silent!.ended, partial!.ended]);
    for (const raw of [silent!, partial!]) {
      const [line] = raw.received();
      assert.equal(line.error.data.code, 'UNAUTHORIZED');
      assert.match(line.error.message, /within 0\.2 s \(transports\.tcp\.authTimeoutMs\)/);
    }
    await waitFor(() => listener.connections === 0);
  });

  it('keeps an authenticated connection past its own deadline: authenticating cleared it', async () => {
    // The default deadline (5 s), ample for the SDK client to authenticate on a busy machine.
    const listener = await listen({});
    assert.equal(gateway.config.transports.tcp.authTimeoutMs, 5000);
    const client = await keyed(listener.address);
    // Opened after the client authenticated: once its deadline has closed it, the client's has passed too.
    const [silent] = await idle(listener.address, 1);
    await silent!.ended;
    assert.equal(silent!.received()[0].error.data.code, 'UNAUTHORIZED');
    await echoWorks(client, 'still connected');
    await waitFor(() => listener.connections === 1);
  });
});
