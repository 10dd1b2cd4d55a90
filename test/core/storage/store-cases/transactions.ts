import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Generated } from 'kysely';
import type { SharedStore } from '../../../../core/storage/shared-store.js';
import type { PluginStore, StoreMigration } from '../../../../core/contract/store-types.js';
import { openStore, type BackendUnderTest } from '../../../support/store-backends.js';

/** The tables of a plugin named `ledger`, as a plugin declares them for typed queries. */
interface LedgerTables {
  ledger_accounts: { id: Generated<number>; name: string; balance: number; updated_at: string };
  ledger_moves: { id: Generated<number>; account_id: number; amount: number };
}

const ledgerMigrations: StoreMigration[] = [
  {
    name: 'accounts and moves',
    async up(db, dialect) {
      // A generated key differs: an identity column on PostgreSQL; on SQLite an INTEGER
      // PRIMARY KEY is the rowid, which numbers itself.
      await db.schema
        .createTable('ledger_accounts')
        .addColumn('id', 'integer', (c) => (dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey()))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ledger_moves')
        .addColumn('id', 'integer', (c) => (dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey()))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_accounts.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
];

async function ledger(t: { after(fn: () => unknown): void }, backend: BackendUnderTest): Promise<{ store: SharedStore; ledger: PluginStore<LedgerTables> }> {
  const store = await openStore(t, backend);
  // The typed view of ctx.store: an annotation, nothing else.
  const typed: PluginStore<LedgerTables> = store.forPlugin('ledger');
  await typed.migrate(ledgerMigrations);
  return { store, ledger: typed };
}

export function transactionCases(backend: BackendUnderTest): void {
  describe('queries and transactions', () => {
    it('runs typed queries: insert returning, select, and counts as numbers on either engine', async (t) => {
      const { ledger: store } = await ledger(t, backend);
      const now = new Date().toISOString();
      const { id } = await store.db.insertInto('ledger_accounts').values({ name: 'alice', balance: 10, updated_at: now }).returning('id').executeTakeFirstOrThrow();
      assert.equal(typeof id, 'number');
      const row = await store.db.selectFrom('ledger_accounts').select(['name', 'balance']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { name: 'alice', balance: 10 });
      const { n } = await store.db.selectFrom('ledger_accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(n, 1);
      // @ts-expect-error: the row type has no column `owner` — the check this typing buys.
      const wrong = () => store.db.selectFrom('ledger_accounts').select('owner');
      assert.equal(typeof wrong, 'function');
    });

    it('commits when the function resolves and returns its value', async (t) => {
      const { ledger: store } = await ledger(t, backend);
      const id = await store.transaction(async (trx) => {
        const account = await trx.insertInto('ledger_accounts').values({ name: 'bob', balance: 0, updated_at: 'now' }).returning('id').executeTakeFirstOrThrow();
        await trx.insertInto('ledger_moves').values({ account_id: account.id, amount: 5 }).execute();
        return account.id;
      });
      const moves = await store.db.selectFrom('ledger_moves').select(['account_id', 'amount']).execute();
      assert.deepEqual(moves, [{ account_id: id, amount: 5 }]);
    });

    it('rolls everything back when the function throws, and rethrows that error', async (t) => {
      const { ledger: store } = await ledger(t, backend);
      const failure = new Error('the plugin changed its mind');
      await assert.rejects(
        store.transaction(async (trx) => {
          const account = await trx.insertInto('ledger_accounts').values({ name: 'carol', balance: 0, updated_at: 'now' }).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('ledger_moves').values({ account_id: account.id, amount: 7 }).execute();
          throw failure;
        }),
        (err) => err === failure,
      );
      assert.deepEqual(await store.db.selectFrom('ledger_accounts').selectAll().execute(), []);
      assert.deepEqual(await store.db.selectFrom('ledger_moves').selectAll().execute(), []);
    });

    it('rolls back when a statement fails, keeping the driver error for the plugin to read', async (t) => {
      const { ledger: store } = await ledger(t, backend);
      await store.db.insertInto('ledger_accounts').values({ name: 'dave', balance: 1, updated_at: 'now' }).execute();
      const err = await store
        .transaction(async (trx) => {
          await trx.updateTable('ledger_accounts').set({ balance: 100 }).where('name', '=', 'dave').execute();
          await trx.insertInto('ledger_accounts').values({ name: 'dave', balance: 2, updated_at: 'now' }).execute();
        })
        .then(
          () => assert.fail('the duplicate name must fail'),
          (e: unknown) => e as { code?: string },
        );
      // A constraint is the plugin's business: the driver's own code, not a store code.
      assert.match(String(err.code), backend.name === 'sqlite' ? /^SQLITE_CONSTRAINT/ : /^23505$/);
      const { balance } = await store.db.selectFrom('ledger_accounts').select('balance').where('name', '=', 'dave').executeTakeFirstOrThrow();
      assert.equal(balance, 1);
    });

    it('reads with forUpdate() inside a transaction on either engine', async (t) => {
      const { ledger: store } = await ledger(t, backend);
      await store.db.insertInto('ledger_accounts').values({ name: 'erin', balance: 3, updated_at: 'now' }).execute();
      const compiled = store.db.selectFrom('ledger_accounts').select('balance').forUpdate().compile();
      // SQLite would reject the clause; its store drops it (its transactions hold the write lock).
      assert.equal(/for update/i.test(compiled.sql), backend.name === 'postgres', compiled.sql);
      const balance = await store.transaction(async (trx) => {
        const row = await trx.selectFrom('ledger_accounts').select('balance').where('name', '=', 'erin').forUpdate().executeTakeFirstOrThrow();
        await trx.updateTable('ledger_accounts').set({ balance: row.balance + 1 }).where('name', '=', 'erin').execute();
        return row.balance + 1;
      });
      assert.equal(balance, 4);
    });
  });
}
