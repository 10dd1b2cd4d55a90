import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const embeddingsErrors = {
  EMBEDDINGS_DISABLED: {
    status: 409,
    mcp: 'result',
    description:
      'No embedding provider is configured: set plugins.embeddings.config.provider (openai or ollama) with model and dimensions. Searches that use embeddings stay lexical meanwhile.',
  },
  EMBEDDINGS_INPUT_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'The texts cannot be embedded as given: too many for one call, or one empty or longer than maxInputChars (details name its index and length).',
  },
  EMBEDDINGS_PROVIDER_FAILED: {
    status: 502,
    mcp: 'result',
    description:
      "The embedding provider could not be reached, refused the request (a bad key, an unknown model: details.status and its message) or answered something that is not embeddings.",
  },
  EMBEDDINGS_DIMENSION_MISMATCH: {
    status: 502,
    mcp: 'result',
    description:
      "The provider answered vectors of another length than the configured dimensions: set dimensions to the model's length (details.got). Nothing was cached or returned.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type EmbeddingsErrorCode = keyof typeof embeddingsErrors;
