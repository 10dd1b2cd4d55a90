import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { GatewayError } from '../../../core/contract/errors.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { StoreHealth } from '../../../core/storage/store-health.js';
import { memoryClient, resultJson } from '../../helpers.js';
import { storeBackends, type FreshStore } from '../../support/store-backends.js';
import { bootTally } from './store-cases/gateway.js';

function capturedLog() {
  const lines: any[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString('utf8'))), done()) });
  return { log: pino({ level: 'info' }, sink), lines };
}

/** Polls `probe` until it returns a value; fails the test after 30 s. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error('condition not met in time');
}

describe('StoreHealth', () => {
  it('keeps a result for cacheMs, shares one probe among callers, and never starts a second while one hangs', async () => {
    let now = 0;
    let probes = 0;
    let answer: (() => void) | undefined;
    // The first probe hangs until answer(); later ones answer at once.
    const hanging = () => {
      probes += 1;
      return probes === 1 ? new Promise<void>((resolve) => (answer = resolve)) : Promise.resolve();
    };
    const { log, lines } = capturedLog();
    const health = new StoreHealth({ probe: hanging, where: 'PostgreSQL gw@db:5432/team', redact: (text) => text, log, now: () => now }, { cacheMs: 1000, timeoutMs: 20 });
    assert.equal((await health.check()).state, 'ok', 'fresh from the boot, the first answer is kept');
    assert.equal(probes, 0);
    now = 1000;
    const reports = await Promise.all(Array.from({ length: 50 }, () => health.check()));
    assert.equal(probes, 1, 'fifty callers, one probe');
    for (const report of reports) {
      assert.equal(report.state, 'unavailable');
      assert.equal(report.error?.code, 'STORE_UNAVAILABLE');
      assert.match(report.error!.message, /PostgreSQL gw@db:5432\/team\) did not answer a probe within 20 ms \(storage\.healthCheck\.timeoutMs\)/);
    }
    assert.equal(health.last.state, 'unavailable');
    now = 2500;
    assert.equal((await health.check()).state, 'unavailable');
    assert.equal(probes, 1, 'the hung probe is waited for again, not joined by another');
    answer!();
    await new Promise((r) => setImmediate(r));
    now = 4000;
    const back = await health.check();
    assert.equal(back.state, 'ok');
    assert.equal(probes, 2);
    // One line when it went down, one when it came back: not one per probe.
    assert.deepEqual(
      lines.filter((line) => /shared store/.test(line.msg)).map((line) => line.msg),
      ['shared store unavailable: /health answers 503 until it answers again', 'shared store available again'],
    );
  });

  it("reports a failed probe with the store's code and message, redacted", async () => {
    let now = 0;
    const failing = [
      () => Promise.reject(new GatewayError('STORE_TIMEOUT', 'A statement on the shared store was cancelled.')),
      () => Promise.reject(new Error('connect ECONNREFUSED for user:hunter2')),
    ];
    for (const probe of failing) {
      const health = new StoreHealth({ probe, where: 'the store', redact: (text) => text.replace('hunter2', '***'), log: capturedLog().log, now: () => (now += 10_000) });
      const report = await health.check();
      assert.equal(report.state, 'unavailable');
      assert.match(report.error!.code, /^STORE_(TIMEOUT|UNAVAILABLE)$/);
      assert.doesNotMatch(report.error!.message, /hunter2/);
    }
  });
});

for (const backend of storeBackends({ ownPostgres: true })) {
  describe(`/health with the shared store on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());

    /** A gateway with the tally plugin, its HTTP face on a port of its own, probing the store often. */
    async function start(t: { after(fn: () => unknown): void }) {
      const fresh = await backend.fresh();
      const target: FreshStore = { ...fresh, storage: { ...fresh.storage, healthCheck: { cacheMs: 100, timeoutMs: 2000 } } };
      const gateway = await bootTally(t, target);
      const app = await createHttpApp(gateway);
      t.after(() => app.close());
      await app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const get = async (path: string) => {
        const response = await fetch(`${base}${path}`);
        return { status: response.status, body: (await response.json()) as any };
      };
      return { gateway, get, client: await memoryClient(gateway) };
    }

    it('reports the store as ok, and the process alive', async (t) => {
      const { get } = await start(t);
      const health = await get('/health');
      assert.equal(health.status, 200);
      assert.equal(health.body.status, 'ok');
      assert.equal(health.body.store.dialect, backend.name);
      assert.equal(health.body.store.state, 'ok');
      assert.equal(health.body.store.error, undefined);
      assert.deepEqual(await get('/health/live'), { status: 200, body: { status: 'alive', state: 'ready' } });
    });

    if (backend.name !== 'postgres') return;

    it('says the store is down and not ready (503) while PostgreSQL is stopped, alive all along, and recovers when it is back', async (t) => {
      const pg = backend.postgres!;
      const { get, client } = await start(t);
      assert.equal((await client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 1 } })).isError, undefined);
      pg.serverDown();
      let restarted = false;
      t.after(() => (restarted ? undefined : pg.serverUp()));
      const down = await eventually(async () => {
        const health = await get('/health');
        return health.status === 503 ? health : undefined;
      });
      assert.equal(down.body.status, 'unavailable');
      assert.equal(down.body.state, 'ready');
      assert.equal(down.body.store.state, 'unavailable');
      assert.equal(down.body.store.error.code, 'STORE_UNAVAILABLE');
      assert.match(down.body.store.error.message, /The shared store \(PostgreSQL gateway@127\.0\.0\.1:\d+\/test_\w+\) is unavailable/);
      assert.doesNotMatch(JSON.stringify(down.body), new RegExp(pg.password));
      // Alive: a supervisor must not restart a gateway for its database being away.
      assert.deepEqual(await get('/health/live'), { status: 200, body: { status: 'alive', state: 'ready' } });
      // gateway_status says the same, and the calls fail as /health says they would.
      assert.equal(resultJson(await client.callTool({ name: 'gateway_status', arguments: {} })).store.state, 'unavailable');
      assert.equal(resultJson(await client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 1 } })).code, 'STORE_UNAVAILABLE');

      pg.serverUp();
      restarted = true;
      const up = await eventually(async () => {
        const health = await get('/health');
        return health.status === 200 ? health : undefined;
      });
      assert.equal(up.body.status, 'ok');
      assert.equal(up.body.store.state, 'ok');
      assert.equal(up.body.store.error, undefined);
      assert.equal(resultJson(await client.callTool({ name: 'gateway_status', arguments: {} })).store.state, 'ok');
      assert.deepEqual(resultJson(await client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 2 } })), { name: 'jobs', value: 3 });
    });
  });
}
