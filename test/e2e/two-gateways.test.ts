import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import { spawnGateway, tempDir, testConfigObject, writeConfig } from '../helpers.js';
import { postgresSkipReason, startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { TALLY_REGISTRY } from '../core/storage/store-cases/gateway.js';

/** POSTs the tool call and returns the `data` of the success envelope. */
async function call(base: string, tool: string, args: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${base}/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
  const body = (await res.json()) as { data?: unknown };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data;
}

/** Opens /events, subscribes to `pattern`, and collects what arrives. */
async function subscribe(base: string, pattern: string): Promise<{ ws: WebSocket; events: any[]; next(): Promise<any> }> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/events`);
  after(() => ws.terminate());
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const events: any[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (raw) => {
    events.push(JSON.parse(raw.toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  let read = 0;
  const next = async () => {
    while (events.length <= read) await new Promise<void>((resolve) => waiters.push(resolve));
    return events[read++];
  };
  ws.send(JSON.stringify({ type: 'subscribe', channels: [pattern] }));
  assert.deepEqual(await next(), { type: 'subscribed', channels: [pattern] });
  return { ws, events, next };
}

/**
 * Two `mcp-gateway serve` processes (the built binary) on their own ports and dataDirs, one
 * PostgreSQL database between them: what one writes the other reads, what a plugin publishes
 * on one reaches the other's /events clients, and concurrent writers on both lose no update.
 */
describe('two gateways, one PostgreSQL', { skip: postgresSkipReason }, async () => {
  // In the suite's body, not a before hook: after() registered in a hook runs when the hook ends.
  const server: TestPostgres = await startTestPostgres();
  after(() => server.stop());
  const url = await server.createDatabase();
  const dir = tempDir();
  const bases: string[] = [];
  for (const name of ['a', 'b']) {
    const config = writeConfig(
      dir,
      testConfigObject(dir, {
        dataDir: join(dir, `data-${name}`),
        logLevel: 'info',
        storage: { shared: { postgres: { url: '${DATABASE_URL}' } } },
        registries: [TALLY_REGISTRY],
        plugins: { tally: {} },
      }),
      `${name}.yaml`,
    );
    const gateway = spawnGateway(['serve', '--config', config, '--http', '127.0.0.1:0'], { env: { DATABASE_URL: url } });
    after(() => gateway.stop());
    const [address] = await gateway.listening(1);
    const { host, port } = address as { host: string; port: number };
    bases.push(`http://${host}:${port}`);
  }

  it('a row written through one is read through the other', async () => {
    const [a, b] = bases as [string, string];
    assert.deepEqual(await call(a, 'tally_add', { name: 'written-on-a', by: 7 }), { name: 'written-on-a', value: 7 });
    assert.deepEqual(await call(b, 'tally_get', { name: 'written-on-a' }), { name: 'written-on-a', value: 7 });
    assert.deepEqual(await call(b, 'tally_add', { name: 'written-on-a', by: 1 }), { name: 'written-on-a', value: 8 });
    assert.deepEqual(await call(a, 'tally_get', { name: 'written-on-a' }), { name: 'written-on-a', value: 8 });
  });

  it("an event a plugin publishes on one reaches the other's /events subscriber, once", async () => {
    const [a, b] = bases as [string, string];
    const onB = await subscribe(b, 'tally.*');
    await call(a, 'tally_add', { name: 'evented', by: 3 });
    const event = await onB.next();
    assert.equal(event.type, 'event');
    assert.equal(event.channel, 'tally.added');
    assert.equal(event.source, 'tally');
    assert.deepEqual(event.data, { name: 'evented', value: 3, by: 3 });
    assert.ok(!Number.isNaN(Date.parse(event.time)));
    // B's own event after A's: had A's arrived twice, the second copy would come first.
    await call(b, 'tally_add', { name: 'evented', by: 1 });
    assert.deepEqual((await onB.next()).data, { name: 'evented', value: 4, by: 1 });
  });

  it('2 × 8 concurrent writers on one key lose no update', async () => {
    const [a, b] = bases as [string, string];
    const writers = Array.from({ length: 16 }, (_, i) => call(i % 2 === 0 ? a : b, 'tally_add', { name: 'contended', by: 1 }));
    const values = (await Promise.all(writers)).map((r: { value: number }) => r.value).sort((x, y) => x - y);
    // Each writer saw a different value: every read-modify-write ran on the previous one's result.
    assert.deepEqual(values, Array.from({ length: 16 }, (_, i) => i + 1));
    assert.deepEqual(await call(a, 'tally_get', { name: 'contended' }), { name: 'contended', value: 16 });
    assert.deepEqual(await call(b, 'tally_get', { name: 'contended' }), { name: 'contended', value: 16 });
  });
});
