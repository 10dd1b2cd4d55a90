import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createLogger } from '../../../../core/lib/logger.js';
import { SharedStore } from '../../../../core/storage/shared-store.js';
import type { StorageConfig } from '../../../../core/storage/store-config.js';
import { memoryClient, resultJson, spawnGateway, writeConfig } from '../../../helpers.js';
import { openStore, type BackendUnderTest, type FreshStore } from '../../../support/store-backends.js';
import { bootTally } from './gateway.js';
import { rejectsWith } from './migrations.js';

/** A pino logger at trace level into memory, to check what the gateway writes. */
function capturedLog() {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { log: pino({ level: 'trace' }, sink), text: () => lines.join('') };
}

function withUrl(target: FreshStore, url: string): FreshStore {
  const postgres = (target.storage.shared as Exclude<StorageConfig['shared'], 'sqlite'>).postgres;
  return { ...target, storage: { shared: { postgres: { ...postgres, url } } } };
}

/** Polls `probe` until it returns a value; fails the test after 20 s. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error('condition not met in time');
}

export function postgresFailureCases(backend: BackendUnderTest): void {
  describe('PostgreSQL failures', () => {
    it('refuses to boot on a wrong password, without the password in the error or the logs', async (t) => {
      const pg = backend.postgres!;
      const target = await backend.fresh();
      const database = new URL((target.storage.shared as { postgres: { url: string } }).postgres.url).pathname.slice(1);
      const wrong = 'not-the-Password-9f8e7d';
      const { log, text } = capturedLog();
      const err = await rejectsWith(bootTally(t, withUrl(target, pg.url(database, { password: wrong })), { log }), 'STORE_UNAVAILABLE', /refused the login/, /password authentication failed for user "gateway"/, /PostgreSQL gateway@127\.0\.0\.1:\d+\/test_/);
      for (const secret of [wrong, pg.password]) {
        assert.doesNotMatch(inspect(err, { depth: 10 }), new RegExp(secret), 'the error (with its causes) holds a password');
        assert.doesNotMatch(text(), new RegExp(secret), 'the log holds a password');
      }
    });

    it('the binary exits 1 with one line naming the store, the login refused, and no password on stderr', async () => {
      const pg = backend.postgres!;
      const target = await backend.fresh();
      const wrong = 'Wr0ng-binary-pass';
      const dir = join(target.dataDir, '..');
      const file = writeConfig(dir, { dataDir: target.dataDir, workspace: dir, auth: 'none', storage: { shared: { postgres: { url: '${DATABASE_URL}' } } } }, 'binary.config.yaml');
      const child = spawnGateway(['tools', '--config', file], { env: { DATABASE_URL: pg.url('postgres', { password: wrong }) } });
      assert.equal(await child.exited, 1);
      const stderr = child.stderrLines.join('\n');
      assert.match(stderr, /^mcp-gateway: STORE_UNAVAILABLE: .*binary\.config\.yaml: storage\.shared: the gateway cannot start without its shared store\. The shared store \(PostgreSQL gateway@127\.0\.0\.1:\d+\/postgres\) refused the login/m);
      assert.doesNotMatch(stderr, new RegExp(wrong));
    });

    const unreachable: Array<[string, (pgUrl: (db: string) => string, port: number) => string, RegExp]> = [
      ['nothing listens on the port', (_url, port) => `postgres://gateway:pw@127.0.0.1:${port}/postgres`, /is unavailable: .*ECONNREFUSED/],
      ['the database does not exist', (url) => url('no_such_db'), /has no such database: database "no_such_db" does not exist/],
    ];
    for (const [label, makeUrl, message] of unreachable) {
      it(`refuses to boot when ${label}`, async (t) => {
        const pg = backend.postgres!;
        const target = await backend.fresh();
        const closedPort = await new Promise<number>((resolve) => {
          const server = createServer().listen(0, '127.0.0.1', () => {
            const { port } = server.address() as { port: number };
            server.close(() => resolve(port));
          });
        });
        await rejectsWith(bootTally(t, withUrl(target, makeUrl((db) => pg.url(db), closedPort))), 'STORE_UNAVAILABLE', /cannot start without its shared store/, message);
      });
    }

    it('fails a call whose connection is killed mid-transaction with STORE_UNAVAILABLE, writes none of it, and serves the next call', async (t) => {
      const pg = backend.postgres!;
      const target = await backend.fresh();
      const { log, text } = capturedLog();
      const gateway = await bootTally(t, target, { log });
      const client = await memoryClient(gateway);
      await client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 1 } });
      const database = new URL((target.storage.shared as { postgres: { url: string } }).postgres.url).pathname.slice(1);
      const pending = client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 10, holdMs: 30_000 } });
      const pid = await eventually(async () => {
        const rows = await pg.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'select pg_sleep%' AND state = 'active'", [database]);
        return rows[0]?.pid;
      });
      await pg.query('SELECT pg_terminate_backend($1)', [pid]);
      const result = await pending;
      assert.equal(result.isError, true);
      assert.equal(resultJson(result).code, 'STORE_UNAVAILABLE');
      // Nothing half-written: neither the counter's update nor its log row.
      assert.deepEqual(resultJson(await client.callTool({ name: 'tally_get', arguments: { name: 'jobs' } })), { name: 'jobs', value: 1 });
      assert.equal((await gateway.store.db.selectFrom('tally_log').select('delta').execute()).length, 1);
      // Idle pooled connections killed too: once the pool has seen them end (its 'error' event,
      // logged), it drops them and opens new ones. A call that takes one in the moment before
      // gets STORE_UNAVAILABLE, as above.
      // The pool's only: the event bridge's LISTEN connection (application_name "… (events)")
      // reconnects on its own and logs its own line (test/core/storage/pg-events.test.ts).
      const killed = await pg.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name NOT LIKE '%(events)'", [database]);
      assert.ok(killed.length > 0);
      await eventually(async () => (text().split('shared store connection lost').length - 1 >= killed.length ? true : undefined));
      assert.deepEqual(resultJson(await client.callTool({ name: 'tally_add', arguments: { name: 'jobs', by: 2 } })), { name: 'jobs', value: 3 });
      assert.doesNotMatch(text(), new RegExp(pg.password));
    });

    it('cancels a statement past statementTimeoutMs with STORE_TIMEOUT', async (t) => {
      const store = await openStore(t, backend, await backend.fresh({ statementTimeoutMs: 1000 }));
      await rejectsWith(sql`select pg_sleep(20)`.execute(store.db), 'STORE_TIMEOUT', /statement timeout/, /statementTimeoutMs: 1000 ms/);
      assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows, [{ one: 1 }]);
    });

    it('answers a deadlock with STORE_CONFLICT for the transaction PostgreSQL chose, and commits the other', async (t) => {
      const store = await openStore(t, backend);
      await sql`create table dl_rows (id integer primary key, v integer not null)`.execute(store.db);
      await sql`insert into dl_rows values (1, 0), (2, 0)`.execute(store.db);
      let bothLocked!: () => void;
      let locked = 0;
      const barrier = new Promise<void>((resolve) => (bothLocked = resolve));
      const crossing = (first: number, second: number) =>
        store.db.transaction().execute(async (trx) => {
          await sql`update dl_rows set v = v + 1 where id = ${first}`.execute(trx);
          if (++locked === 2) bothLocked();
          await barrier;
          await sql`update dl_rows set v = v + 1 where id = ${second}`.execute(trx);
        });
      const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
      const failed = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.reason.code, 'STORE_CONFLICT');
      assert.match(failed[0]!.reason.message, /deadlock detected/);
      const rows = (await sql<{ v: number }>`select v from dl_rows order by id`.execute(store.db)).rows;
      assert.deepEqual(rows, [{ v: 1 }, { v: 1 }]);
    });

    it('says nothing of the password when SharedStore.open fails outside a gateway', async () => {
      const pg = backend.postgres!;
      const target = await backend.fresh();
      const wrong = 'an0ther-wrong-pass';
      const postgres = { url: pg.url('postgres', { password: wrong }), poolSize: 2, statementTimeoutMs: 0, connectTimeoutMs: 5000 };
      const err = await rejectsWith(SharedStore.open({ shared: { postgres } }, { dataDir: target.dataDir, log: createLogger('silent'), configWhere: 'x.yaml' }), 'STORE_UNAVAILABLE', /^x\.yaml: storage\.shared/);
      assert.doesNotMatch(inspect(err, { depth: 10 }), new RegExp(wrong));
    });
  });
}
