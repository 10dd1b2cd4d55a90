// What the process plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { processErrors } from './errors.js';

export const declared = {
  name: 'process',
  version: '0.1.0',
  description: 'Start, follow, talk to and stop long-running processes (dev servers, watchers, test runs).',
  configSchema,
  errors: processErrors,
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type ProcessContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = ProcessContext['error'];
