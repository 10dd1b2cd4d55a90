import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { ConnectionSlots } from '../../../core/lib/connection-slots.js';

/** Real accepted sockets on 127.0.0.1, as a listener's 'connection' event gives them. */
async function acceptedSockets(count: number): Promise<Socket[]> {
  const server = createServer();
  const accepted: Socket[] = [];
  server.on('connection', (socket) => accepted.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const clients = Array.from({ length: count }, () => connect(port, '127.0.0.1').on('error', () => {}));
  while (accepted.length < count) await once(server, 'connection');
  after(() => {
    for (const socket of [...accepted, ...clients]) socket.destroy();
    server.close();
  });
  return accepted;
}

describe('ConnectionSlots', () => {
  it('a full group displaces its own oldest waiting connection, never another group\'s, nor an authenticated one', async () => {
    const [a1, a2, b1, a3, a4] = await acceptedSockets(5);
    const slots = new ConnectionSlots({ total: 10, perGroup: 2 });
    assert.deepEqual(slots.take(a1!, 'a'), { ok: true, displaced: undefined });
    assert.equal(slots.take(b1!, 'b').ok, true);
    assert.equal(slots.take(a2!, 'a').ok, true);
    slots.authenticated(a2!);
    // Group a is full: a1 (waiting) gives way; b1, waiting too, is another client's.
    assert.deepEqual(slots.take(a3!, 'a'), { ok: true, displaced: a1 });
    slots.authenticated(a3!);
    assert.deepEqual(slots.take(a4!, 'a'), { ok: false, full: 'group' });
  });

  it('a full total displaces the oldest waiting connection of any group, and refuses once all are authenticated', async () => {
    const [a1, b1, c1, d1] = await acceptedSockets(4);
    const slots = new ConnectionSlots({ total: 2 });
    slots.take(a1!, 'a');
    slots.take(b1!, 'b');
    slots.authenticated(a1!);
    assert.deepEqual(slots.take(c1!, 'c'), { ok: true, displaced: b1 });
    slots.authenticated(c1!);
    assert.deepEqual(slots.take(d1!, 'd'), { ok: false, full: 'total' });
  });

  it('a closed connection frees its slot, once, and one marked waiting again may be displaced', async () => {
    const [a1, a2, a3, a4] = await acceptedSockets(4);
    const slots = new ConnectionSlots({ total: 2 });
    slots.take(a1!);
    slots.take(a2!);
    slots.authenticated(a1!);
    slots.authenticated(a2!);
    a1!.destroy();
    await once(a1!, 'close');
    slots.release(a1!);
    assert.deepEqual(slots.take(a3!), { ok: true, displaced: undefined });
    slots.authenticated(a3!);
    slots.waiting(a2!);
    assert.deepEqual(slots.take(a4!), { ok: true, displaced: a2 });
  });
});
