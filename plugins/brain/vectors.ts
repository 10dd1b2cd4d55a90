import type { EmbeddingPurpose, EmbeddingsApi, EmbedOutcome } from '../embeddings/api.js';

/** Vectors for some texts, or none and why: the caller then works lexically and says so. */
export type VectorsOutcome = EmbedOutcome;

/**
 * The brain's view of the embeddings plugin: present or not, reachable or not. Only a provider
 * that answers vectors of the wrong length fails a write (its vectors would poison the index);
 * every other failure leaves the memory found by its words, with the reason given.
 */
export class MemoryVectors {
  readonly #api: EmbeddingsApi | undefined;

  constructor(api: EmbeddingsApi | undefined) {
    this.#api = api;
  }

  /** The vector space's name (for the index's name), or null without vectors. */
  get space(): string | null {
    return this.#api?.space ?? null;
  }

  get dimensions(): number | null {
    return this.#api?.dimensions ?? null;
  }

  /** True when the embeddings plugin is enabled with a provider: vectors are expected. */
  get configured(): boolean {
    return this.space !== null;
  }

  /** Why there are no vectors now, or undefined when there should be. */
  unavailable(): string | undefined {
    if (!this.#api) return 'the embeddings plugin is not enabled';
    const readiness = this.#api.readiness();
    return readiness.ok ? undefined : (readiness.reason ?? 'embeddings unavailable');
  }

  /** Embeds `texts`; throws EMBEDDINGS_DIMENSION_MISMATCH and the caller's abort, answers any other failure as `{vectors: null, reason}`. */
  embed(texts: readonly string[], purpose: EmbeddingPurpose, signal?: AbortSignal): Promise<VectorsOutcome> {
    if (!this.#api) return Promise.resolve({ vectors: null, reason: 'the embeddings plugin is not enabled' });
    return this.#api.tryEmbed(texts, { purpose, ...(signal ? { signal } : {}) });
  }
}
