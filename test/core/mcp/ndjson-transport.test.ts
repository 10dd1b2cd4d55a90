import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { NdjsonTransport } from '../../../core/mcp/ndjson-transport.js';
import { waitFor } from '../../helpers.js';

/** Both ends of a real TCP connection on 127.0.0.1. */
async function socketPair(): Promise<{ ours: Socket; peer: Socket }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const peer = connect(port, '127.0.0.1');
  const [ours] = (await once(server, 'connection')) as [Socket];
  server.close();
  peer.on('error', () => {});
  after(() => {
    ours.destroy();
    peer.destroy();
  });
  return { ours, peer };
}

/** A started transport with a 4 KiB maxReplyBytes on one end of a socket pair, and what the other end has received. */
async function cappedTransport(): Promise<{ transport: NdjsonTransport; received: () => string }> {
  const { ours, peer } = await socketPair();
  const transport = new NdjsonTransport(ours, ours, { maxMessageBytes: 1024, maxReplyBytes: 4096 });
  await transport.start();
  let received = '';
  peer.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  return { transport, received: () => received };
}

const note = (bytes: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(bytes) } });

describe('NdjsonTransport sends', () => {
  it('a request or notification over maxReplyBytes is not sent: its send fails with REPLY_TOO_LARGE, and the next one goes out', async () => {
    const { transport, received } = await cappedTransport();
    await assert.rejects(transport.send(note(5000)), { code: 'REPLY_TOO_LARGE', message: /4 KiB cap/ });
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: { text: 'y'.repeat(5000) } };
    await assert.rejects(transport.send(request), { code: 'REPLY_TOO_LARGE' });
    await transport.send(note(10));
    await waitFor(() => received().includes('\n'));
    assert.deepEqual(received().trimEnd().split('\n').map((line) => JSON.parse(line).params.data), ['x'.repeat(10)]);
  });

  it('a response over maxReplyBytes becomes a REPLY_TOO_LARGE error for its id', async () => {
    const { transport, received } = await cappedTransport();
    await transport.send({ jsonrpc: '2.0', id: 'r1', result: { text: 'é'.repeat(2100) } });
    await waitFor(() => received().includes('\n'));
    const reply = JSON.parse(received());
    assert.deepEqual([reply.id, reply.error.code, reply.error.data.code], ['r1', -32000, 'REPLY_TOO_LARGE']);
  });

  it('disconnects a peer that leaves more than maxReplyBytes unread, having queued at most one message more', async () => {
    const { ours, peer } = await socketPair();
    peer.pause();
    const cap = 64 * 1024;
    const transport = new NdjsonTransport(ours, ours, { maxMessageBytes: 1024, maxReplyBytes: cap });
    await transport.start();
    let closed = false;
    transport.onclose = () => (closed = true);
    // The kernel takes a few MiB first; a bounded loop all the same.
    for (let sent = 0; sent < 20_000 && !ours.destroyed; sent++) {
      transport.send(note(16 * 1024)).catch(() => {});
      assert.ok(ours.writableLength <= cap + 17 * 1024, `${ours.writableLength} bytes queued`);
    }
    assert.equal(ours.destroyed, true);
    await waitFor(() => closed);
  });
});
