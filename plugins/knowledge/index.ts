// The knowledge plugin: a knowledge graph of the codebase whose claims cite evidence checked
// against the files, found by full-text and vector search together; and document collections
// for retrieval-augmented generation. README.md has the tools.
import { definePlugin, OptionalVectors } from '@mcp-gateway/core';
import type {} from '@mcp-gateway/plugin-embeddings/api';
import { declared } from './declaration.js';
import { graphMigrations } from './graph/schema.js';
import { registerGraph } from './graph/register.js';
import { ragMigrations, registerRagTools } from './rag/index.js';

export type { KnowledgeConfig } from './config.js';

export default definePlugin({
  ...declared,
  async setup(ctx) {
    // One list of steps for the plugin: the store records one version per plugin. Append
    // only: the graph's steps, then the RAG collections'.
    await ctx.store.migrate([...graphMigrations, ...ragMigrations]);
    const vectors = new OptionalVectors(ctx.api('embeddings'));
    await registerGraph(ctx, vectors);
    registerRagTools({ ctx, vectors });
  },
});
