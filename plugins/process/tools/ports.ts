// process_free_port: a port for a dev server to listen on.
import { createServer } from 'node:net';
import type { ToolDefinition } from '@mcp-gateway/core';
import type { ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const HOST = '127.0.0.1';

const processFreePort = {
  name: 'process_free_port',
  title: 'Find a free port',
  description:
    'Returns a TCP port free on 127.0.0.1 now, for a server you start (record it in process_start ports too). ' +
    'Use it soon: another program could take it.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: processResults.process_free_port,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerPortTools({ ctx, supervisor }: ProcessToolDeps): void {
  ctx.tool(processFreePort, async () => {
    const recorded = new Set(supervisor.list({ runningOnly: true, tags: {}, limit: 500 }).flatMap((row) => JSON.parse(row.ports) as number[]));
    for (let attempt = 0; ; attempt++) {
      const port = await ephemeralPort();
      if (!recorded.has(port) || attempt >= 20) return { port, host: HOST };
    }
  });
}

/** Lets the kernel pick a free port by binding port 0, then releases it. */
function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
