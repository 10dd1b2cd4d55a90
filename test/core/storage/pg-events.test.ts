import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Gateway } from '../../../core/gateway/gateway.js';
import type { GatewayEvent } from '../../../core/lib/events.js';
import { EVENTS_NOTIFY_CHANNEL, INLINE_PAYLOAD_BYTES } from '../../../core/storage/pg-events.js';
import { memoryClient } from '../../helpers.js';
import { storeBackends, type FreshStore } from '../../support/store-backends.js';
import { bootTally } from './store-cases/gateway.js';

const [sqlite, postgres] = storeBackends();

/** What a gateway's subscribers received on `tally.**` and `test.**`, in order. */
function received(gateway: Gateway): GatewayEvent[] {
  const events: GatewayEvent[] = [];
  gateway.events.subscribe('tally.**', (event) => events.push(event));
  gateway.events.subscribe('test.**', (event) => events.push(event));
  return events;
}

/** Polls `probe` until true; fails the test after 20 s (a bound on a hang, not a timing check). */
async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    if (await probe()) return;
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * Publishes a marker on `from` and waits until `to` has it. Events from one gateway arrive in
 * publish order, so everything published before the marker has arrived too: counts taken
 * after this are final, with no sleep.
 */
async function settle(from: Gateway, to: GatewayEvent[], marker: string): Promise<void> {
  from.events.publish('test', 'test.marker', { marker });
  await until(() => to.some((e) => e.channel === 'test.marker' && (e.data as { marker: string }).marker === marker), `marker ${marker}`);
}

const withoutMarkers = (events: GatewayEvent[]) => events.filter((e) => e.channel !== 'test.marker');

describe('events across gateways on PostgreSQL', { skip: postgres!.skip }, () => {
  before(() => postgres!.start());
  after(() => postgres!.stop());

  /** Two gateways, each with its own dataDir, on one fresh database. */
  async function twoGateways(t: { after(fn: () => unknown): void }): Promise<[Gateway, Gateway]> {
    const target = await postgres!.fresh();
    const a = await bootTally(t, target);
    const b = await bootTally(t, { ...target, dataDir: `${target.dataDir}-b` } satisfies FreshStore);
    await Promise.all([a.sharing.eventBridge!.listening(), b.sharing.eventBridge!.listening()]);
    return [a, b];
  }

  it('delivers an event published on either gateway to the other once, in the same shape, and once locally', async (t) => {
    const [a, b] = await twoGateways(t);
    const onA = received(a);
    const onB = received(b);
    const client = await memoryClient(a);
    await client.callTool({ name: 'tally_add', arguments: { name: 'deploys', by: 2 } });
    b.events.publish('test', 'test.from-b', { n: 1 });
    await settle(a, onB, 'a-done');
    await settle(b, onA, 'b-done');
    // Each side's own event arrived synchronously, the other's a moment later: compare by channel.
    const byChannel = (events: GatewayEvent[]) => withoutMarkers(events).sort((x, y) => x.channel.localeCompare(y.channel));
    assert.deepEqual(byChannel(onB).map((e) => [e.channel, e.source, e.data]), [
      ['tally.added', 'tally', { name: 'deploys', value: 2, by: 2 }],
      ['test.from-b', 'test', { n: 1 }],
    ]);
    // The publisher's own copy: the same event object shape, delivered once, not echoed back.
    assert.deepEqual(byChannel(onA).map((e) => [e.channel, e.source, e.data]), [
      ['tally.added', 'tally', { name: 'deploys', value: 2, by: 2 }],
      ['test.from-b', 'test', { n: 1 }],
    ]);
    const local = onA.find((e) => e.channel === 'tally.added')!;
    const remote = onB.find((e) => e.channel === 'tally.added')!;
    assert.deepEqual(remote, local, 'the time is the publisher\'s, and no key is added or lost');
    assert.deepEqual(Object.keys(remote).sort(), ['channel', 'data', 'source', 'time']);
  });

  it(`sends a payload over ${INLINE_PAYLOAD_BYTES} bytes by reference, in publish order with the small ones`, async (t) => {
    const [a, b] = await twoGateways(t);
    const onB = received(b);
    const big = { text: 'x'.repeat(20_000), nested: { list: Array.from({ length: 500 }, (_, i) => i) } };
    a.events.publish('test', 'test.small', { order: 1 });
    a.events.publish('test', 'test.big', big);
    a.events.publish('test', 'test.small', { order: 3 });
    await settle(a, onB, 'big');
    assert.deepEqual(withoutMarkers(onB).map((e) => e.data), [{ order: 1 }, big, { order: 3 }]);
    const stored = await a.store.db.selectFrom('core_event_payloads').select('body').execute();
    assert.equal(stored.length, 1, 'only the big one went through the table');
    assert.ok(Buffer.byteLength(stored[0]!.body as string) > INLINE_PAYLOAD_BYTES);
  });

  it('keeps local delivery for data that is not JSON, and the bridge keeps working', async (t) => {
    const [a, b] = await twoGateways(t);
    const onA = received(a);
    const onB = received(b);
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    a.events.publish('test', 'test.circular', circular);
    a.events.publish('test', 'test.plain', { ok: true });
    await settle(a, onB, 'after-circular');
    assert.deepEqual(withoutMarkers(onA).map((e) => e.channel), ['test.circular', 'test.plain']);
    assert.deepEqual(withoutMarkers(onB).map((e) => e.channel), ['test.plain']);
  });

  it('ignores NOTIFYs on the channel that hold no event', async (t) => {
    const [a, b] = await twoGateways(t);
    const onB = received(b);
    for (const payload of ['not json', '{"origin":"someone"}', '{"origin":"x","channel":1,"source":"s","time":"t"}', '{"origin":"x","ref":999999}']) {
      await sql`select pg_notify(${EVENTS_NOTIFY_CHANNEL}, ${payload})`.execute(a.store.db);
    }
    await settle(a, onB, 'after-junk');
    assert.deepEqual(withoutMarkers(onB), []);
  });

  it('reopens the LISTEN connection after pg_terminate_backend and delivers again', async (t) => {
    const [a, b] = await twoGateways(t);
    const onB = received(b);
    const server = postgres!.postgres!;
    // Two steps: in one WHERE, PostgreSQL may call pg_terminate_backend before the filter.
    const database = new URL(String((a.config.storage.shared as { postgres: { url: string } }).postgres.url)).pathname.slice(1);
    const listeners = await server.query<{ pid: number }>("select pid from pg_stat_activity where application_name = 'mcp-gateway (events)' and datname = $1", [database]);
    assert.equal(listeners.length, 2, `both LISTEN connections were found (${listeners.length})`);
    for (const { pid } of listeners) await server.query('select pg_terminate_backend($1)', [pid]);
    await until(() => b.sharing.eventBridge!.state !== 'listening', 'B noticed its connection dropped');
    await Promise.all([a.sharing.eventBridge!.listening(), b.sharing.eventBridge!.listening()]);
    a.events.publish('test', 'test.after-reconnect', { ok: true });
    await settle(a, onB, 'reconnected');
    assert.deepEqual(withoutMarkers(onB).map((e) => e.channel), ['test.after-reconnect']);
  });

  it('closes with the gateway: the LISTEN connection ends and publishing stays local', async (t) => {
    const [a] = await twoGateways(t);
    const bridge = a.sharing.eventBridge!;
    await a.close();
    assert.equal(bridge.state, 'closed');
  });
});

describe('events on the SQLite store', () => {
  before(() => sqlite!.start());
  after(() => sqlite!.stop());

  it('stay in the process: no bridge, delivered synchronously to local subscribers', async (t) => {
    const gateway = await bootTally(t, await sqlite!.fresh());
    assert.equal(gateway.sharing.eventBridge, undefined);
    const events = received(gateway);
    gateway.events.publish('test', 'test.local', { n: 1 });
    assert.deepEqual(events.map((e) => e.data), [{ n: 1 }]);
  });
});
