import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { SharedStore } from '../../../../core/storage/shared-store.js';
import { STORE_VERSIONS_TABLE } from '../../../../core/storage/store-migrations.js';
import type { StoreMigration } from '../../../../core/contract/store-types.js';
import { openStore, type BackendUnderTest } from '../../../support/store-backends.js';

const createItems: StoreMigration = {
  name: 'create items',
  async up(db) {
    await db.schema
      .createTable('notes_items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .execute();
  },
};

const addVotes: StoreMigration = {
  name: 'add votes',
  async up(db) {
    await db.schema.alterTable('notes_items').addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('notes_items_votes').on('notes_items').column('votes').execute();
  },
};

async function versions(store: SharedStore, owner: string): Promise<Array<{ version: number; name: string | null }>> {
  return store.db.selectFrom(STORE_VERSIONS_TABLE).select(['version', 'name']).where('owner', '=', owner).orderBy('version').execute();
}

async function hasTable(store: SharedStore, name: string): Promise<boolean> {
  const query =
    store.dialect === 'sqlite'
      ? sql`select name from sqlite_master where type = 'table' and name = ${name}`
      : sql`select tablename from pg_tables where schemaname = current_schema() and tablename = ${name}`;
  return (await query.execute(store.db)).rows.length === 1;
}

/** Asserts a rejection with `code` whose message matches every pattern. */
export async function rejectsWith(promise: Promise<unknown>, code: string, ...patterns: RegExp[]): Promise<Error> {
  const err = await promise.then(
    () => assert.fail(`expected ${code}`),
    (e: unknown) => e as Error & { code?: string },
  );
  assert.equal(err.code, code, err.message);
  for (const pattern of patterns) assert.match(err.message, pattern);
  return err;
}

export function migrationCases(backend: BackendUnderTest): void {
  describe('migrations', () => {
    it('applies the steps once, in order, recording each version and name', async (t) => {
      const store = await openStore(t, backend);
      const notes = store.forPlugin('notes');
      assert.equal(await notes.migrate([createItems, addVotes]), 2);
      assert.equal(await notes.migrate([createItems, addVotes]), 0);
      assert.deepEqual(await versions(store, 'notes'), [
        { version: 1, name: 'create items' },
        { version: 2, name: 'add votes' },
      ]);
      await notes.db.insertInto('notes_items').values({ id: 1, title: 'first' }).execute();
      assert.deepEqual(await notes.db.selectFrom('notes_items').select(['title', 'votes']).execute(), [{ title: 'first', votes: 0 }]);
    });

    it('keeps applied steps across a restart and runs only the new one', async (t) => {
      const target = await backend.fresh();
      const first = await openStore(t, backend, target);
      await first.forPlugin('notes').migrate([createItems]);
      await first.close();
      const second = await openStore(t, backend, target);
      assert.equal(await second.forPlugin('notes').migrate([createItems, addVotes]), 1);
      assert.deepEqual((await versions(second, 'notes')).map((v) => v.version), [1, 2]);
    });

    it('hands each step its dialect, so SQL can differ per engine', async (t) => {
      const store = await openStore(t, backend);
      const seen: string[] = [];
      await store.forPlugin('notes').migrate([
        {
          async up(db, dialect) {
            seen.push(dialect);
            const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
            await sql`create table notes_docs (id integer primary key, body ${json} not null)`.execute(db);
          },
        },
      ]);
      assert.deepEqual(seen, [backend.name]);
      assert.equal(await hasTable(store, 'notes_docs'), true);
    });

    const refused: Array<[string, StoreMigration, RegExp]> = [
      ['a table without the prefix', { up: (db) => db.schema.createTable('items').addColumn('id', 'integer').execute() }, /creates the table "items", which lacks the prefix "notes_"/],
      ['a table with another plugin\'s prefix', { up: (db) => db.schema.createTable('tasks_items').addColumn('id', 'integer').execute() }, /"tasks_items", which lacks the prefix "notes_"/],
      ['an index without the prefix', { up: async (db) => { await createItems.up(db, backend.name); await db.schema.createIndex('by_title').on('notes_items').column('title').execute(); } }, /creates the index "by_title"/],
      ['an unprefixed table in raw SQL', { up: async (db) => { await sql`create table loose (id integer)`.execute(db); } }, /creates the table "loose"/],
    ];
    for (const [label, step, message] of refused) {
      it(`refuses a step that creates ${label}, and rolls it back`, async (t) => {
        const store = await openStore(t, backend);
        await rejectsWith(store.forPlugin('notes').migrate([step]), 'STORE_MIGRATION_FAILED', /Plugin "notes"/, /migration 1 of 1/, message, /rolled back/);
        assert.equal(await hasTable(store, 'items') || await hasTable(store, 'notes_items') || await hasTable(store, 'loose'), false);
        assert.deepEqual(await versions(store, 'notes'), []);
      });
    }

    it('refuses a step that drops a table the plugin does not own', async (t) => {
      const store = await openStore(t, backend);
      await store.forPlugin('tasks').migrate([{ up: (db) => db.schema.createTable('tasks_items').addColumn('id', 'integer').execute() }]);
      await rejectsWith(store.forPlugin('notes').migrate([{ up: (db) => db.schema.dropTable('tasks_items').execute() }]), 'STORE_MIGRATION_FAILED', /drops the table "tasks_items", which is not its own/);
      assert.equal(await hasTable(store, 'tasks_items'), true);
    });

    it('prefixes a hyphenated plugin name with underscores', async (t) => {
      const store = await openStore(t, backend);
      const bridge = store.forPlugin('ide-bridge');
      assert.equal(bridge.tablePrefix, 'ide_bridge_');
      await bridge.migrate([{ up: (db) => db.schema.createTable('ide_bridge_sessions').addColumn('id', 'integer').execute() }]);
      assert.equal(await hasTable(store, 'ide_bridge_sessions'), true);
    });

    it('rolls back a step that fails halfway, names plugin and step, and resumes there once fixed', async (t) => {
      const store = await openStore(t, backend);
      const notes = store.forPlugin('notes');
      const halfway: StoreMigration = {
        name: 'tags',
        async up(db) {
          await db.schema.createTable('notes_tags').addColumn('tag', 'text', (c) => c.primaryKey()).execute();
          await db.insertInto('notes_tags').values({ tag: 'kept?' }).execute();
          await sql`insert into notes_missing values (1)`.execute(db);
        },
      };
      await rejectsWith(notes.migrate([createItems, halfway]), 'STORE_MIGRATION_FAILED', /Plugin "notes": shared-store migration 2 of 2 \("tags"\) failed and was rolled back/, /notes_missing/, /stays at version 1/);
      assert.equal(await hasTable(store, 'notes_items'), true);
      assert.equal(await hasTable(store, 'notes_tags'), false);
      assert.deepEqual((await versions(store, 'notes')).map((v) => v.version), [1]);
      const fixed: StoreMigration = { name: 'tags', up: (db) => db.schema.createTable('notes_tags').addColumn('tag', 'text', (c) => c.primaryKey()).execute() };
      assert.equal(await notes.migrate([createItems, fixed]), 1);
      assert.equal(await hasTable(store, 'notes_tags'), true);
    });

    it('refuses a store written by a newer version of the plugin', async (t) => {
      const store = await openStore(t, backend);
      await store.forPlugin('notes').migrate([createItems, addVotes]);
      await rejectsWith(store.forPlugin('notes').migrate([createItems]), 'STORE_SCHEMA_NEWER', /plugin "notes" at migration 2, but this version of "notes" ships only 1/);
    });

    it('runs each step exactly once when two gateways migrate at the same time', async (t) => {
      const target = await backend.fresh();
      const [a, b] = [await openStore(t, backend, target), await openStore(t, backend, target)];
      let runs = 0;
      const counted: StoreMigration = { up: async (db) => { runs++; await createItems.up(db, backend.name); } };
      const applied = await Promise.all([a.forPlugin('notes').migrate([counted, addVotes]), b.forPlugin('notes').migrate([counted, addVotes])]);
      assert.equal(applied[0] + applied[1], 2);
      assert.equal(runs, 1);
      assert.deepEqual((await versions(a, 'notes')).map((v) => v.version), [1, 2]);
    });
  });
}
