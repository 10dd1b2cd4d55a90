import type { Logger } from '../../core/index.js';
import type { EmbeddingPurpose, EmbeddingsApi } from '../embeddings/api.js';

/** What a search without vectors says of itself. */
export const LEXICAL_SEARCH = 'search is lexical';
/** What a write without vectors tells its caller. */
export const STORED_WITHOUT_VECTORS = 'stored without vectors: found by its words until vectors work again';

/** Why an embedding call failed, as a `degraded` or `vectors.reason` says it: `embeddings failed (CODE: message)`. */
export function failureReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return `embeddings failed (${String(code ?? 'error')}: ${err instanceof Error ? err.message : String(err)})`;
}

/**
 * Vectors for some texts, or none and why: the caller then works lexically and says so.
 * `refused` is set when the provider refused these texts themselves (too long, malformed):
 * trying them again will not help, unlike a provider that is down.
 */
export type VectorsOutcome = { readonly vectors: number[][] } | { readonly vectors: null; readonly reason: string; readonly refused?: boolean };

/** Failures that concern the texts sent, not the provider's health. */
function refusedTexts(err: unknown): boolean {
  const { code, details } = err as { code?: unknown; details?: { status?: unknown } };
  return code === 'EMBEDDINGS_INPUT_INVALID' || (code === 'EMBEDDINGS_PROVIDER_FAILED' && [400, 413, 422].includes(details?.status as number));
}

/**
 * The knowledge plugin's view of the embeddings plugin: present or not, reachable or not.
 * Only a provider that answers vectors of the wrong length fails a write (its vectors would
 * poison the index); every other failure leaves the work lexical, with the reason given.
 */
export class TextVectors {
  readonly #api: EmbeddingsApi | undefined;
  readonly #log: Logger;

  constructor(api: EmbeddingsApi | undefined, log: Logger) {
    this.#api = api;
    this.#log = log;
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
   * failure answers `{vectors: null, reason}`.
   */
  async embed(texts: readonly string[], purpose: EmbeddingPurpose, signal?: AbortSignal): Promise<VectorsOutcome> {
    const down = this.unavailable();
    if (down) return { vectors: null, reason: down };
    if (texts.length === 0) return { vectors: [] };
    try {
      return { vectors: await this.#api!.embed(texts, { purpose, ...(signal ? { signal } : {}) }) };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EMBEDDINGS_DIMENSION_MISMATCH' || signal?.aborted) throw err;
      this.#log.warn({ err, code }, 'embedding failed; working lexically');
      return { vectors: null, reason: failureReason(err), ...(refusedTexts(err) ? { refused: true } : {}) };
    }
  }
}
