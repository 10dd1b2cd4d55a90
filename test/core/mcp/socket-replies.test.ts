import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import type { SocketAddress } from '../../../core/contract/addresses.js';
import { socketClient, startGateway, tempDir } from '../../helpers.js';
import { RawConnection } from './socket-clients.js';

const MiB = 1024 * 1024;
const call = (id: number | string, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** The echo fixture's text back from a raw tools/call reply. */
const echoed = (reply: any): string => JSON.parse(reply.result.content[0].text).text;

describe('replies over TCP and the unix socket', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'files'));
  // 24 MiB of text: file_read's reply carries it twice (text content and structuredContent),
  // so the reply is over the default 40 MiB reply cap.
  writeFileSync(join(dir, 'files', 'big.txt'), '0123456789abcde\n'.repeat((24 * MiB) / 16));
  writeFileSync(join(dir, 'files', 'mid.txt'), '0123456789abcde\n'.repeat((6 * MiB) / 16));
  const gateway = await startGateway({ plugins: { echo: {}, files: { config: { roots: ['files'], maxReadBytes: 64 * MiB } } } }, dir);
  const open = async (address: SocketAddress, limits: Record<string, number> = {}) => {
    const base = address.kind === 'tcp' ? gateway.config.transports.tcp : gateway.config.transports.unix;
    const listener = await listenSocket(gateway, address, { ...base, ...limits });
    after(() => listener.close());
    return listener.address;
  };
  const addresses = (name: string): SocketAddress[] => [
    { kind: 'tcp', host: '127.0.0.1', port: 0 },
    { kind: 'unix', path: join(dir, `${name}.sock`) },
  ];

  for (const [i, address] of addresses('default').entries()) {
    it(`${address.kind}, default caps: a reply over maxReplyBytes (40 MiB) is answered REPLY_TOO_LARGE for its id, and the session goes on`, async () => {
      const raw = await RawConnection.open(await open(address));
      after(() => raw.socket.destroy());
      await raw.initialize();
      raw.send(call(`big-${i}`, 'file_read', { path: 'big.txt' }));
      const reply = await raw.next(60_000);
      assert.equal(reply.id, `big-${i}`);
      assert.equal(reply.error.data.code, 'REPLY_TOO_LARGE');
      assert.match(reply.error.message, /maxReplyBytes/);
      raw.send(call('after', 'file_read', { path: 'big.txt', head: 2 }));
      const next = await raw.next();
      assert.equal(next.id, 'after');
      assert.equal(next.result.structuredContent.content, '0123456789abcde\n0123456789abcde');
    });
  }

  for (const address of addresses('mid')) {
    it(`${address.kind}: a 12 MiB reply, over what the socket takes at once and over 4 × maxMessageBytes, is delivered whole`, async () => {
      // The send path used to drop the connection once the bytes waiting to go out passed
      // 4 × maxMessageBytes, which one large reply does by itself.
      const raw = await RawConnection.open(await open(address, { maxMessageBytes: 1024, maxReplyBytes: 16 * MiB }));
      after(() => raw.socket.destroy());
      await raw.initialize();
      raw.send(call('mid', 'file_read', { path: 'mid.txt' }));
      const reply = await raw.next(60_000);
      assert.equal(reply.id, 'mid');
      assert.equal(reply.result.structuredContent.content.length, 6 * MiB);
    });
  }

  for (const address of addresses('small')) {
    it(`${address.kind}: with a small maxReplyBytes, a reply within it is delivered and one over it refused, on one session`, async () => {
      const raw = await RawConnection.open(await open(address, { maxReplyBytes: 16 * 1024 }));
      after(() => raw.socket.destroy());
      await raw.initialize();
      const text = 'x'.repeat(900);
      raw.send(call(1, 'echo', { text, times: 3 }));
      assert.equal(echoed(await raw.next()), text.repeat(3));

      raw.send(call(2, 'echo', { text, times: 10 }));
      const refused = await raw.next();
      assert.deepEqual([refused.id, refused.error.code, refused.error.data.code], [2, -32000, 'REPLY_TOO_LARGE']);
      assert.match(refused.error.message, /16 KiB/);
      raw.send(call(3, 'echo', { text: 'still here' }));
      assert.equal(echoed(await raw.next()), 'still here');
    });
  }

  it('the SDK client gets the error as a failed request, and its next call works', async () => {
    const { client } = await socketClient(await open({ kind: 'tcp', host: '127.0.0.1', port: 0 }, { maxReplyBytes: 16 * 1024 }));
    after(() => client.close());
    await assert.rejects(client.callTool({ name: 'echo', arguments: { text: 'y'.repeat(2000), times: 10 } }), (err: any) => {
      assert.deepEqual([err.code, err.data?.code], [-32000, 'REPLY_TOO_LARGE']);
      assert.match(err.message, /over this transport's 16 KiB cap \(maxReplyBytes\)/);
      return true;
    });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'small' } });
    assert.equal((result.structuredContent as { text: string }).text, 'small');
  });
});
