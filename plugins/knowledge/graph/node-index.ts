// The nodes' search index: their words always, their vectors when the embeddings plugin gives
// them. A node whose vector could not be made (provider down) is indexed by its words and gets
// its vector later, when vectors work again: `vector_space` on its row says which it has.
import type { Logger, PluginStore, SearchHit, SearchIndex } from '../../../core/index.js';
import { STORED_WITHOUT_VECTORS, type TextVectors } from '../vectors.js';
import type { GraphStore } from './graph-store.js';
import type { KnowledgeNode } from './model.js';

const BATCH = 64;

/** What became of the vectors of a write: stored, or not and why (the write itself stood). */
export interface VectorsNote {
  readonly stored: boolean;
  readonly reason?: string;
}

export class NodeIndex {
  readonly #index: SearchIndex;
  readonly #vectors: TextVectors;
  readonly #graph: GraphStore;
  readonly #log: Logger;
  /** Some node lacks its vector: fill in once vectors work again. */
  #pending = true;
  #filling: Promise<void> | undefined;

  private constructor(index: SearchIndex, vectors: TextVectors, graph: GraphStore, log: Logger) {
    this.#index = index;
    this.#vectors = vectors;
    this.#graph = graph;
    this.#log = log;
  }

  /** One index per vector space (another model means another index), `nodes_text` without vectors. */
  static async open(store: PluginStore, vectors: TextVectors, graph: GraphStore, log: Logger): Promise<NodeIndex> {
    const space = vectors.space;
    const index = await store.search(space ? `nodes_${space}` : 'nodes_text', vectors.dimensions ? { dimensions: vectors.dimensions } : {});
    return new NodeIndex(index, vectors, graph, log);
  }

  get vectorEngine(): string {
    return this.#index.vectorEngine;
  }

  /**
   * Brings the index level with the nodes table after a restart, a new vector space or a write
   * that failed halfway (the row is written before the index). In the background: every node
   * is indexed again when the counts differ, then the missing vectors are made.
   */
  async catchUp(signal: AbortSignal): Promise<void> {
    const [indexed, nodes] = await Promise.all([this.#index.count(), this.#graph.countNodes()]);
    if (indexed !== nodes) {
      this.#log.info({ indexed, nodes }, 'knowledge: indexing every node again');
      for (let after = ''; !signal.aborted; ) {
        const batch = await this.#graph.allNodes(BATCH, after);
        if (batch.length === 0) break;
        await this.put(batch, signal);
        after = batch.at(-1)!.id;
      }
    }
    await this.fillVectors(signal);
  }

  /**
   * Indexes nodes with their vectors when they can be had. Throws only when the provider gives
   * vectors of the wrong length (nothing is indexed then) or `signal` aborts.
   */
  async put(nodes: readonly KnowledgeNode[], signal?: AbortSignal): Promise<VectorsNote> {
    if (nodes.length === 0) return { stored: true };
    const outcome = await this.#vectors.embed(nodes.map(embeddingText), 'document', signal);
    await this.#index.index(
      nodes.map((node, i) => ({
        id: node.id,
        fields: { summary: node.summary, content: node.content, tags: node.tags.join(' ') },
        filters: { type: node.type },
        ...(outcome.vectors ? { embedding: outcome.vectors[i]! } : {}),
      })),
    );
    const space = outcome.vectors ? this.#vectors.space : null;
    await this.#graph.setVectorSpace(nodes.map((n) => n.id), space);
    if (!outcome.vectors) {
      this.#pending = this.#vectors.space !== null;
      return { stored: false, reason: `${outcome.reason}: ${STORED_WITHOUT_VECTORS}` };
    }
    if (this.#pending) void this.fillVectors();
    return { stored: true };
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.#index.remove(ids);
  }

  /** The vector of a node as indexed, made again from its text (the cache makes that cheap). */
  async vectorOf(node: KnowledgeNode, signal?: AbortSignal): Promise<number[] | null> {
    const outcome = await this.#vectors.embed([embeddingText(node)], 'document', signal);
    return outcome.vectors?.[0] ?? null;
  }

  /**
   * Nodes still without a vector (written while the provider was down): a fill is started for
   * them, and their number is returned so a search can say that they rank by words only.
   */
  async missingVectors(): Promise<number> {
    const space = this.#vectors.space;
    if (!space) return 0;
    const missing = await this.#graph.countWithoutVectors(space);
    if (missing > 0) void this.fillVectors();
    return missing;
  }

  async queryVector(text: string, signal?: AbortSignal): Promise<{ vector: number[] | null; reason?: string }> {
    const outcome = await this.#vectors.embed([text], 'query', signal);
    return outcome.vectors ? { vector: outcome.vectors[0]! } : { vector: null, reason: outcome.reason };
  }

  async search(query: { text?: string; vector?: readonly number[]; types?: readonly string[]; limit: number }): Promise<SearchHit[]> {
    const run = (type?: string) =>
      this.#index.query({
        ...(query.text ? { text: query.text } : {}),
        ...(query.vector ? { vector: query.vector } : {}),
        ...(type ? { filters: { type } } : {}),
        limit: query.limit,
      });
    if (!query.types || query.types.length === 0) return run();
    // One query per type: the index filters by equality only.
    const hits = (await Promise.all(query.types.map((t) => run(t)))).flat();
    return hits.sort((a, b) => b.score - a.score).slice(0, query.limit);
  }

  /** Makes the vectors nodes lack, a batch at a time, while the provider answers. One run at a time. */
  fillVectors(signal?: AbortSignal): Promise<void> {
    const space = this.#vectors.space;
    if (!space || !this.#pending || this.#vectors.unavailable()) return Promise.resolve();
    this.#filling ??= (async () => {
      try {
        for (;;) {
          if (signal?.aborted) return;
          const batch = await this.#graph.nodesNeedingVectors(space, BATCH);
          if (batch.length === 0) {
            this.#pending = false;
            return;
          }
          const note = await this.put(batch, signal);
          if (!note.stored) return;
        }
      } catch (err) {
        this.#log.warn({ err }, 'knowledge: filling in vectors failed; will try again after the next write');
      } finally {
        this.#filling = undefined;
      }
    })();
    return this.#filling;
  }
}

/** What a node's vector is made from. */
export function embeddingText(node: Pick<KnowledgeNode, 'summary' | 'content'>): string {
  return `${node.summary}\n\n${node.content}`;
}
