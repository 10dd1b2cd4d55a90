import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { createLogger } from '../../../core/lib/logger.js';
import { SharedStore } from '../../../core/storage/shared-store.js';
import { migrate, openDatabase } from '../../../core/storage/storage.js';
import { STORE_VERSIONS_TABLE } from '../../../core/storage/store-migrations.js';
import { ROOT, tempDir, TESTS } from '../../helpers.js';
import { storeBackends } from '../../support/store-backends.js';

const RACER = join(TESTS, 'core', 'storage', 'migration-racer.js');
/** Gateways starting on one new store at the same moment. */
const RACERS = 4;

type Outcome = { applied: number } | { error: string };

/**
 * Starts RACERS child processes on `job`, waits until each has opened its connection, then
 * tells them all to migrate at once; resolves with what each reported.
 */
async function race(job: Record<string, unknown>): Promise<Outcome[]> {
  const children = Array.from({ length: RACERS }, () => {
    const child = spawn(process.execPath, [RACER, JSON.stringify(job)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    after(() => void child.kill('SIGKILL'));
    const lines = createInterface({ input: child.stdout });
    const next = () => new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`a racer exited with ${code} before it answered`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, next, exited };
  });
  assert.deepEqual(await Promise.all(children.map((c) => c.next())), Array(RACERS).fill('ready'));
  const outcomes = children.map((c) => c.next());
  for (const { child } of children) child.stdin.write('go\n');
  const results = (await Promise.all(outcomes)).map((line) => JSON.parse(line) as Outcome);
  assert.deepEqual(await Promise.all(children.map((c) => c.exited)), Array(RACERS).fill(0));
  return results;
}

/** Every racer succeeded, and together they applied each of the two steps once. */
function assertAppliedOnce(outcomes: Outcome[]): void {
  assert.deepEqual(outcomes.filter((o) => 'error' in o), []);
  assert.equal(outcomes.reduce((sum, o) => sum + (o as { applied: number }).applied, 0), 2);
}

describe('migrations when gateways start at the same moment on one new store', () => {
  it("ctx.db (gateway.db): each step runs once, and the others wait for it and see it done", async () => {
    const file = join(tempDir(), 'data', 'gateway.db');
    assertAppliedOnce(await race({ kind: 'local', file }));
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      assert.deepEqual(db.prepare("SELECT version FROM core_migrations WHERE owner = 'race' ORDER BY version").pluck().all(), [1, 2]);
      assert.deepEqual(db.prepare("SELECT name FROM pragma_table_info('race_items') ORDER BY cid").pluck().all(), ['id', 'title']);
    } finally {
      db.close();
    }
  });

  it('ctx.db: a lock held past the busy timeout is STORE_CONFLICT, the step left for the next start, which applies it', () => {
    const file = join(tempDir(), 'gateway.db');
    const [holder, starter] = [openDatabase(file), openDatabase(file)];
    try {
      starter.pragma('busy_timeout = 20');
      holder.exec('BEGIN IMMEDIATE');
      assert.throws(() => migrate(starter, 'race', ['CREATE TABLE race_items (id INTEGER)']), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'STORE_CONFLICT');
        assert.match(err.message, /another process held the write lock for over 20 ms while race's migrations were due; the steps not applied yet .* wait for the next start/);
        return true;
      });
      holder.exec('COMMIT');
      assert.equal(migrate(starter, 'race', ['CREATE TABLE race_items (id INTEGER)']), 1);
    } finally {
      holder.close();
      starter.close();
    }
  });

  for (const backend of storeBackends()) {
    describe(`ctx.store on ${backend.name}`, { skip: backend.skip }, () => {
      before(() => backend.start());
      after(() => backend.stop());

      it('each step runs once, and the others wait for it and see it done', async () => {
        const target = await backend.fresh();
        assertAppliedOnce(await race({ kind: 'shared', ...target }));
        const store = await SharedStore.open(target.storage, { dataDir: target.dataDir, log: createLogger('silent'), configWhere: 'test' });
        try {
          const rows = await store.db.selectFrom(STORE_VERSIONS_TABLE).select('version').where('owner', '=', 'race').orderBy('version').execute();
          assert.deepEqual(rows.map((r) => Number(r.version)), [1, 2]);
        } finally {
          await store.close();
        }
      });
    });
  }
});
