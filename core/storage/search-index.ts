import { sql, type Kysely } from '../vendor/kysely.js';
import { GatewayError } from '../contract/errors.js';
import { type CheckedFilters, type PreparedDocument, type Ranked, type SearchEngine } from './search-engine.js';
import { checkDocuments, checkFilters, checkVector } from './search-input.js';
import { openPostgresSearch } from './search-postgres.js';
import { encodeVector } from './search-scores.js';
import { openSqliteSearch } from './search-sqlite.js';
import { searchTerms } from './search-terms.js';
import type { IndexDrift, SearchDocument, SearchHit, SearchIndex, SearchIndexOptions, SearchMode, SearchQuery, VectorEngine } from '../contract/search-types.js';
import type { StoreDialect } from '../contract/store-types.js';

const INDEX_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_DIMENSIONS = 4096;
const MAX_LIMIT = 1000;
const DEFAULT_WEIGHTS = { lexical: 0.5, vector: 0.5 } as const;

/** Where an index lives: the store's query builder, its engine, its owner's table prefix. */
export interface SearchHome {
  readonly db: Kysely<any>;
  readonly dialect: StoreDialect;
  /** How the store scores vectors: sqlite-vec when it loaded into SQLite, else exact. */
  readonly vectorEngine: VectorEngine;
  readonly tablePrefix: string;
  readonly owner: string;
}

/**
 * Opens (creating on first use) the search index `name` of an owner, in tables named
 * `<prefix>search_<name>…`. Its dimensions are recorded on creation; opening it later with
 * others is SEARCH_INDEX_INVALID, since stored vectors could not be compared with new ones.
 */
export async function openSearchIndex(home: SearchHome, name: string, options: SearchIndexOptions = {}): Promise<SearchIndex> {
  if (typeof name !== 'string' || !INDEX_NAME.test(name)) {
    throw invalidIndex(`Plugin "${home.owner}": search index name ${JSON.stringify(name)} is not valid: use 1 to 40 lower-case letters, digits and _, starting with a letter.`);
  }
  const dimensions = options.dimensions;
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS)) {
    throw invalidIndex(`Plugin "${home.owner}": search index "${name}": dimensions must be an integer from 1 to ${MAX_DIMENSIONS}, or left out for a text-only index (got ${String(dimensions)}).`);
  }
  const table = `${home.tablePrefix}search_${name}`;
  const engine = home.dialect === 'sqlite' ? await openSqliteSearch(home.db, table, home.vectorEngine) : await openPostgresSearch(home.db, table);
  const recorded = await recordDimensions(home, table, dimensions ?? null);
  if (recorded !== (dimensions ?? null)) {
    const was = recorded === null ? 'without vectors' : `with ${recorded} dimensions`;
    throw invalidIndex(
      `Plugin "${home.owner}": search index "${name}" was created ${was}, and is opened with ${dimensions === undefined ? 'none' : dimensions}. Open it as created, or use a new index name (and re-index) for another embedding model.`,
    );
  }
  return new StoreSearchIndex(name, dimensions, engine);
}

/** The index's dimensions as first recorded (this call's when it is the first). */
async function recordDimensions(home: SearchHome, table: string, dimensions: number | null): Promise<number | null> {
  const meta = `${table}_meta`;
  return home.db.transaction().execute(async (trx) => {
    if (home.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`mcp-gateway:search:${meta}`}))`.execute(trx);
    await sql`create table if not exists ${sql.id(meta)} (singleton integer primary key, dimensions integer)`.execute(trx);
    await sql`insert into ${sql.id(meta)} (singleton, dimensions) values (1, ${dimensions}) on conflict (singleton) do nothing`.execute(trx);
    const { rows } = await sql<{ dimensions: number | null }>`select dimensions from ${sql.id(meta)} where singleton = 1`.execute(trx);
    return rows[0]?.dimensions ?? null;
  });
}

class StoreSearchIndex implements SearchIndex {
  readonly name: string;
  readonly dimensions: number | undefined;
  readonly #engine: SearchEngine;

  constructor(name: string, dimensions: number | undefined, engine: SearchEngine) {
    this.name = name;
    this.dimensions = dimensions;
    this.#engine = engine;
  }

  get vectorEngine(): VectorEngine {
    return this.#engine.vectorEngine;
  }

  async index(docs: readonly SearchDocument[]): Promise<void> {
    const prepared: PreparedDocument[] = checkDocuments(docs, this.name, this.dimensions);
    if (prepared.length) await this.#engine.write(prepared);
  }

  async remove(ids: readonly string[]): Promise<number> {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new GatewayError('SEARCH_DOCUMENT_INVALID', `Search index "${this.name}": remove takes an array of document ids (strings).`);
    }
    return ids.length ? this.#engine.remove([...new Set(ids)]) : 0;
  }

  count(): Promise<number> {
    return this.#engine.count();
  }

  async drift(rows: Promise<number>): Promise<IndexDrift | undefined> {
    const [indexed, counted] = await Promise.all([this.count(), rows]);
    return indexed === counted ? undefined : { indexed, rows: counted };
  }

  async query(query: SearchQuery): Promise<SearchHit[]> {
    const plan = this.#plan(query);
    if (plan.mode === 'lexical') {
      if (plan.terms.length === 0) return [];
      const hits = await this.#engine.lexical(plan.terms, { filters: plan.filters, limit: plan.limit });
      return hits.map((h) => ({ id: h.id, score: h.score, lexicalScore: h.score }));
    }
    if (plan.mode === 'vector') {
      const hits = await this.#engine.vector(plan.vector!.bytes, plan.vector!.values, { filters: plan.filters, limit: plan.limit });
      return hits.map((h) => ({ id: h.id, score: h.score, vectorScore: h.score }));
    }
    return this.#hybrid(plan);
  }

  /**
   * Hybrid: the best candidates of each half (four times the limit, at least 50), each
   * candidate then scored by the half that did not find it, so that every hit carries both
   * scores — except `vectorScore` for a document without an embedding, which is left out
   * (0 would read as cosine −1, "opposite"); ranked by the weighted sum (weights scaled to sum
   * to 1, so it stays in [0, 1]), in which a missing vector score counts as 0.
   */
  async #hybrid(plan: QueryPlan): Promise<SearchHit[]> {
    const pool = Math.min(Math.max(plan.limit * 4, 50), MAX_LIMIT * 4);
    const vector = plan.vector!;
    const [lexical, vectorHits] = await Promise.all([
      plan.terms.length ? this.#engine.lexical(plan.terms, { filters: plan.filters, limit: pool }) : Promise.resolve([]),
      this.#engine.vector(vector.bytes, vector.values, { filters: plan.filters, limit: pool }),
    ]);
    const lexicalOf = toMap(lexical);
    const vectorOf = toMap(vectorHits);
    const onlyVector = vectorHits.filter((h) => !lexicalOf.has(h.id)).map((h) => h.id);
    const onlyLexical = lexical.filter((h) => !vectorOf.has(h.id)).map((h) => h.id);
    const [lexicalRest, vectorRest] = await Promise.all([
      plan.terms.length && onlyVector.length ? this.#engine.lexical(plan.terms, { filters: plan.filters, limit: onlyVector.length, within: onlyVector }) : Promise.resolve([]),
      onlyLexical.length ? this.#engine.vector(vector.bytes, vector.values, { filters: plan.filters, limit: onlyLexical.length, within: onlyLexical }) : Promise.resolve([]),
    ]);
    for (const h of lexicalRest) lexicalOf.set(h.id, h.score);
    for (const h of vectorRest) vectorOf.set(h.id, h.score);
    const { lexical: wl, vector: wv } = plan.weights;
    const hits: SearchHit[] = [...new Set([...lexicalOf.keys(), ...vectorOf.keys()])].map((id) => {
      const lexicalScore = lexicalOf.get(id) ?? 0;
      // Every candidate the vector half did not score, even when asked, has no embedding.
      const vectorScore = vectorOf.get(id);
      const score = wl * lexicalScore + wv * (vectorScore ?? 0);
      return vectorScore === undefined ? { id, score, lexicalScore } : { id, score, lexicalScore, vectorScore };
    });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, plan.limit);
  }

  #plan(query: SearchQuery): QueryPlan {
    const fail = (why: string) => new GatewayError('SEARCH_QUERY_INVALID', `Search index "${this.name}": ${why}`);
    if (typeof query !== 'object' || query === null) throw fail('a query is an object with text and/or vector, and a limit.');
    const { text, vector, mode: asked, limit, weights } = query;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw fail(`limit must be an integer from 1 to ${MAX_LIMIT} (got ${String(limit)}).`);
    if (text !== undefined && typeof text !== 'string') throw fail('text must be a string.');
    const mode: SearchMode = asked ?? (text !== undefined && vector !== undefined ? 'hybrid' : vector !== undefined ? 'vector' : 'lexical');
    if (!['lexical', 'vector', 'hybrid'].includes(mode)) throw fail(`mode must be lexical, vector or hybrid (got ${String(mode)}).`);
    if (mode !== 'vector' && text === undefined) throw fail(`a ${mode} query needs a text${mode === 'lexical' && vector === undefined ? ' (or a vector, for a vector query)' : ''}.`);
    if (mode !== 'lexical' && vector === undefined) throw fail(`a ${mode} query needs a vector.`);
    const checkedVector = vector === undefined ? undefined : checkVector(vector, this.name, this.dimensions, 'the query vector');
    const plan: QueryPlan = {
      mode,
      limit,
      terms: text === undefined ? [] : searchTerms(text),
      filters: checkFilters(query.filters, (why) => fail(`filters: ${why}`)),
      vector: checkedVector && { values: Float32Array.from(checkedVector), bytes: encodeVector(checkedVector) },
      weights: mode === 'hybrid' ? checkWeights(weights, fail) : DEFAULT_WEIGHTS,
    };
    return plan;
  }
}

interface QueryPlan {
  readonly mode: SearchMode;
  readonly limit: number;
  readonly terms: string[];
  readonly filters: CheckedFilters;
  readonly vector: { readonly values: Float32Array; readonly bytes: Buffer } | undefined;
  readonly weights: { readonly lexical: number; readonly vector: number };
}

function checkWeights(weights: SearchQuery['weights'], fail: (why: string) => GatewayError): { lexical: number; vector: number } {
  if (weights === undefined) return DEFAULT_WEIGHTS;
  const { lexical, vector } = weights;
  const ok = (w: unknown) => typeof w === 'number' && Number.isFinite(w) && w >= 0;
  if (!ok(lexical) || !ok(vector) || lexical + vector === 0) throw fail('weights are two finite numbers >= 0, lexical and vector, not both 0.');
  return { lexical: lexical / (lexical + vector), vector: vector / (lexical + vector) };
}

function toMap(hits: readonly Ranked[]): Map<string, number> {
  return new Map(hits.map((h) => [h.id, h.score]));
}

function invalidIndex(message: string): GatewayError {
  return new GatewayError('SEARCH_INDEX_INVALID', message);
}
