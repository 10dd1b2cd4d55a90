// What the knowledge plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { knowledgeErrors } from './errors.js';

export const declared = {
  name: 'knowledge',
  version: '0.1.0',
  description: 'A verified knowledge graph of the codebase with hybrid search, and document collections for RAG.',
  configSchema,
  errors: knowledgeErrors,
  uses: ['embeddings'],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type KnowledgeContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = KnowledgeContext['error'];
