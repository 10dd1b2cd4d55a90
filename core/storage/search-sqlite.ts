import { sql, type Kysely, type RawBuilder } from '../vendor/kysely.js';
import { chunks } from './search-chunks.js';
import { type PreparedDocument, type RankScope, type Ranked, type SearchEngine } from './search-engine.js';
import { countRows, exactVectorScan } from './search-exact.js';
import { lexicalScore, vectorScoreFromDistance } from './search-scores.js';
import { fts5Match } from './search-terms.js';
import type { VectorEngine } from '../contract/search-types.js';

// SQLite allows 32,766 parameters a statement; a document takes 3.
const ROWS_PER_STATEMENT = 500;

/**
 * Creates (if absent) the index's tables on SQLite: `<table>` for ids, filters and
 * embeddings, `<table>_fts` a contentless FTS5 table over the text (rowid = the document's
 * `doc`; `contentless_delete` lets an upsert drop the old text without keeping a copy).
 * Vectors are float32 blobs, scored by sqlite-vec's vec_distance_cosine when the extension
 * loaded, else exactly in the gateway.
 */
export async function openSqliteSearch(db: Kysely<any>, table: string, vectorEngine: VectorEngine): Promise<SearchEngine> {
  const fts = `${table}_fts`;
  await db.transaction().execute(async (trx) => {
    await sql`create table if not exists ${sql.id(table)} (
      doc integer primary key,
      id text not null unique,
      filters text not null,
      embedding blob
    )`.execute(trx);
    await sql`create virtual table if not exists ${sql.id(fts)} using fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(trx);
  });
  return new SqliteSearch(db, table, fts, vectorEngine);
}

class SqliteSearch implements SearchEngine {
  readonly #db: Kysely<any>;
  readonly #table: string;
  readonly #fts: string;
  readonly vectorEngine: VectorEngine;

  constructor(db: Kysely<any>, table: string, fts: string, vectorEngine: VectorEngine) {
    this.#db = db;
    this.#table = table;
    this.#fts = fts;
    this.vectorEngine = vectorEngine;
  }

  async write(docs: readonly PreparedDocument[]): Promise<void> {
    const table = sql.id(this.#table);
    const fts = sql.id(this.#fts);
    await this.#db.transaction().execute(async (trx) => {
      for (const part of chunks(docs, ROWS_PER_STATEMENT)) {
        const values = sql.join(part.map((d) => sql`(${d.id}, ${d.filters}, ${d.embedding})`));
        const { rows } = await sql<{ doc: number; id: string }>`
          insert into ${table} (id, filters, embedding) values ${values}
          on conflict (id) do update set filters = excluded.filters, embedding = excluded.embedding
          returning doc, id`.execute(trx);
        const docOf = new Map(rows.map((r) => [r.id, r.doc]));
        const keys = sql.join(rows.map((r) => sql`${r.doc}`));
        await sql`delete from ${fts} where rowid in (${keys})`.execute(trx);
        const texts = sql.join(part.map((d) => sql`(${docOf.get(d.id)!}, ${d.text})`));
        await sql`insert into ${fts} (rowid, body) values ${texts}`.execute(trx);
      }
    });
  }

  async remove(ids: readonly string[]): Promise<number> {
    let removed = 0;
    await this.#db.transaction().execute(async (trx) => {
      for (const part of chunks(ids, ROWS_PER_STATEMENT)) {
        const { rows } = await sql<{ doc: number }>`delete from ${sql.id(this.#table)} where id in (${sql.join(part)}) returning doc`.execute(trx);
        if (rows.length === 0) continue;
        await sql`delete from ${sql.id(this.#fts)} where rowid in (${sql.join(rows.map((r) => r.doc))})`.execute(trx);
        removed += rows.length;
      }
    });
    return removed;
  }

  async lexical(terms: readonly string[], scope: RankScope): Promise<Ranked[]> {
    // FTS5's rank is bm25(): negative, lower is better; negated it is the usual bm25 >= 0.
    const { rows } = await sql<{ id: string; rank: number }>`
      select d.id as id, -f.rank as rank
      from ${sql.id(this.#fts)} f join ${sql.id(this.#table)} d on d.doc = f.rowid
      where f.body match ${fts5Match(terms)} ${this.#scope(scope)}
      order by f.rank, d.id limit ${scope.limit}`.execute(this.#db);
    return rows.map((r) => ({ id: r.id, score: lexicalScore(r.rank) }));
  }

  async vector(query: Buffer, queryValues: Float32Array, scope: RankScope): Promise<Ranked[]> {
    if (this.vectorEngine === 'sqlite-vec') {
      const { rows } = await sql<{ id: string; distance: number }>`
        select d.id as id, vec_distance_cosine(d.embedding, vec_f32(${query})) as distance
        from ${sql.id(this.#table)} d
        where d.embedding is not null ${this.#scope(scope)}
        order by distance, d.id limit ${scope.limit}`.execute(this.#db);
      return rows.map((r) => ({ id: r.id, score: vectorScoreFromDistance(r.distance) }));
    }
    return exactVectorScan(this.#db, this.#table, this.#scope(scope), queryValues, scope.limit);
  }

  count(): Promise<number> {
    return countRows(this.#db, this.#table);
  }

  /** `and …` for the filters (JSON text equality: `true` is not `1`) and the id restriction. */
  #scope(scope: RankScope): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = scope.filters.map(([name, value]) => sql`and d.filters -> ${`$."${name}"`} = ${JSON.stringify(value)}`);
    if (scope.within) parts.push(scope.within.length ? sql`and d.id in (${sql.join([...scope.within])})` : sql`and 0`);
    return parts.length ? sql.join(parts, sql` `) : sql``;
  }
}
