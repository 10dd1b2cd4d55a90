import { sql, type Kysely, type RawBuilder } from '../vendor/kysely.js';
import { topScored, type Ranked } from './search-engine.js';
import { cosine, decodeVector, vectorScoreFromCosine } from './search-scores.js';

/**
 * Vector ranking done by the gateway, the same on both engines: every stored embedding within
 * `scope` (the engine's `and …` filters) scored by exact cosine, the `limit` best kept.
 */
export async function exactVectorScan(
  db: Kysely<any>,
  table: string,
  scope: RawBuilder<unknown>,
  queryValues: Float32Array,
  limit: number,
): Promise<Ranked[]> {
  const { rows } = await sql<{ id: string; embedding: Uint8Array }>`
    select d.id as id, d.embedding as embedding from ${sql.id(table)} d
    where d.embedding is not null ${scope}`.execute(db);
  return topScored(
    rows.map((r) => ({ id: r.id, score: vectorScoreFromCosine(cosine(queryValues, decodeVector(r.embedding))) })),
    limit,
  );
}

/** The number of documents in an index table (PostgreSQL's count is a bigint string). */
export async function countRows(db: Kysely<any>, table: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from ${sql.id(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
