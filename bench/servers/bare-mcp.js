// The bare baseline: SDK v2's low-level Server with the bench echo handler and nothing
// else: no validation, no audit, no metrics, no catalog. Plain JavaScript so that the bare
// child process runs on plain `node`, exactly like the compiled gateway binary.
import { Server } from '@modelcontextprotocol/server';
import { echoDescription, echoInputSchema, echoMcpResult, ECHO_TOOL } from '../plugins/bench-echo/echo.js';

const tools = [
  {
    name: ECHO_TOOL,
    title: 'Echo',
    description: echoDescription,
    inputSchema: echoInputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
];

/** One bare Server (the SDK allows one connection per Server). */
export function createBareServer() {
  const server = new Server({ name: 'bare-sdk-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => {
    if (request.params.name !== ECHO_TOOL) throw Object.assign(new Error('Unknown tool'), { code: -32602 });
    return echoMcpResult(request.params.arguments ?? {});
  });
  return server;
}
