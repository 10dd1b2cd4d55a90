import { MissingRequiredClientCapabilityError, type CallToolResult, type InputRequiredResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { toMcpResult } from '../catalog/tool-result.js';
import type { GatewayError } from '../errors.js';
import { toolErrorResult } from '../replies.js';
import { requestHooks, type RequestAsking } from './mcp-content.js';
import { withNotes, type ToolCallHost } from './mcp-tool-calls.js';
import { rpcFailure } from './rpc-failure.js';

/** A 2026-07-28 tools/call host: each call asks its client through its request's own round. */
export interface ModernToolCallHost extends Omit<ToolCallHost, 'client'> {
  readonly asking: (ctx: ServerContext, tool: string, args: unknown) => RequestAsking;
}

/**
 * Answers tools/call through the SDK's Server, as a request handler: for a 2026-07-28 request,
 * whose result the SDK must stamp (`resultType`, `serverInfo`) after checking its `_meta`
 * envelope. A 2025-era session answers tools/call on its own stage ahead of the SDK
 * (mcp-tool-calls.ts); the call itself, the catalog's, is the same. The params were checked
 * by the gate's param checks (param-checks.ts) before the SDK parsed them. A call that asks
 * the client ends with the questions (an InputRequiredResult, input-round.ts); one that needs
 * a capability the request does not declare gets the revision's -32021.
 */
export function serveToolCalls(server: Server, host: ModernToolCallHost): void {
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const { name, arguments: args } = request.params;
    const caller = host.caller(ctx);
    const asking = host.asking(ctx, name, args ?? {});
    const outcome = await host.catalog.call(name, args, {
      caller,
      allows: host.allows,
      profile: host.profile,
      client: asking.client,
      requestId: ctx.mcpReq.id,
      ...requestHooks(ctx),
    });
    if (!outcome.ok) {
      const questions = asking.inputRequired(ctx, outcome.error);
      if (questions) return questions;
      const missing = missingCapability(outcome.error);
      if (missing) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [missing]: {} } }, outcome.error.message);
      if (host.errors.get(outcome.error.code)?.mcp === 'protocol') throw rpcFailure(outcome.error, host.errors);
      return toolErrorResult(outcome.error);
    }
    const result = toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json);
    return withNotes(result, host.notes?.(caller, name) ?? []);
  });
}

/**
 * The capability a call needed and the request did not declare (CLIENT_CAPABILITY_MISSING
 * names it in `details.capability`), answered as the revision's -32021, whose
 * `data.requiredCapabilities` names it as a capabilities object.
 */
function missingCapability(error: GatewayError): string | undefined {
  if (error.code !== 'CLIENT_CAPABILITY_MISSING') return undefined;
  const capability = (error.details as { capability?: unknown } | undefined)?.capability;
  return typeof capability === 'string' ? capability : undefined;
}
