// The upstream plugin: existing MCP servers (stdio or Streamable HTTP) federated into the
// gateway's one catalog, so every transport, the REST bridge, keys, audit and metrics apply to
// their tools, resources and prompts. README.md has the configuration and behaviour.
import { definePlugin } from '../../core/index.js';
import { configSchema } from './config.js';
import { runUpstreamCommand } from './config-command.js';
import { upstreamErrors } from './errors.js';

export type { UpstreamConfig } from './config.js';

const VERSION = '0.1.0';

export default definePlugin({
  name: 'upstream',
  version: VERSION,
  description: 'Existing MCP servers, over stdio or Streamable HTTP, federated into the one catalog.',
  configSchema,
  errors: upstreamErrors,
  configCommand: runUpstreamCommand,
  async setup(ctx) {
    // Loaded here, not above: the config command reads this object without setting it up.
    const { federate } = await import('./federation.js');
    await federate(ctx, VERSION);
  },
});
