import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import { toMcpResult } from '../catalog/tool-result.js';
import { toolErrorResult } from '../replies.js';
import { requestHooks } from './mcp-content.js';
import { withNotes, type ToolCallHost } from './mcp-tool-calls.js';
import { requestClientLink } from './request-client-link.js';
import { rpcFailure } from './rpc-failure.js';

/**
 * Answers tools/call through the SDK's Server, as a request handler: for a 2026-07-28 request,
 * whose result the SDK must stamp (`resultType`, `serverInfo`) after checking its `_meta`
 * envelope. A 2025-era session answers tools/call on its own stage ahead of the SDK
 * (mcp-tool-calls.ts); the call itself, the catalog's, is the same. The params were checked
 * by the gate's param checks (param-checks.ts) before the SDK parsed them. Each call gets the
 * client link of its own request (request-client-link.ts).
 */
export function serveToolCalls(server: Server, host: ToolCallHost): void {
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const caller = host.caller(ctx);
    const outcome = await host.catalog.call(name, args, {
      caller,
      allows: host.allows,
      profile: host.profile,
      client: requestClientLink(ctx, host.log),
      requestId: ctx.mcpReq.id,
      ...requestHooks(ctx),
    });
    if (!outcome.ok) {
      if (host.errors.get(outcome.error.code)?.mcp === 'protocol') throw rpcFailure(outcome.error, host.errors);
      return toolErrorResult(outcome.error);
    }
    const result = toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json);
    return withNotes(result, host.notes?.(caller, name) ?? []);
  });
}
