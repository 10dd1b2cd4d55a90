import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Gateway } from '../../../core/gateway/gateway.js';
import pg from 'pg';
import { memoryClient } from '../../helpers.js';
import { storeBackends, type FreshStore } from '../../support/store-backends.js';
import { bootTally } from './store-cases/gateway.js';

const [, postgres] = storeBackends();

interface SharedAuditRow {
  gateway: string;
  tool: string;
  outcome: string;
  caller: string | null;
}

/** Folds the journal into gateway.db, then ships gateway.db's rows to PostgreSQL. */
async function settle(gateway: Gateway): Promise<void> {
  gateway.audit!.flush();
  await gateway.sharing.auditShipper!.ship();
}

function databaseOf(target: FreshStore): string {
  return new URL((target.storage.shared as { postgres: { url: string } }).postgres.url).pathname.slice(1);
}

describe('audit log on PostgreSQL', { skip: postgres!.skip }, () => {
  before(() => postgres!.start());
  after(() => postgres!.stop());

  it("puts the calls of two gateways in one core_audit table, each row naming its gateway", async (t) => {
    const target = await postgres!.fresh();
    const a = await bootTally(t, target);
    const b = await bootTally(t, { ...target, dataDir: `${target.dataDir}-b` });
    assert.notEqual(a.sharing.auditShipper!.gateway, b.sharing.auditShipper!.gateway);
    await (await memoryClient(a, 'client-a')).callTool({ name: 'tally_add', arguments: { name: 'n', by: 1 } });
    await (await memoryClient(b, 'client-b')).callTool({ name: 'tally_add', arguments: { name: 'n', by: 2 } });
    await (await memoryClient(b, 'client-b')).callTool({ name: 'tally_get', arguments: { name: 'n' } });
    await Promise.all([settle(a), settle(b)]);
    const rows = (await a.store.db.selectFrom('core_audit').select(['gateway', 'tool', 'outcome', 'caller']).orderBy('id').execute()) as SharedAuditRow[];
    const byGateway = (g: Gateway) => rows.filter((r) => r.gateway === g.sharing.auditShipper!.gateway).map((r) => [r.tool, r.outcome, r.caller]);
    assert.deepEqual(byGateway(a), [['tally_add', 'ok', 'client-a']]);
    assert.deepEqual(byGateway(b), [['tally_add', 'ok', 'client-b'], ['tally_get', 'ok', 'client-b']]);
    assert.match(a.sharing.auditShipper!.gateway, /^.+-[0-9a-f]{8}$/);
    // gateway.db keeps at most its newest row (ids must not restart below the mark).
    assert.ok((a.db.prepare('SELECT COUNT(*) AS n FROM core_audit').get() as { n: number }).n <= 1);
  });

  it('keeps answering calls while PostgreSQL refuses connections, and ships every row once it returns', async (t) => {
    const target = await postgres!.fresh();
    const database = databaseOf(target);
    const server = postgres!.postgres!;
    const gateway = await bootTally(t, target);
    const client = await memoryClient(gateway);
    await settle(gateway);
    // An outage: the database takes no new connection, and the pool's are ended.
    await server.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    t.after(() => server.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`));
    await server.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
    for (let i = 0; i < 5; i++) {
      // gateway_status needs no store: the call itself must go on, audited to the journal.
      const result = await client.callTool({ name: 'gateway_status', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    gateway.audit!.flush();
    // A pooled connection the server ended answers STORE_UNAVAILABLE; a new one is refused with
    // SQLSTATE 55000, which the store does not map (a plain rejection). Which comes first is a race.
    await assert.rejects(gateway.sharing.auditShipper!.ship(), /not currently accepting connections|is unavailable/);
    assert.equal(gateway.audit!.state.state, 'ok');
    assert.equal((gateway.db.prepare("SELECT COUNT(*) AS n FROM core_audit WHERE tool = 'gateway_status'").get() as { n: number }).n, 5, 'the rows wait in gateway.db');
    await server.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    // A connection the pool still held when the server ended it can fail one more round
    // ("Connection terminated unexpectedly") before the pool drops it; the shipper's next
    // round is a retry, and a failed round rolls back, so nothing ships twice.
    let shippedNow = 0;
    for (let round = 1; ; round++) {
      try {
        shippedNow = await gateway.sharing.auditShipper!.ship();
        break;
      } catch (err) {
        if (round === 5 || !/is unavailable/.test(String(err))) throw err;
      }
    }
    assert.equal(shippedNow, 5);
    const shipped = await gateway.store.db.selectFrom('core_audit').select('tool').where('tool', '=', 'gateway_status').execute();
    assert.equal(shipped.length, 5, 'every row, once');
    assert.equal(await gateway.sharing.auditShipper!.ship(), 0, 'a second round ships nothing again');
  });

  it('ships rows written while a round runs, before a ship() called after them resolves', async (t) => {
    const target = await postgres!.fresh();
    const gateway = await bootTally(t, target);
    const client = await memoryClient(gateway);
    await settle(gateway);
    const shipper = gateway.sharing.auditShipper!;
    // Another session holds the shared table, so that a round stops at its insert, after it read gateway.db.
    const blocker = new pg.Client({ connectionString: (target.storage.shared as { postgres: { url: string } }).postgres.url });
    await blocker.connect();
    t.after(() => blocker.end());
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE core_audit IN EXCLUSIVE MODE');
    await client.callTool({ name: 'tally_add', arguments: { name: 'first', by: 1 } });
    gateway.audit!.flush();
    const first = shipper.ship();
    const waiting = () => postgres!.postgres!.query("SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [databaseOf(target)]);
    while ((await waiting()).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // Written after the running round read gateway.db: the next ship() must not end with that round.
    await client.callTool({ name: 'tally_add', arguments: { name: 'second', by: 2 } });
    gateway.audit!.flush();
    const second = shipper.ship();
    await blocker.query('COMMIT');
    assert.equal(await first, 1);
    assert.equal(await second, 1);
    const rows = await gateway.store.db.selectFrom('core_audit').select('tool').where('tool', '=', 'tally_add').execute();
    assert.equal(rows.length, 2);
  });

  it('ships the rows an existing gateway.db holds (a dataDir that ran on SQLite) at the first boot on PostgreSQL', async (t) => {
    const target = await postgres!.fresh();
    const before = await bootTally(t, { storage: { shared: 'sqlite' }, dataDir: target.dataDir });
    const client = await memoryClient(before);
    for (const by of [1, 2, 3]) await client.callTool({ name: 'tally_add', arguments: { name: 'old', by } });
    await before.close();
    const gateway = await bootTally(t, target);
    await settle(gateway);
    const rows = await gateway.store.db.selectFrom('core_audit').select(['tool', 'gateway']).where('tool', '=', 'tally_add').execute();
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.gateway === gateway.sharing.auditShipper!.gateway));
  });
});
