// rag_collections and rag_delete: the collections themselves.
import type { ToolDefinition } from '@mcp-gateway/core';
import { normaliseSource } from '../query.js';
import { collectionName, count, sourcePath } from '../schemas.js';
import type { RagToolDeps } from './deps.js';

const ragCollections = {
  name: 'rag_collections',
  title: 'List document collections',
  description:
    'Lists document collections with their sizes and vector space (null: words only). Paged: pass next_offset as offset.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
      offset: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 0 },
    },
    examples: [{}],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['collections', 'total', 'next_offset'],
    properties: {
      total: { ...count, description: 'Collections there are.' },
      next_offset: { type: ['integer', 'null'], description: 'The offset of the next page; null on the last.' },
      collections: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'sources', 'chunks', 'bytes', 'updated_at', 'vector_space'],
          properties: {
            name: { type: 'string' },
            sources: count,
            chunks: count,
            bytes: count,
            updated_at: { type: 'string' },
            vector_space: { type: ['string', 'null'] },
          },
        },
      },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const ragDelete = {
  name: 'rag_delete',
  title: 'Delete a collection or one of its sources',
  description:
    'Deletes a collection, or with source only that source\'s chunks. The files are not touched.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['collection'],
    properties: {
      collection: collectionName,
      source: sourcePath,
    },
    examples: [{ collection: 'docs', source: '../outside-the-workspace.txt' }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['collection', 'deleted'],
    properties: {
      collection: { type: 'string' },
      source: { type: 'string' },
      deleted: { type: 'object', additionalProperties: false, required: ['sources', 'chunks'], properties: { sources: count, chunks: count } },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerCollectionTools(deps: RagToolDeps): void {
  const { ctx, rows, index } = deps;
  ctx.tool(ragCollections, async ({ limit, offset }) => {
    const page = await rows.stats(limit, offset);
    const next = offset + page.collections.length;
    return {
      collections: page.collections.map((c) => ({
        name: c.name,
        sources: c.sources,
        chunks: c.chunks,
        bytes: c.bytes,
        updated_at: c.updated_at,
        vector_space: c.index_name === 'rag_text' ? null : c.index_name.slice('rag_'.length),
      })),
      total: page.total,
      next_offset: page.collections.length > 0 && next < page.total ? next : null,
    };
  });

  ctx.tool(ragDelete, async (args) => {
    const collection = await rows.collectionOrThrow(args.collection, ctx.error);
    if (args.source === undefined) {
      const gone = await rows.deleteCollection(args.collection);
      await index.remove(collection, gone.ids);
      return { collection: args.collection, deleted: { sources: gone.sources, chunks: gone.ids.length } };
    }
    const source = normaliseSource(args.source);
    const ids = await rows.deleteSource(args.collection, source);
    if (ids === undefined) {
      throw ctx.error('RAG_SOURCE_NOT_FOUND', `Collection "${args.collection}" holds no source "${source}".`, { collection: args.collection, source });
    }
    await index.remove(collection, ids);
    return { collection: args.collection, source, deleted: { sources: 1, chunks: ids.length } };
  });
}
