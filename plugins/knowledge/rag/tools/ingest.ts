// rag_ingest: a file or folder of the workspace into a collection.
import type { ToolDefinition } from '@mcp-gateway/core';
import { ingest, MAX_SKIPPED_LISTED } from '../ingest.js';
import { collectionArg, count, globs } from '../schemas.js';
import type { RagToolDeps } from './deps.js';

const ragIngest = {
  name: 'rag_ingest',
  title: 'Ingest documents into a collection',
  description:
    'Reads a workspace file or folder into a collection for rag_query, honouring .gitignore and skipping binary, linked and oversized files. ' +
    'Run it again after changes: only changed files are read again, deleted ones dropped.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1, maxLength: 4096 },
      collection: collectionArg,
      recreate: { type: 'boolean', default: false },
      include: globs('Globs on the path below the folder or the name, e.g. ["**/*.md"].'),
      exclude: globs(),
    },
    examples: [{ path: '../outside-the-workspace.txt', collection: 'docs' }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['collection', 'files', 'chunks', 'vectors', 'ms'],
    properties: {
      collection: { type: 'string' },
      files: {
        type: 'object',
        additionalProperties: false,
        required: ['seen', 'ingested', 'unchanged', 'removed', 'skipped', 'skipped_count'],
        properties: {
          seen: count,
          ingested: count,
          unchanged: count,
          removed: { ...count, description: 'Sources dropped: gone from the folder, or skipped now.' },
          skipped: {
            type: 'array',
            maxItems: MAX_SKIPPED_LISTED,
            items: { type: 'object', additionalProperties: false, required: ['path', 'reason'], properties: { path: { type: 'string' }, reason: { type: 'string' } } },
          },
          skipped_count: count,
        },
      },
      chunks: { type: 'object', additionalProperties: false, required: ['added', 'removed'], properties: { added: count, removed: count } },
      vectors: {
        type: 'object',
        additionalProperties: false,
        required: ['stored', 'filled'],
        properties: {
          stored: { type: 'boolean', description: 'Whether the chunks have vectors; false: they are found by their words only, for the reason given.' },
          reason: { type: 'string' },
          filled: { ...count, description: 'Chunks of earlier ingests given the vectors they lacked.' },
        },
      },
      truncated: { type: 'string', description: 'Why the ingest stopped short (maxFiles, maxIngestBytes); no source was removed then.' },
      ms: count,
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  timeoutMs: 30 * 60_000,
  // A 2026-07-28 client that declares the tasks extension polls a long run instead of holding its request open.
  taskSupport: 'optional',
} as const satisfies ToolDefinition;

export function registerIngestTool(deps: RagToolDeps): void {
  const { ctx } = deps;
  ctx.tool(ragIngest, (args, call) =>
    ingest(
      { rows: deps.rows, index: deps.index, vectors: deps.vectors, workspace: ctx.workspace, config: deps.config, raise: ctx.error },
      { path: args.path, collection: args.collection, recreate: args.recreate, ...(args.include ? { include: args.include } : {}), ...(args.exclude ? { exclude: args.exclude } : {}) },
      call,
    ),
  );
}
