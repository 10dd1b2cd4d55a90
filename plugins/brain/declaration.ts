// What the brain plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { brainErrors } from './errors.js';

export const declared = {
  name: 'brain',
  version: '0.1.0',
  description: 'Long-term memories for agents: remember, recall, forget, list — in the shared store, or in a shared brain on another server.',
  configSchema,
  errors: brainErrors,
  uses: ['embeddings'],
  services: [
    {
      name: 'remote',
      description: "the remote brain of plugins.brain.config.remote (another mcp-gateway's REST bridge, or an OpenBrain API) with backend remote",
    },
  ],
  channels: ['brain.remember.complete', 'brain.recall.complete', 'brain.forget.complete', 'brain.list.complete'],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type BrainContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = BrainContext['error'];
