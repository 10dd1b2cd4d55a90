// The upstream plugin: existing MCP servers (stdio or Streamable HTTP) federated into the
// gateway's one catalog, so every transport, the REST bridge, keys, audit and metrics apply to
// their tools, resources and prompts. README.md has the configuration and behaviour.
import { definePlugin } from '@mcp-gateway/core';
import { runUpstreamCommand } from './config-command.js';
import { declared } from './declaration.js';

export type { UpstreamConfig } from './config.js';

export default definePlugin({
  ...declared,
  configCommand: runUpstreamCommand,
  async setup(ctx) {
    // Loaded here, not above: the config command reads this object without setting it up.
    const { federate } = await import('./federation.js');
    await federate(ctx, declared.version);
  },
});
