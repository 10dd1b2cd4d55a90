// The search index of the chunks, and keeping it in step with the chunk table. One index per
// vector space (`rag_<space>`, or `rag_text` without embeddings), so vectors of two models
// never meet. A collection records the index its chunks are in; when the gateway's space
// changes, the next ingest or query moves the collection to the new index. Chunks whose
// vectors could not be made (provider down) are indexed by their words at once and given
// vectors later: all of them at the end of every ingest into the collection, one batch per
// query.
import type { Logger, OptionalVectors, PluginStore, SearchDocument, SearchIndex } from '@mcp-gateway/core';
import type { ChunkRow, CollectionRow, RagStore } from './rag-store.js';

export interface IndexName {
  readonly name: string;
  readonly dimensions: number | null;
}

/** What was done to bring a collection's index up to date. */
export interface SyncOutcome {
  /** Chunks given vectors. */
  readonly embedded: number;
  /** Why vectors could not be made, when they were wanted and could not. */
  readonly reason?: string;
}

export class RagIndex {
  readonly #store: PluginStore;
  readonly #rows: RagStore;
  readonly #vectors: OptionalVectors;
  readonly #log: Logger;
  readonly #opened = new Map<string, Promise<SearchIndex>>();
  readonly current: IndexName;

  constructor(deps: { store: PluginStore; rows: RagStore; vectors: OptionalVectors; log: Logger }) {
    this.#store = deps.store;
    this.#rows = deps.rows;
    this.#vectors = deps.vectors;
    this.#log = deps.log;
    const { space, dimensions } = deps.vectors;
    this.current = space && dimensions ? { name: `rag_${space}`, dimensions } : { name: 'rag_text', dimensions: null };
  }

  open(index: IndexName = this.current): Promise<SearchIndex> {
    let opened = this.#opened.get(index.name);
    if (!opened) {
      opened = this.#store.search(index.name, index.dimensions === null ? {} : { dimensions: index.dimensions });
      opened.catch(() => this.#opened.delete(index.name));
      this.#opened.set(index.name, opened);
    }
    return opened;
  }

  /** Removes chunks from the collection's index; failures are logged (a stale id is dropped at query time). */
  async remove(collection: Pick<CollectionRow, 'index_name' | 'index_dimensions'>, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      const index = await this.open({ name: collection.index_name, dimensions: collection.index_dimensions });
      await index.remove(ids);
    } catch (err) {
      this.#log.warn({ err, index: collection.index_name }, 'could not remove chunks from the rag search index; they are skipped at query time');
    }
  }

  /** Documents for chunks, with their vectors when given. */
  documents(chunks: ReadonlyArray<Pick<ChunkRow, 'id' | 'collection' | 'source' | 'section' | 'content'>>, vectors: number[][] | null): SearchDocument[] {
    return chunks.map((c, at) => ({
      id: c.id,
      fields: { section: c.section, content: c.content },
      filters: { collection: c.collection, source: c.source },
      ...(vectors ? { embedding: vectors[at]! } : {}),
    }));
  }

  /** The text a chunk's vector is made from: its section title says what it is about. */
  static embeddingText(chunk: Pick<ChunkRow, 'section' | 'content'>): string {
    return chunk.section ? `${chunk.section}\n\n${chunk.content}` : chunk.content;
  }

  /**
   * Brings a collection's chunks into the current index: moves it there if it was in another,
   * indexes chunks that are not in it, and gives vectors to chunks without, at most
   * `maxEmbedded` of them (Infinity: all). Stops with the signal between batches.
   */
  async sync(collection: CollectionRow, options: { batchSize: number; maxEmbedded: number; signal?: AbortSignal; vectorsDown?: string }): Promise<SyncOutcome> {
    if (collection.index_name !== this.current.name) {
      await this.remove(collection, await this.#rows.chunkIdsOf(collection.name));
      await this.#rows.moveCollection(collection.name, this.current);
      this.#log.info({ collection: collection.name, from: collection.index_name, to: this.current.name }, 'rag collection moved to another search index');
    }
    const index = await this.open();
    let down = options.vectorsDown ?? (this.current.dimensions === null ? 'no vectors' : undefined);
    let embedded = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const budget = down === undefined ? Math.min(options.batchSize, options.maxEmbedded - embedded) : options.batchSize;
      // Past the vector budget only chunks missing from the index are fetched (by their words).
      const wantVectors = down === undefined && budget > 0;
      const batch = await this.#rows.pending(collection.name, wantVectors, wantVectors ? budget : options.batchSize);
      if (batch.length === 0) break;
      let vectors: number[][] | null = null;
      if (wantVectors) {
        const made = await this.#vectors.embed(batch.map(RagIndex.embeddingText), 'document', options.signal);
        if (made.vectors) vectors = made.vectors;
        else down = made.reason;
      }
      const todo = vectors ? batch : batch.filter((c) => c.indexed === 0);
      if (todo.length === 0) continue; // vectors failed for chunks already indexed by their words
      await index.index(this.documents(todo, vectors));
      await this.#rows.markIndexed(todo.map((c) => c.id), vectors !== null);
      if (vectors) embedded += todo.length;
    }
    return { embedded, ...(down !== undefined && this.current.dimensions !== null ? { reason: down } : {}) };
  }
}
