import { sql, type Kysely, type RawBuilder } from '../vendor/kysely.js';
import { chunks } from './search-chunks.js';
import { filtersObject, type PreparedDocument, type RankScope, type Ranked, type SearchEngine } from './search-engine.js';
import { countRows, exactVectorScan } from './search-exact.js';
import { lexicalScore } from './search-scores.js';
import { tsqueryText } from './search-terms.js';

// PostgreSQL allows 65,535 parameters a statement; a document takes 4.
const ROWS_PER_STATEMENT = 1000;

/**
 * Creates (if absent) the index's table on PostgreSQL: a tsvector of the text with a GIN
 * index (ranked with ts_rank), the filters as jsonb with a GIN index (`@>` containment), and
 * embeddings as float32 bytes scored exactly by the gateway. The `simple` text configuration
 * (lower-casing, no stemming, no stop words) matches SQLite's unicode61 tokenizer, so a query
 * finds the same documents on both engines.
 */
export async function openPostgresSearch(db: Kysely<any>, table: string): Promise<SearchEngine> {
  await db.transaction().execute(async (trx) => {
    // Gateways opening one index at once would race in the catalog even with IF NOT EXISTS.
    await sql`select pg_advisory_xact_lock(hashtext(${`mcp-gateway:search:${table}`}))`.execute(trx);
    await sql`create table if not exists ${sql.id(table)} (
      id text primary key,
      body tsvector not null,
      filters jsonb not null,
      embedding bytea
    )`.execute(trx);
    await sql`create index if not exists ${sql.id(`${table}_body`)} on ${sql.id(table)} using gin (body)`.execute(trx);
    await sql`create index if not exists ${sql.id(`${table}_filters`)} on ${sql.id(table)} using gin (filters jsonb_path_ops)`.execute(trx);
  });
  return new PostgresSearch(db, table);
}

class PostgresSearch implements SearchEngine {
  readonly #db: Kysely<any>;
  readonly #table: string;
  readonly vectorEngine = 'exact' as const;

  constructor(db: Kysely<any>, table: string) {
    this.#db = db;
    this.#table = table;
  }

  async write(docs: readonly PreparedDocument[]): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      for (const part of chunks(docs, ROWS_PER_STATEMENT)) {
        const values = sql.join(part.map((d) => sql`(${d.id}, to_tsvector('simple', ${d.text}), cast(${d.filters} as jsonb), ${d.embedding})`));
        await sql`
          insert into ${sql.id(this.#table)} (id, body, filters, embedding) values ${values}
          on conflict (id) do update set body = excluded.body, filters = excluded.filters, embedding = excluded.embedding`.execute(trx);
      }
    });
  }

  async remove(ids: readonly string[]): Promise<number> {
    const result = await sql`delete from ${sql.id(this.#table)} where id = any(${[...ids]})`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n);
  }

  async lexical(terms: readonly string[], scope: RankScope): Promise<Ranked[]> {
    // Normalisation 1 divides the rank by 1 + log(document length): the same term count in a
    // longer text ranks lower, as bm25 does on SQLite.
    const { rows } = await sql<{ id: string; rank: number }>`
      select d.id as id, ts_rank(d.body, q, 1) as rank
      from ${sql.id(this.#table)} d, to_tsquery('simple', ${tsqueryText(terms)}) q
      where d.body @@ q ${this.#scope(scope)}
      order by rank desc, d.id limit ${scope.limit}`.execute(this.#db);
    return rows.map((r) => ({ id: r.id, score: lexicalScore(Number(r.rank)) }));
  }

  vector(_query: Buffer, queryValues: Float32Array, scope: RankScope): Promise<Ranked[]> {
    return exactVectorScan(this.#db, this.#table, this.#scope(scope), queryValues, scope.limit);
  }

  count(): Promise<number> {
    return countRows(this.#db, this.#table);
  }

  #scope(scope: RankScope): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [];
    // jsonb containment compares type and value (`true` is not `1`), and the GIN index serves it.
    if (scope.filters.length) parts.push(sql`and d.filters @> cast(${filtersObject(scope.filters)} as jsonb)`);
    if (scope.within) parts.push(sql`and d.id = any(${[...scope.within]})`);
    return parts.length ? sql.join(parts, sql` `) : sql``;
  }
}
