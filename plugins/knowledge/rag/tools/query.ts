// rag_query and rag_retrieve: reading a collection.
import type { ToolDefinition } from '@mcp-gateway/core';
import { normaliseSource, query } from '../query.js';
import { searchModeArg } from '../../search-mode.js';
import { chunkShape, collectionArg, sourcePath } from '../schemas.js';
import type { RagToolDeps } from './deps.js';

const ragQuery = {
  name: 'rag_query',
  title: 'Query a document collection',
  description:
    'Searches a rag_ingest collection for the chunks that best answer a question, by words and meaning. context joins them into one block to paste into a prompt.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['question'],
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 10_000 },
      collection: collectionArg,
      top_k: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      source: sourcePath,
      mode: searchModeArg,
    },
    examples: [{ question: 'How do I install it?', collection: 'docs' }, { question: 'workspace examples', collection: 'docs', top_k: 3, source: 'README.md' }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['query', 'collection', 'mode', 'results', 'context'],
    properties: {
      query: { type: 'string' },
      collection: { type: 'string' },
      mode: { enum: ['lexical', 'vector', 'hybrid'] },
      degraded: { type: 'string', description: 'Why the search is not fully hybrid: no embeddings, provider down, chunks still without vectors.' },
      results: { type: 'array', items: { ...chunkShape, required: [...chunkShape.required, 'score'] } },
      context: { type: 'string' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const ragRetrieve = {
  name: 'rag_retrieve',
  title: 'Read one source of a collection',
  description:
    'Reads one source of a collection, chunks in order: the whole document rag_query found part of. Paged: pass next_offset as offset.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['source'],
    properties: {
      source: sourcePath,
      collection: collectionArg,
      limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 200 },
      offset: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 0 },
    },
    examples: [{ source: 'README.md', collection: 'docs' }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['source', 'collection', 'chunks', 'count', 'total', 'next_offset'],
    properties: {
      source: { type: 'string' },
      collection: { type: 'string' },
      chunks: { type: 'array', items: chunkShape },
      count: { type: 'integer', minimum: 0 },
      total: { type: 'integer', minimum: 0, description: 'Chunks the source has; more than count when the list was paged.' },
      next_offset: { type: ['integer', 'null'], description: 'The offset of the next page; null on the last.' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerQueryTools(deps: RagToolDeps): void {
  const { ctx, rows } = deps;
  ctx.tool(ragQuery, (args, call) =>
    query(
      { rows, index: deps.index, vectors: deps.vectors, batchSize: deps.config.batchSize, raise: ctx.error },
      { question: args.question, collection: args.collection, top_k: args.top_k, mode: args.mode, ...(args.source !== undefined ? { source: args.source } : {}) },
      call.signal,
    ),
  );

  ctx.tool(ragRetrieve, async (args) => {
    await rows.collectionOrThrow(args.collection, ctx.error);
    const source = normaliseSource(args.source);
    const row = await rows.source(args.collection, source);
    if (!row) {
      throw ctx.error('RAG_SOURCE_NOT_FOUND', `Collection "${args.collection}" holds no source "${source}". Sources are paths relative to the workspace, as rag_query results name them.`, {
        collection: args.collection,
        source,
      });
    }
    const chunks = await rows.chunksOf(args.collection, source, args.limit, args.offset);
    const next = args.offset + chunks.length;
    return {
      source,
      collection: args.collection,
      chunks: chunks.map((c) => ({ content: c.content, source: c.source, section: c.section, chunk_index: c.chunk_index })),
      count: chunks.length,
      total: row.chunks,
      next_offset: chunks.length > 0 && next < row.chunks ? next : null,
    };
  });
}
