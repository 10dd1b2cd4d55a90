import type { ToolDefinition } from '@mcp-gateway/core';
import type { EmbeddingsContext } from '../declaration.js';
import type { Embedder } from '../embedder.js';
import type { ProviderSettings } from '../settings.js';

const embed = {
  name: 'embeddings_embed',
  title: 'Embed texts',
  description:
    'Turns 1 to 64 texts into vectors with the configured embedding provider and model, texts seen before answered from the cache (cached counts them). For checking a provider and its settings; plugins use the embeddings API directly. Fails with EMBEDDINGS_DISABLED when no provider is configured, EMBEDDINGS_INPUT_INVALID, EMBEDDINGS_PROVIDER_FAILED, EMBEDDINGS_DIMENSION_MISMATCH, BREAKER_OPEN or BREAKER_TIMEOUT.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['texts'],
    properties: {
      texts: { type: 'array', minItems: 1, maxItems: 64, items: { type: 'string', minLength: 1 }, description: 'The texts, each at most maxInputChars characters.' },
      purpose: {
        enum: ['document', 'query'],
        default: 'document',
        description: 'document: text to be found; query: a question to search with. Decides the prefix some models want (queryPrefix, documentPrefix).',
      },
    },
    examples: [{ texts: ['How do I roll back a deploy?'], purpose: 'query' }, { texts: ['Deploys are rolled back with make rollback.', 'The cache is bounded.'] }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['provider', 'model', 'dimensions', 'space', 'vectors', 'cached'],
    properties: {
      provider: { enum: ['openai', 'ollama'] },
      model: { type: 'string' },
      dimensions: { type: 'integer', description: 'The length of every vector.' },
      space: { type: 'string', description: 'Names the vector space of this provider, model, dimensions and prefixes: vectors of one space are comparable.' },
      vectors: { type: 'array', items: { type: 'array', items: { type: 'number' } }, description: 'One vector per text, in order.' },
      cached: { type: 'integer', description: 'How many of the texts were answered from the cache.' },
    },
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export interface EmbedToolDeps {
  readonly ctx: EmbeddingsContext;
  readonly embedder: Embedder;
  readonly settings: ProviderSettings | undefined;
}

export function registerEmbedTool({ ctx, embedder, settings }: EmbedToolDeps): void {
  ctx.tool(embed, async (args, call) => {
    // With no provider this throws EMBEDDINGS_DISABLED before settings are needed.
    const { vectors, cached } = await embedder.embed(args.texts, { purpose: args.purpose, signal: call.signal });
    const { provider, model, dimensions, space } = settings!;
    return { provider, model, dimensions, space, vectors, cached };
  });
}
