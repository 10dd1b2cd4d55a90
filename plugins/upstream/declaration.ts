// What the upstream plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
// Only the schema and the codes come in: index.ts loads federation.ts in setup alone.
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { upstreamErrors } from './errors.js';

export const declared = {
  name: 'upstream',
  version: '0.1.0',
  description: 'Existing MCP servers, over stdio or Streamable HTTP, federated into the one catalog.',
  configSchema,
  errors: upstreamErrors,
  // One breaker per configured server, upstream:<server name>.
  services: [{ name: '*', description: 'the upstream MCP servers of plugins.upstream.config.servers' }],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type UpstreamContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = UpstreamContext['error'];
