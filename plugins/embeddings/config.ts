import type { ConfigType } from '@mcp-gateway/core';

/** The plugin's section of gateway.config.yaml (see README.md); `EmbeddingsConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    provider: {
      enum: ['none', 'openai', 'ollama'],
      default: 'none',
      description:
        "Who makes the vectors. none: nobody (searches stay lexical); openai: any OpenAI-compatible POST <url>/embeddings (OpenAI, Ollama's /v1, LM Studio, vLLM, llama.cpp's server); ollama: Ollama's native POST <url>/api/embed.",
    },
    url: {
      type: 'string',
      pattern: '^https?://',
      description: 'Base URL of the provider. Default: https://api.openai.com/v1 (openai), http://127.0.0.1:11434 (ollama).',
    },
    model: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The embedding model, e.g. text-embedding-3-small (openai) or nomic-embed-text (ollama). Required unless provider is none.',
    },
    dimensions: {
      type: 'integer',
      minimum: 1,
      // The shared store's search indexes (ctx.store.search) hold vectors of 1 to 4,096 numbers:
      // a longer length would pass here and stop the boot in the plugin that opens its index.
      maximum: 4096,
      description:
        "The length of the model's vectors (nomic-embed-text 768, text-embedding-3-small 1536, all-minilm 384), at most 4096: the shared store's search indexes hold no longer vectors (shorten a larger model's with sendDimensions). Required unless provider is none.",
    },
    sendDimensions: {
      type: 'boolean',
      default: false,
      description: 'Send dimensions in the request, for models that can shorten their vectors (text-embedding-3-*).',
    },
    apiKeyEnv: {
      type: 'string',
      pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$',
      description:
        "The environment variable holding the API key, sent as Authorization: Bearer. Default: OPENAI_API_KEY for provider openai at its default URL (OpenAI itself), else none: a key is sent to another server only when named here; '' sends no key.",
    },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      default: {},
      description: 'Extra headers sent with every request (write secrets as ${VAR}).',
    },
    queryPrefix: { type: 'string', maxLength: 200, default: '', description: "Put before every text embedded as a query (nomic-embed-text wants 'search_query: ')." },
    documentPrefix: {
      type: 'string',
      maxLength: 200,
      default: '',
      description: "Put before every text embedded as a document (nomic-embed-text wants 'search_document: ').",
    },
    batchSize: { type: 'integer', minimum: 1, maximum: 2048, default: 64, description: 'Texts sent in one request at most.' },
    timeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 600_000,
      default: 30_000,
      description: 'A request slower than this is aborted (BREAKER_TIMEOUT) and counts against the provider.',
    },
    maxInputChars: { type: 'integer', minimum: 1, maximum: 10_000_000, default: 32_000, description: 'A longer text is refused (EMBEDDINGS_INPUT_INVALID).' },
    maxTexts: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 2048, description: 'Texts in one embed call at most.' },
    cache: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Vectors already made, kept in the shared store by vector space and text hash.',
      properties: {
        enabled: { type: 'boolean', default: true, description: 'Keep vectors and answer texts seen before from the store.' },
        maxEntries: {
          type: 'integer',
          minimum: 1,
          maximum: 100_000_000,
          default: 100_000,
          description: 'Vectors kept at most; past it the least recently used are removed, a tenth at a time.',
        },
      },
    },
  },
} as const;

export type EmbeddingsConfig = ConfigType<typeof configSchema>;
