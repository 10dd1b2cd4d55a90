// What the embeddings plugin offers other plugins (`uses: ['embeddings']`, then
// `ctx.api('embeddings')`, undefined when the plugin is not enabled).
import type { VectorPurpose, VectorSource, VectorsOutcome } from '@mcp-gateway/core';

/** Which kind of server makes the vectors; `none` makes none, and searches stay lexical. */
export type EmbeddingsProvider = 'none' | 'openai' | 'ollama';

/** What the texts are for: some models (nomic-embed-text, e5) want a different prefix for each. */
export type EmbeddingPurpose = VectorPurpose;

export interface EmbedOptions {
  /** Default `document`. */
  readonly purpose?: EmbeddingPurpose;
  /** Aborts the requests still to be sent or in flight (the caller's call was cancelled). */
  readonly signal?: AbortSignal;
}

/** Whether vectors can be had now, and if not, why, in words a tool result can carry. */
export interface EmbeddingsReadiness {
  readonly ok: boolean;
  /** Set when `ok` is false: "no embedding provider configured", "breaker open: …". */
  readonly reason?: string;
}

/**
 * Vectors, or none and why, in words a tool result can carry. `refused` is set when the
 * provider refused these texts themselves (too long, malformed): trying them again will not
 * help, unlike a provider that is down.
 */
export type EmbedOutcome = VectorsOutcome;

/** A VectorSource of the public API: plugins that keep vectors give it to OptionalVectors. */
export interface EmbeddingsApi extends VectorSource {
  readonly provider: EmbeddingsProvider;
  /** The model asked for; null with provider `none`. */
  readonly model: string | null;
  /** The length of every vector; null with provider `none`. */
  readonly dimensions: number | null;
  /**
   * A name for the vector space of this provider, model and dimensions (`^[a-z0-9_]{1,24}$`):
   * vectors with the same space are comparable. A plugin names its vector index with it, so
   * another model gives another index instead of mixing vectors. Null with provider `none`.
   */
  readonly space: string | null;
  /**
   * One vector per text, in order. Texts already embedded with this model come from the
   * cache; the others are sent in batches through the `embeddings:provider` breaker.
   * Rejects with EMBEDDINGS_DISABLED (provider `none`), EMBEDDINGS_INPUT_INVALID (too many
   * texts, an empty or oversized one), EMBEDDINGS_PROVIDER_FAILED (the provider answered an
   * error or something that is not embeddings), EMBEDDINGS_DIMENSION_MISMATCH (vectors of
   * another length: nothing is cached), BREAKER_OPEN or BREAKER_TIMEOUT.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
  /**
   * `embed` for a caller that goes on without vectors when there are none (search by words):
   * not ready, the provider down or refusing, anything but a wrong vector length is an answer
   * with the reason (and logged here). Throws only EMBEDDINGS_DIMENSION_MISMATCH (such vectors
   * would poison an index) and the caller's abort.
   */
  tryEmbed(texts: readonly string[], options?: EmbedOptions): Promise<EmbedOutcome>;
  /** Cheap and synchronous: false with the reason when the provider is `none` or its breaker is open. */
  readiness(): EmbeddingsReadiness;
}

declare module '@mcp-gateway/core' {
  interface PluginApis {
    embeddings: EmbeddingsApi;
  }
}
