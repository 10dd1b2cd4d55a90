import type { EmbeddingPurpose, EmbeddingsApi, EmbedOutcome } from '../embeddings/api.js';

/** What a search without vectors says of itself. */
export const LEXICAL_SEARCH = 'search is lexical';
/** What a write without vectors tells its caller. */
export const STORED_WITHOUT_VECTORS = 'stored without vectors: found by its words until vectors work again';

/** Why an embedding call failed, as a `degraded` or `vectors.reason` says it: `embeddings failed (CODE: message)`. */
export function failureReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return `embeddings failed (${String(code ?? 'error')}: ${err instanceof Error ? err.message : String(err)})`;
}

/** Vectors for some texts, or none and why: the caller then works lexically and says so. */
export type VectorsOutcome = EmbedOutcome;

/**
 * The knowledge plugin's view of the embeddings plugin: present or not, reachable or not.
 * Only a provider that answers vectors of the wrong length fails a write (its vectors would
 * poison the index); every other failure leaves the work lexical, with the reason given.
 */
export class TextVectors {
  readonly #api: EmbeddingsApi | undefined;

  constructor(api: EmbeddingsApi | undefined) {
    this.#api = api;
  }

  /** The vector space's name (for index names), or null when there are no vectors. */
  get space(): string | null {
    return this.#api?.space ?? null;
  }

  get dimensions(): number | null {
    return this.#api?.dimensions ?? null;
  }

  /** Why there are no vectors now, or undefined when there should be. */
  unavailable(): string | undefined {
    if (!this.#api) return 'the embeddings plugin is not enabled';
    const readiness = this.#api.readiness();
    return readiness.ok ? undefined : (readiness.reason ?? 'embeddings unavailable');
  }

  /**
   * Embeds `texts`. Throws EMBEDDINGS_DIMENSION_MISMATCH and the caller's abort; any other
   * failure answers `{vectors: null, reason}` (the embeddings plugin logs it).
   */
  embed(texts: readonly string[], purpose: EmbeddingPurpose, signal?: AbortSignal): Promise<VectorsOutcome> {
    if (!this.#api) return Promise.resolve({ vectors: null, reason: 'the embeddings plugin is not enabled' });
    return this.#api.tryEmbed(texts, { purpose, ...(signal ? { signal } : {}) });
  }
}
