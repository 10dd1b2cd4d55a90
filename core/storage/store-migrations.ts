import { sql, type Kysely, type Transaction } from '../vendor/kysely.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { schemaObjects, type SchemaObject } from './store-schema-objects.js';
import type { StoreDialect, StoreMigration } from '../contract/store-types.js';

/** The shared store's record of applied steps: one row per owner (plugin or core) and version. */
export const STORE_VERSIONS_TABLE = 'core_store_migrations';

/** The table-name prefix of an owner: its name with `-` as `_` (SQL names need no quoting), then `_`. */
export function tablePrefix(owner: string): string {
  return `${owner.replaceAll('-', '_')}_`;
}

/**
 * Applies `owner`'s steps not yet recorded, each in its own transaction with its versions row,
 * so a failure leaves the store at the last whole step. Several gateways may boot at once
 * against one PostgreSQL: an advisory lock per owner makes each step run exactly once (on
 * SQLite, the transaction's write lock does the same).
 */
export async function migrateStore(db: Kysely<any>, dialect: StoreDialect, owner: string, migrations: readonly StoreMigration[]): Promise<number> {
  await ensureVersionsTable(db, dialect);
  let applied = 0;
  for (;;) {
    const ran = await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`mcp-gateway:migrate:${owner}`}))`.execute(trx);
      const current = await currentVersion(trx, owner);
      if (current > migrations.length) throw schemaNewer(owner, current, migrations.length);
      if (current === migrations.length) return false;
      await applyStep(trx, dialect, owner, current + 1, migrations);
      return true;
    });
    if (!ran) return applied;
    applied++;
  }
}

async function ensureVersionsTable(db: Kysely<any>, dialect: StoreDialect): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Two gateways creating it at once race in PostgreSQL's catalog even with IF NOT EXISTS.
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('mcp-gateway:migrate'))`.execute(trx);
    await trx.schema
      .createTable(STORE_VERSIONS_TABLE)
      .ifNotExists()
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${STORE_VERSIONS_TABLE}_pkey`, ['owner', 'version'])
      .execute();
  });
}

async function currentVersion(trx: Transaction<any>, owner: string): Promise<number> {
  const row = await trx
    .selectFrom(STORE_VERSIONS_TABLE)
    .select((eb) => eb.fn.max<number | null>('version').as('version'))
    .where('owner', '=', owner)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function applyStep(trx: Transaction<any>, dialect: StoreDialect, owner: string, version: number, migrations: readonly StoreMigration[]): Promise<void> {
  const step = migrations[version - 1]!;
  const label = `migration ${version} of ${migrations.length}${step.name ? ` ("${step.name}")` : ''}`;
  const before = await schemaObjects(trx, dialect);
  try {
    await step.up(trx, dialect);
  } catch (err) {
    const reason = isGatewayError(err) ? err.message : (err as Error)?.message ?? String(err);
    throw new GatewayError(
      'STORE_MIGRATION_FAILED',
      `Plugin "${owner}": shared-store ${label} failed and was rolled back: ${reason}. The store stays at version ${version - 1}; fix the step and restart.`,
      { cause: err },
    );
  }
  const after = await schemaObjects(trx, dialect);
  const problem = namingProblem(before, after, tablePrefix(owner));
  if (problem) {
    throw new GatewayError('STORE_MIGRATION_FAILED', `Plugin "${owner}": shared-store ${label} ${problem}; it was rolled back. Name every table, view, index and trigger ${tablePrefix(owner)}…, so that plugins never collide.`);
  }
  await trx
    .insertInto(STORE_VERSIONS_TABLE)
    .values({ owner, version, name: step.name ?? null, applied_at: new Date().toISOString() })
    .execute();
}

/** What a step did to names outside its prefix, if anything. */
function namingProblem(before: ReadonlyMap<string, SchemaObject>, after: ReadonlyMap<string, SchemaObject>, prefix: string): string | undefined {
  for (const [key, object] of after) {
    if (!before.has(key) && !object.name.startsWith(prefix)) return `creates the ${object.type} "${object.name}", which lacks the prefix "${prefix}"`;
  }
  for (const [key, object] of before) {
    if (!after.has(key) && !object.name.startsWith(prefix)) return `drops the ${object.type} "${object.name}", which is not its own`;
  }
  return undefined;
}

function schemaNewer(owner: string, current: number, known: number): GatewayError {
  return new GatewayError(
    'STORE_SCHEMA_NEWER',
    `The shared store has plugin "${owner}" at migration ${current}, but this version of "${owner}" ships only ${known}: a newer version wrote it. Run the newer gateway, or restore the backup taken before the upgrade.`,
  );
}
