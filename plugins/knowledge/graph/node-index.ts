// The nodes' search index: their words always, their vectors when the embeddings plugin gives
// them. A node whose vector could not be made (provider down) is indexed by its words and gets
// its vector later, when vectors work again: `vector_space` on its row says which it has.
// Writes to the index are guarded by the node's version, so a slow embedding never puts back
// the text of a node that changed or was forgotten meanwhile.
import { VectorFiller, type IndexDrift, type Logger, type OptionalVectors, type PluginStore, type SearchHit, type SearchIndex, type VectorsOutcome } from '@mcp-gateway/core';
import { STORED_WITHOUT_VECTORS } from '../vectors.js';
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
  readonly #vectors: OptionalVectors;
  readonly #graph: GraphStore;
  readonly #log: Logger;
  readonly #filler: VectorFiller<KnowledgeNode>;

  private constructor(index: SearchIndex, vectors: OptionalVectors, graph: GraphStore, log: Logger) {
    this.#index = index;
    this.#vectors = vectors;
    this.#graph = graph;
    this.#log = log;
    // Every gateway on the store fills: the rows say what is missing. A node refused alone is
    // not tried again until its text changes.
    this.#filler = new VectorFiller<KnowledgeNode>(
      vectors,
      {
        next: (space, limit) => graph.nodesNeedingVectors(space, limit),
        text: embeddingText,
        store: async (nodes, vectors, signal) => {
          await this.put(nodes, { outcome: { vectors }, ...(signal ? { signal } : {}) });
        },
        refuse: (node, space) => graph.setVectorSpace([node], `!${space}`),
      },
      log,
      'knowledge: filling in vectors failed; tried again at the next search or write',
    );
  }

  /** One index per vector space (another model means another index), `nodes_text` without vectors. */
  static async open(store: PluginStore, vectors: OptionalVectors, graph: GraphStore, log: Logger): Promise<NodeIndex> {
    const space = vectors.space;
    const index = await store.search(space ? `nodes_${space}` : 'nodes_text', vectors.dimensions ? { dimensions: vectors.dimensions } : {});
    return new NodeIndex(index, vectors, graph, log);
  }

  get vectorEngine(): string {
    return this.#index.vectorEngine;
  }

  /**
   * The index's and the nodes table's counts when they differ (a crash between the two
   * writes, a new vector space), else undefined. Asked at start, before a tool can write: a
   * write landing between the two counts would look like drift and index everything again.
   */
  drift(): Promise<IndexDrift | undefined> {
    return this.#index.drift(this.#graph.countNodes());
  }

  /**
   * Brings the index level with the nodes table: every node is indexed again when `drift`
   * found the counts apart, then the missing vectors are made. In the background; the
   * embeddings cache makes texts seen before cheap.
   */
  async catchUp(drift: IndexDrift | undefined, signal: AbortSignal): Promise<void> {
    if (drift) {
      this.#log.info(drift, 'knowledge: indexing every node again');
      for (let after = ''; !signal.aborted; ) {
        const batch = await this.#graph.allNodes(BATCH, after);
        if (batch.length === 0) break;
        await this.put(batch, { signal });
        after = batch.at(-1)!.id;
      }
    }
    await this.fillVectors(signal);
  }

  /** Vectors for nodes as they would be indexed. Throws only EMBEDDINGS_DIMENSION_MISMATCH and the caller's abort. */
  embed(nodes: readonly Pick<KnowledgeNode, 'summary' | 'content'>[], signal?: AbortSignal): Promise<VectorsOutcome> {
    return this.#vectors.embed(nodes.map(embeddingText), 'document', signal);
  }

  /**
   * Indexes nodes as they are at their `version`, with `outcome`'s vectors or ones made now.
   * A node that changed or went since is left to the writer that changed it. Throws only when
   * the provider gives vectors of the wrong length (nothing is indexed then) or `signal` aborts.
   */
  async put(nodes: readonly KnowledgeNode[], options: { outcome?: VectorsOutcome; signal?: AbortSignal } = {}): Promise<VectorsNote & { vectors: number[][] | null }> {
    if (nodes.length === 0) return { stored: true, vectors: [] };
    const outcome = options.outcome ?? (await this.embed(nodes, options.signal));
    const current = await this.#graph.versions(nodes.map((n) => n.id));
    const fresh = nodes.flatMap((node, i) => (current.get(node.id) === node.version ? [{ node, vector: outcome.vectors?.[i] }] : []));
    await this.#index.index(
      fresh.map(({ node, vector }) => ({
        id: node.id,
        fields: { summary: node.summary, content: node.content, tags: node.tags.join(' ') },
        filters: { type: node.type },
        ...(vector ? { embedding: vector } : {}),
      })),
    );
    // Forgotten between the version check and the index write: take it out again.
    const gone = await this.#missing(fresh.map((f) => f.node.id));
    if (gone.length > 0) await this.#index.remove(gone);
    await this.#graph.setVectorSpace(fresh.map((f) => f.node), outcome.vectors ? this.#vectors.space : null);
    if (!outcome.vectors) return { stored: false, reason: `${outcome.reason}: ${STORED_WITHOUT_VECTORS}`, vectors: null };
    void this.fillVectors();
    return { stored: true, vectors: outcome.vectors };
  }

  async remove(ids: readonly string[]): Promise<void> {
    await this.#index.remove(ids);
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

  /** Ranks nodes; hits whose node is gone (left by a crash between row and index) are dropped from the index. */
  async search(query: { text?: string; vector?: readonly number[]; types?: readonly string[]; limit: number }): Promise<SearchHit[]> {
    const run = (type?: string) =>
      this.#index.query({
        ...(query.text ? { text: query.text } : {}),
        ...(query.vector ? { vector: query.vector } : {}),
        ...(type ? { filters: { type } } : {}),
        limit: query.limit,
      });
    // One query per type: the index filters by equality only.
    const hits = !query.types || query.types.length === 0 ? await run() : (await Promise.all(query.types.map((t) => run(t)))).flat().sort((a, b) => b.score - a.score).slice(0, query.limit);
    const gone = new Set(await this.#missing(hits.map((h) => h.id)));
    if (gone.size === 0) return hits;
    await this.#index.remove([...gone]);
    return hits.filter((h) => !gone.has(h.id));
  }

  /** Makes the vectors nodes lack, a batch at a time, while the provider answers; one run at a time. */
  fillVectors(signal?: AbortSignal): Promise<void> {
    return this.#filler.fill(signal);
  }

  async #missing(ids: readonly string[]): Promise<string[]> {
    const present = await this.#graph.versions(ids);
    return ids.filter((id) => !present.has(id));
  }
}

/** What a node's vector is made from. */
export function embeddingText(node: Pick<KnowledgeNode, 'summary' | 'content'>): string {
  return `${node.summary}\n\n${node.content}`;
}
