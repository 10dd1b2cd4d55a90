// A child process of migration-race.test.ts: one gateway's migration, started on a signal.
// argv[2] is a JSON job: { kind: 'local', file } migrates gateway.db's kind of file (ctx.db),
// { kind: 'shared', storage, dataDir } the shared store (ctx.store). The child opens its
// connection, writes "ready", and migrates when a line arrives on stdin, so that every child
// reads the version at the same moment; it then writes {"applied": n} or {"error": "..."}.
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { createLogger } from '../../../core/lib/logger.js';
import { SharedStore } from '../../../core/storage/shared-store.js';
import { migrate, openDatabase } from '../../../core/storage/storage.js';
import type { Migration } from '../../../core/contract/store-types.js';
import type { StorageConfig } from '../../../core/storage/store-config.js';
import type { StoreMigration } from '../../../core/contract/store-types.js';

/** How long the first step holds its transaction: every other child reads the version meanwhile. */
const SLOW_STEP_MS = 150;

type Job = { kind: 'local'; file: string } | { kind: 'shared'; storage: StorageConfig; dataDir: string };

/** The steps of ctx.db: a slow create, then a change that fails if applied twice. */
const LOCAL_STEPS: Migration[] = [
  (db) => {
    db.exec('CREATE TABLE race_items (id INTEGER PRIMARY KEY)');
    // Synchronous on purpose: a ctx.db step is, and the lock is held all along.
    const until = Date.now() + SLOW_STEP_MS;
    while (Date.now() < until);
  },
  'ALTER TABLE race_items ADD COLUMN title TEXT',
];

const SHARED_STEPS: StoreMigration[] = [
  {
    name: 'slow create',
    async up(db) {
      await db.schema.createTable('race_items').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
      await new Promise((resolve) => setTimeout(resolve, SLOW_STEP_MS));
    },
  },
  { name: 'add a column', up: (db) => sql`ALTER TABLE race_items ADD COLUMN title text`.execute(db).then(() => {}) },
];

async function main(job: Job): Promise<void> {
  const run = await prepare(job);
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  try {
    process.stdout.write(`${JSON.stringify({ applied: await run.migrate() })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ error: String((err as Error)?.message ?? err) })}\n`);
  } finally {
    await run.close();
  }
}

async function prepare(job: Job): Promise<{ migrate(): Promise<number>; close(): Promise<void> }> {
  if (job.kind === 'local') {
    const db = openDatabase(job.file);
    return { migrate: async () => migrate(db, 'race', LOCAL_STEPS), close: async () => void db.close() };
  }
  const store = await SharedStore.open(job.storage, { dataDir: job.dataDir, log: createLogger('silent'), configWhere: 'race' });
  return { migrate: () => store.forPlugin('race').migrate(SHARED_STEPS), close: () => store.close() };
}

await main(JSON.parse(process.argv[2]!) as Job);
