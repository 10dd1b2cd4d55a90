import { sql, type Kysely } from '../vendor/kysely.js';
import type { StoreDialect } from '../contract/store-types.js';

/** A named thing in the store's schema that a migration could create or drop. */
export interface SchemaObject {
  readonly type: string;
  readonly name: string;
}

// pg_class kinds that carry a name of the plugin's choosing (TOAST and composite types of
// tables are named by PostgreSQL and live elsewhere or follow the table).
const PG_KINDS: Record<string, string> = { r: 'table', p: 'table', v: 'view', m: 'view', i: 'index', S: 'sequence', f: 'table' };

/**
 * The store's tables, views, indexes, triggers (and sequences on PostgreSQL), keyed by type and
 * name; the migration runner compares the lists before and after a step. Names SQLite makes
 * up itself (sqlite_autoindex_…, sqlite_sequence) are left out.
 */
export async function schemaObjects(db: Kysely<any>, dialect: StoreDialect): Promise<Map<string, SchemaObject>> {
  const rows =
    dialect === 'sqlite'
      ? (await sql<SchemaObject>`select type, name from sqlite_master where name not like 'sqlite\\_%' escape '\\'`.execute(db)).rows
      : (
          await sql<{ kind: string; name: string }>`
            select c.relkind as kind, c.relname as name
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where n.nspname = current_schema()
            union all
            select 'trigger', t.tgname from pg_catalog.pg_trigger t
            join pg_catalog.pg_class c on c.oid = t.tgrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where n.nspname = current_schema() and not t.tgisinternal`.execute(db)
        ).rows.flatMap(({ kind, name }) => {
          const type = kind === 'trigger' ? 'trigger' : PG_KINDS[kind];
          return type ? [{ type, name }] : [];
        });
  return new Map(rows.map((row) => [`${row.type}:${row.name}`, row]));
}
