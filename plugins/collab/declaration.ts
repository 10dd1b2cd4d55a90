// What the collab plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { collabErrors } from './errors.js';

export const declared = {
  name: 'collab',
  version: '0.1.0',
  description: 'Agents that work together: presence, messages, tasks with dependencies, plans, file locks, handoffs and reviews, workers the gateway starts, a watchdog.',
  configSchema,
  errors: collabErrors,
  requires: ['process'],
  channels: [
    'collab.message', // a message reached one of the session's agents
    'collab.task', // someone else created, assigned, handed off or cancelled its task
  ],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type CollabContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = CollabContext['error'];
