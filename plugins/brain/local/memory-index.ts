// The memories' search index: their words always, their vectors when the embeddings plugin
// gives them. A memory whose vector could not be made (provider down) is found by its words
// and gets its vector later, when vectors work again: `vector_space` on its row says which.
// Memories never change once written (only forget erases them), so no write can race another
// but forget: the index is checked against the rows after each write.
import { VectorFiller, type IndexDrift, type Logger, type OptionalVectors, type PluginStore, type SearchFilterValue, type SearchHit, type SearchIndex } from '@mcp-gateway/core';
import type { Memory } from '../model.js';
import { memoryFromRow } from './memory-rows.js';
import type { BrainTables } from './schema.js';

const BATCH = 64;

export interface IndexQuery {
  readonly text?: string;
  readonly vector?: readonly number[];
  readonly filters: Readonly<Record<string, SearchFilterValue>>;
  /** Any of these types; absent: all. The index filters by equality, so one query per type. */
  readonly types?: readonly string[] | undefined;
  readonly limit: number;
  readonly weights: { readonly lexical: number; readonly vector: number };
}

export class MemoryIndex {
  readonly #index: SearchIndex;
  readonly #store: PluginStore<BrainTables>;
  readonly #vectors: OptionalVectors;
  readonly #log: Logger;
  readonly #filler: VectorFiller<Memory>;

  private constructor(index: SearchIndex, store: PluginStore<BrainTables>, vectors: OptionalVectors, log: Logger) {
    this.#index = index;
    this.#store = store;
    this.#vectors = vectors;
    this.#log = log;
    this.#filler = new VectorFiller<Memory>(
      vectors,
      {
        next: async (space, limit) => (await this.#needingVectors(space).selectAll().orderBy('id').limit(limit).execute()).map(memoryFromRow),
        text: MemoryIndex.embeddingText,
        store: (memories, vectors) => this.put(memories, vectors),
        // A memory the provider refuses alone is found by its words.
        refuse: async (memory, space) => {
          await this.#store.db.updateTable('brain_memories').set({ vector_space: `!${space}` }).where('id', '=', memory.id).execute();
        },
      },
      log,
      'brain: filling in vectors failed; tried again at the next recall or remember',
    );
  }

  /** One index per vector space (another model means another index), `memories_text` without vectors. */
  static async open(store: PluginStore<BrainTables>, vectors: OptionalVectors, log: Logger): Promise<MemoryIndex> {
    const space = vectors.space;
    const index = await store.search(space ? `memories_${space}` : 'memories_text', vectors.dimensions ? { dimensions: vectors.dimensions } : {});
    return new MemoryIndex(index, store, vectors, log);
  }

  get vectorEngine(): string {
    return this.#index.vectorEngine;
  }

  /** What a memory's vector is made from. */
  static embeddingText(memory: Pick<Memory, 'content'>): string {
    return memory.content;
  }

  /**
   * Indexes live memories, with `vectors` (one per memory, in order) or none. Memories
   * forgotten meanwhile are taken out again. Records on each row which vector it has now.
   */
  async put(memories: readonly Memory[], vectors: readonly number[][] | null): Promise<void> {
    if (memories.length === 0) return;
    await this.#index.index(
      memories.map((memory, i) => ({
        id: memory.id,
        fields: { content: memory.content, tags: memory.tags.join(' ') },
        filters: documentFilters(memory),
        ...(vectors ? { embedding: vectors[i]! } : {}),
      })),
    );
    const ids = memories.map((m) => m.id);
    const live = new Set((await this.#store.db.selectFrom('brain_memories').select('id').where('id', 'in', ids).where('forgotten_at', 'is', null).execute()).map((r) => r.id));
    const gone = ids.filter((id) => !live.has(id));
    if (gone.length > 0) await this.#index.remove(gone);
    // The index document was replaced whole: with a vector of this space, or none (made later).
    if (live.size > 0) await this.#store.db.updateTable('brain_memories').set({ vector_space: vectors ? this.#vectors.space : null }).where('id', 'in', [...live]).execute();
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.#index.remove(ids);
  }

  async queryVector(text: string, signal?: AbortSignal): Promise<{ vector: number[] | null; reason?: string }> {
    const outcome = await this.#vectors.embed([text], 'query', signal);
    return outcome.vectors ? { vector: outcome.vectors[0]! } : { vector: null, reason: outcome.reason };
  }

  /** Ranks memories by the index alone; the caller applies what the index cannot (expiry, supersession, tags). */
  async search(query: IndexQuery): Promise<SearchHit[]> {
    const run = (type?: string) =>
      this.#index.query({
        ...(query.text ? { text: query.text } : {}),
        ...(query.vector ? { vector: query.vector } : {}),
        filters: type ? { ...query.filters, type } : query.filters,
        limit: query.limit,
        ...(query.text && query.vector ? { weights: query.weights } : {}),
      });
    if (!query.types?.length) return run();
    const hits = (await Promise.all(query.types.map((t) => run(t)))).flat();
    return hits.sort((a, b) => b.score - a.score).slice(0, query.limit);
  }

  /**
   * The index's and the table's counts of live memories when they differ (a crash between the
   * two writes, a new vector space), else undefined. Asked at start, before a tool can write:
   * a write landing between the two counts would look like drift and index everything again.
   */
  drift(): Promise<IndexDrift | undefined> {
    return this.#index.drift(this.#countLive());
  }

  /**
   * Brings the index level with the table: every live memory is indexed again when `drift`
   * found the counts apart, then the missing vectors are made.
   */
  async catchUp(drift: IndexDrift | undefined, signal: AbortSignal): Promise<void> {
    if (drift) {
      this.#log.info(drift, 'brain: indexing every memory again');
      for (let after = ''; !signal.aborted; ) {
        const rows = await this.#store.db.selectFrom('brain_memories').selectAll().where('forgotten_at', 'is', null).where('id', '>', after).orderBy('id').limit(BATCH).execute();
        if (rows.length === 0) break;
        // Indexed again without vectors: the rows say so, and the fill below makes them (from the cache, mostly).
        await this.put(rows.map(memoryFromRow), null);
        after = rows.at(-1)!.id;
      }
    }
    await this.fillVectors(signal);
  }

  /** Whether a live memory still lacks a vector of this space (one row looked at, not counted); starts a fill when one does. */
  async missingVectors(): Promise<boolean> {
    const space = this.#vectors.space;
    if (!space) return false;
    const missing = (await this.#needingVectors(space).select('id').limit(1).executeTakeFirst()) !== undefined;
    if (missing) void this.fillVectors();
    return missing;
  }

  /** Makes the vectors memories lack, a batch at a time, while the provider answers; one run at a time. */
  fillVectors(signal?: AbortSignal): Promise<void> {
    return this.#filler.fill(signal);
  }

  /** Live memories without a vector of `space`, leaving out those the provider refused (`!<space>`). */
  #needingVectors(space: string) {
    return this.#store.db
      .selectFrom('brain_memories')
      .where('forgotten_at', 'is', null)
      .where((eb) => eb.or([eb('vector_space', 'is', null), eb.and([eb('vector_space', '!=', space), eb('vector_space', '!=', `!${space}`)])]));
  }

  async #countLive(): Promise<number> {
    const { n } = await this.#store.db
      .selectFrom('brain_memories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('forgotten_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}

/** What queries can select on in the index: the equality filters brain_recall offers. */
function documentFilters(memory: Memory): Record<string, SearchFilterValue> {
  return {
    type: memory.type,
    agent_id: memory.agent_id,
    ...(memory.org !== null ? { org: memory.org } : {}),
    ...(memory.project !== null ? { project: memory.project } : {}),
  };
}
