import type { Logger } from '../../core/index.js';
import type { EmbeddingPurpose, EmbeddingsApi } from '../embeddings/api.js';

/** Vectors for some texts, or none and why: the caller then works lexically and says so. */
export type VectorsOutcome = { readonly vectors: number[][] } | { readonly vectors: null; readonly reason: string; readonly refused?: boolean };

/** Failures that concern the texts sent (too long, malformed), not the provider's health: trying them again will not help. */
function refusedTexts(err: unknown): boolean {
  const { code, details } = err as { code?: unknown; details?: { status?: unknown } };
  return code === 'EMBEDDINGS_INPUT_INVALID' || (code === 'EMBEDDINGS_PROVIDER_FAILED' && [400, 413, 422].includes(details?.status as number));
}

/**
 * The brain's view of the embeddings plugin: present or not, reachable or not. Only a provider
 * that answers vectors of the wrong length fails a write (its vectors would poison the index);
 * every other failure leaves the memory found by its words, with the reason given.
 */
export class MemoryVectors {
  readonly #api: EmbeddingsApi | undefined;
  readonly #log: Logger;

  constructor(api: EmbeddingsApi | undefined, log: Logger) {
    this.#api = api;
    this.#log = log;
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
  async embed(texts: readonly string[], purpose: EmbeddingPurpose, signal?: AbortSignal): Promise<VectorsOutcome> {
    const down = this.unavailable();
    if (down) return { vectors: null, reason: down };
    if (texts.length === 0) return { vectors: [] };
    try {
      return { vectors: await this.#api!.embed(texts, { purpose, ...(signal ? { signal } : {}) }) };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EMBEDDINGS_DIMENSION_MISMATCH' || signal?.aborted) throw err;
      this.#log.warn({ err, code }, 'brain: embedding failed; working lexically');
      const reason = `embeddings failed (${String(code ?? 'error')}: ${err instanceof Error ? err.message : String(err)})`;
      return { vectors: null, reason, ...(refusedTexts(err) ? { refused: true } : {}) };
    }
  }
}
