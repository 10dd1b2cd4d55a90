/**
 * The search interface of the shared store (`ctx.store.search(name)`): full-text and vector
 * similarity over a plugin's documents, the same contract on SQLite and PostgreSQL. The
 * engines differ underneath (FTS5 bm25 and sqlite-vec; tsvector, ts_rank and a GIN index);
 * docs/storage.md ("Search") says how scores are made comparable.
 */

/** A filter value: filters match by equality of type and value (`true` is not `1`). */
export type SearchFilterValue = string | number | boolean;

/** One document to index. Indexing an id that exists replaces the whole document. */
export interface SearchDocument {
  /** The caller's key, 1 to 512 characters. */
  readonly id: string;
  /** Text fields, searched together as one text (no per-field weights). At most 1 MiB in all. */
  readonly fields: Readonly<Record<string, string>>;
  /** Exactly the index's `dimensions` finite numbers; only on an index declared with them. */
  readonly embedding?: readonly number[];
  /** Values queries can select on; names match `^[A-Za-z_][A-Za-z0-9_]{0,63}$`. */
  readonly filters?: Readonly<Record<string, SearchFilterValue>>;
}

/** How a query ranks: by its text, by its vector, or by both combined. */
export type SearchMode = 'lexical' | 'vector' | 'hybrid';

export interface SearchQuery {
  /**
   * Words to look for, as a user typed them: any text is safe (quotes, `NEAR`, `*`, `-`, `:`,
   * `&`, `|` are words or separators, never query syntax). A document matches when it holds
   * at least one of the words; more of them, more often, in shorter text, ranks higher.
   */
  readonly text?: string;
  /** A query embedding of the index's `dimensions`, ranked by cosine similarity. */
  readonly vector?: readonly number[];
  /** Only documents whose filters equal every one given. */
  readonly filters?: Readonly<Record<string, SearchFilterValue>>;
  /** How many results at most, 1 to 1,000. */
  readonly limit: number;
  /**
   * Default: `hybrid` when both `text` and `vector` are given, else the one that is. A mode
   * without what it needs (`vector` without a vector) is SEARCH_QUERY_INVALID.
   */
  readonly mode?: SearchMode;
  /** Hybrid only: the weights of the two normalised scores; default 0.5 and 0.5. */
  readonly weights?: { readonly lexical: number; readonly vector: number };
}

/** One hit, best first. Every score is in [0, 1], higher is better. */
export interface SearchHit {
  readonly id: string;
  /** The ranking score: the lexical or vector score, or the weighted sum in hybrid mode. */
  readonly score: number;
  /** rank/(1+rank) of the engine's rank (bm25 negated, or ts_rank); 0 when no word matched. */
  readonly lexicalScore?: number;
  /**
   * (1 + cosine similarity) / 2. Absent in a lexical query, and in a hybrid query for a
   * document without an embedding (no vector, not "opposite": its hybrid `score` counts it as 0).
   */
  readonly vectorScore?: number;
}

export interface SearchIndexOptions {
  /**
   * The length of every embedding and query vector in this index, fixed for its life (1 to
   * 4,096). Omit it for a text-only index. Opening an existing index with another value is
   * SEARCH_INDEX_INVALID.
   */
  readonly dimensions?: number;
}

/**
 * One named search index of a plugin, in tables named `<plugin>_search_<name>…`. Every method
 * is a promise and may fail with the store's codes (STORE_UNAVAILABLE, STORE_TIMEOUT,
 * STORE_CONFLICT) besides its own.
 */
export interface SearchIndex {
  readonly name: string;
  readonly dimensions: number | undefined;
  /** How vectors are scored on this store: in the database (`sqlite-vec`) or exactly by the gateway. */
  readonly vectorEngine: VectorEngine;
  /**
   * Adds or replaces documents, all in one transaction (none is written when one is invalid).
   * Throws SEARCH_DOCUMENT_INVALID (bad id, field, filter) or SEARCH_DIMENSION_MISMATCH.
   */
  index(docs: readonly SearchDocument[]): Promise<void>;
  /** Removes documents by id; ids not in the index are ignored. Resolves with how many went. */
  remove(ids: readonly string[]): Promise<number>;
  /**
   * Ranks documents; an empty index answers `[]`. Throws SEARCH_QUERY_INVALID (nothing to
   * rank by, bad limit or filter) or SEARCH_DIMENSION_MISMATCH (vector of another length).
   */
  query(query: SearchQuery): Promise<SearchHit[]>;
  /** How many documents the index holds. */
  count(): Promise<number>;
  /**
   * The index's count and `rows` (the count of what it indexes, taken by the caller at the
   * same time) when they differ, else undefined: documents lost or never written (a crash
   * between the table's write and the index's, a new index). Ask before anything can write,
   * or a write landing between the two counts looks like drift.
   */
  drift(rows: Promise<number>): Promise<IndexDrift | undefined>;
}

/** What `SearchIndex.drift` found: the index's count of documents and the table's of rows. */
export interface IndexDrift {
  readonly indexed: number;
  readonly rows: number;
}

/** `sqlite-vec`: cosine computed by the extension in SQLite; `exact`: by the gateway in JS. */
export type VectorEngine = 'sqlite-vec' | 'exact';

/** What texts are embedded for: some models (nomic-embed-text, e5) want a different prefix for each. */
export type VectorPurpose = 'document' | 'query';

/**
 * Vectors, or none and why, in words a tool result can carry. `refused` is set when the
 * provider refused these texts themselves (too long, malformed): trying them again will not
 * help, unlike a provider that is down.
 */
export type VectorsOutcome = { readonly vectors: number[][] } | { readonly vectors: null; readonly reason: string; readonly refused?: boolean };

/**
 * What makes vectors for a search index: the embeddings plugin's API is one (`ctx.api('embeddings')`
 * for a plugin that `uses: ['embeddings']`). OptionalVectors takes it, or undefined.
 */
export interface VectorSource {
  /** A name for the vector space (provider, model, dimensions): name an index after it; null without vectors. */
  readonly space: string | null;
  readonly dimensions: number | null;
  /** Cheap and synchronous: whether vectors can be had now, and if not, why. */
  readiness(): { readonly ok: boolean; readonly reason?: string };
  /** Vectors for `texts`, or none and why; throws only for vectors of the wrong length and the caller's abort. */
  tryEmbed(texts: readonly string[], options?: { readonly purpose?: VectorPurpose; readonly signal?: AbortSignal }): Promise<VectorsOutcome>;
}
