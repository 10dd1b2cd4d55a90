import type { Logger } from '@mcp-gateway/core';
import type { EmbedOptions, EmbedOutcome } from './api.js';
import type { Embedder } from './embedder.js';

/** Failures that concern the texts sent, not the provider's health. */
function refusedTexts(err: unknown): boolean {
  const { code, details } = err as { code?: unknown; details?: { status?: unknown } };
  return code === 'EMBEDDINGS_INPUT_INVALID' || (code === 'EMBEDDINGS_PROVIDER_FAILED' && [400, 413, 422].includes(details?.status as number));
}

/** `tryEmbed` of the API (api.ts): vectors, or none and why. */
export async function tryEmbed(embedder: Embedder, log: Logger, texts: readonly string[], options: EmbedOptions = {}): Promise<EmbedOutcome> {
  const readiness = embedder.readiness();
  if (!readiness.ok) return { vectors: null, reason: readiness.reason ?? 'embeddings unavailable' };
  if (texts.length === 0) return { vectors: [] };
  try {
    return { vectors: (await embedder.embed(texts, options)).vectors };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'EMBEDDINGS_DIMENSION_MISMATCH' || options.signal?.aborted) throw err;
    log.warn({ err, code }, 'embedding failed; the caller goes on by words');
    const reason = `embeddings failed (${String(code ?? 'error')}: ${err instanceof Error ? err.message : String(err)})`;
    return { vectors: null, reason, ...(refusedTexts(err) ? { refused: true } : {}) };
  }
}
