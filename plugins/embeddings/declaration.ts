// What the embeddings plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { embeddingsErrors } from './errors.js';

export const declared = {
  name: 'embeddings',
  version: '0.1.0',
  description: 'Text to vectors through a configured provider (OpenAI-compatible or Ollama), cached, behind a circuit breaker.',
  configSchema,
  errors: embeddingsErrors,
  services: [
    {
      name: 'provider',
      description: "the embedding provider of plugins.embeddings.config (an OpenAI-compatible /embeddings endpoint or Ollama's /api/embed)",
    },
  ],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type EmbeddingsContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = EmbeddingsContext['error'];
