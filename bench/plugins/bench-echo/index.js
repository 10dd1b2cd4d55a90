// The bench plugin: one trivial tool (bench_echo) and, for the catalog-growth runs, as many
// synthetic tools as `tools` asks for. Plain JavaScript importing only the package's public
// entry, so the compiled `mcp-gateway` binary loads it the way it loads a third-party plugin.
import { definePlugin } from '@mcp-gateway/core';
import { echo, echoDescription, echoInputSchema, ECHO_TOOL, syntheticTool } from './echo.js';

const annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export default definePlugin({
  name: 'bench-echo',
  version: '1.0.0',
  description: 'A trivial echo tool (and optional synthetic tools) for benchmarks.',
  configSchema: {
    type: 'object',
    properties: {
      // Total tools this plugin records: bench_echo plus `tools - 1` synthetic ones.
      tools: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    },
  },
  setup(ctx) {
    ctx.tool({ name: ECHO_TOOL, title: 'Echo', description: echoDescription, inputSchema: echoInputSchema, annotations }, echo);
    for (let i = 1; i < ctx.config.tools; i++) {
      ctx.tool({ ...syntheticTool(i), annotations }, echo);
    }
  },
});
