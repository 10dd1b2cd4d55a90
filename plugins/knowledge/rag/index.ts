// The RAG collections of the knowledge plugin: rag_ingest, rag_query, rag_retrieve,
// rag_collections, rag_delete.
import type { OptionalVectors, PluginStore } from '@mcp-gateway/core';
import type { KnowledgeContext } from '../declaration.js';
import { RagIndex } from './rag-index.js';
import { RagStore, type RagTables } from './rag-store.js';
import { registerCollectionTools } from './tools/collections.js';
import { registerIngestTool } from './tools/ingest.js';
import { registerQueryTools } from './tools/query.js';

export { ragMigrations } from './rag-store.js';

/**
 * Registers the rag_ tools. Call it in setup after the plugin's store migrations ran (they
 * include `ragMigrations`). The search index is opened on first use.
 */
export function registerRagTools({ ctx, vectors }: { ctx: KnowledgeContext; vectors: OptionalVectors }): void {
  const rows = new RagStore(ctx.store as PluginStore<RagTables>);
  const index = new RagIndex({ store: ctx.store, rows, vectors, log: ctx.log });
  const deps = { ctx, rows, index, vectors, config: ctx.config.rag };
  registerIngestTool(deps);
  registerQueryTools(deps);
  registerCollectionTools(deps);
}
