// The knowledge plugin: a knowledge graph of the codebase whose claims cite evidence checked
// against the files, found by full-text and vector search together; and document collections
// for retrieval-augmented generation. README.md has the tools.
import { definePlugin, OptionalVectors } from '../../core/index.js';
import type {} from '../embeddings/api.js';
import { configSchema } from './config.js';
import { knowledgeErrors } from './errors.js';
import { graphMigrations } from './graph/schema.js';
import { registerGraph } from './graph/register.js';
import { ragMigrations, registerRagTools } from './rag/index.js';

export type { KnowledgeConfig } from './config.js';

export default definePlugin({
  name: 'knowledge',
  version: '0.1.0',
  description: 'A verified knowledge graph of the codebase with hybrid search, and document collections for RAG.',
  configSchema,
  errors: knowledgeErrors,
  uses: ['embeddings'],
  async setup(ctx) {
    // One list of steps for the plugin: the store records one version per plugin. Append
    // only: the graph's steps, then the RAG collections'.
    await ctx.store.migrate([...graphMigrations, ...ragMigrations]);
    const vectors = new OptionalVectors(ctx.api('embeddings'));
    await registerGraph(ctx, vectors);
    registerRagTools({ ctx, vectors });
  },
});
