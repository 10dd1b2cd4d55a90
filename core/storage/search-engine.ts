import type { SearchFilterValue, VectorEngine } from '../contract/search-types.js';

/** A document checked and put in the form both engines store. */
export interface PreparedDocument {
  readonly id: string;
  /** The fields' text, one per line (see documentText). */
  readonly text: string;
  /** The filters as JSON text. */
  readonly filters: string;
  /** float32 little-endian bytes, or null for a document without an embedding. */
  readonly embedding: Buffer | null;
}

/** A candidate with its engine-independent score in [0, 1]. */
export interface Ranked {
  readonly id: string;
  readonly score: number;
}

/** Filters checked: names safe to put in a JSON path, values typed. */
export type CheckedFilters = ReadonlyArray<readonly [name: string, value: SearchFilterValue]>;

/** What restricts a ranking: filters, and for hybrid the ids already found by the other half. */
export interface RankScope {
  readonly filters: CheckedFilters;
  readonly limit: number;
  readonly within?: readonly string[];
}

/**
 * One back end's half of a search index: its tables exist (see each engine's `open…`);
 * validation, modes and hybrid fusion live in search-index.ts, once for both.
 */
export interface SearchEngine {
  readonly vectorEngine: VectorEngine;
  write(docs: readonly PreparedDocument[]): Promise<void>;
  remove(ids: readonly string[]): Promise<number>;
  /** Best first, scores from lexicalScore; only documents holding at least one term. */
  lexical(terms: readonly string[], scope: RankScope): Promise<Ranked[]>;
  /** Best first, scores from the cosine similarity; only documents with an embedding. */
  vector(query: Buffer, queryValues: Float32Array, scope: RankScope): Promise<Ranked[]>;
  count(): Promise<number>;
}

/** The filters as one JSON object, the form `@>` containment takes on PostgreSQL. */
export function filtersObject(filters: CheckedFilters): string {
  return JSON.stringify(Object.fromEntries(filters));
}

/**
 * The `limit` best of `rows` by score, best first, ties broken by id for a stable order:
 * exact scoring in the gateway without sorting every row.
 */
export function topScored(rows: Iterable<Ranked>, limit: number): Ranked[] {
  const best: Ranked[] = [];
  for (const row of rows) {
    if (best.length === limit && !isBetter(row, best[best.length - 1]!)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isBetter(row, best[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, row);
    if (best.length > limit) best.pop();
  }
  return best;
}

function isBetter(a: Ranked, b: Ranked): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}
