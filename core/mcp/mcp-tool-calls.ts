import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/server';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Caller } from '../contract/plugin-types.js';
import type { CallOutcome, RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import type { Profile } from '../catalog/profiles.js';
import { toMcpResult, toRestData } from '../catalog/tool-result.js';
import type { ClientLink } from '../catalog/client-link.js';
import { jsonRpcError, toolCallResponse, withJsonText, type RequestId } from '../contract/replies.js';
import type { CallAnswerer } from './call-stage.js';
import { toolCallProblem } from './param-checks.js';
import type { RequestContext } from '../sessions/input-round.js';


export interface ToolCallHost {
  readonly catalog: ToolCatalog;
  readonly errors: ErrorTable;
  readonly log: Logger;
  /** Who is calling; asked per call, since `initialize` may name the client after connect (ContentSession.caller). */
  readonly caller: (ctx?: RequestContext) => Caller;
  readonly allows?: (tool: RegisteredTool) => boolean;
  readonly profile?: Profile;
  /** How a call asks this session's client (sampling, elicitation) or logs to it. */
  readonly client?: ClientLink;
  /** Lines plugins append to a successful result (ctx.sessions.resultNote), as more text blocks. */
  readonly notes?: (caller: Caller, tool: string) => string[];
}

/**
 * How a 2025-era session's tool-call stage (call-stage.ts) answers tools/call: every one,
 * straight from the catalog, the params checked first as the SDK would check them.
 */
export function sessionToolCalls(host: ToolCallHost): CallAnswerer {
  return ({ id, params }) => {
    const problem = toolCallProblem(params);
    if (problem !== undefined) return async () => jsonRpcError(id, new GatewayError('INVALID_PARAMS', `Invalid tools/call params: ${problem}.`), host.errors);
    const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> };
    const caller = host.caller();
    return (hooks) =>
      host.catalog
        .call(name, args, { caller, allows: host.allows, profile: host.profile, client: host.client, requestId: id, ...hooks })
        .then((outcome) => responseOf(id, outcome, host.errors, outcome.ok && host.notes ? host.notes(caller, name) : []));
  };
}

/** A catalog outcome as the JSON-RPC response: a result, an isError result or a protocol error. */
function responseOf(id: RequestId, outcome: CallOutcome, errors: ErrorTable, notes: readonly string[]): JSONRPCMessage {
  if (!outcome.ok) return toolCallResponse(id, outcome, errors);
  const result = withNotes(toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json), notes);
  const response = toolCallResponse(id, { ok: true, result }, errors);
  // The structured value was serialised once already (`outcome.json`, also the text block of a
  // plain value): it goes into the message's text as it is. For a listing that is half the work.
  if (!isSerialisedOnce(result, outcome)) return response;
  const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":${JSON.stringify(result.content)},"structuredContent":${outcome.json}}}`;
  return withJsonText(response, text);
}

/** Whether `result`'s structured content is the outcome's value as `outcome.json` holds it, text already made. */
function isSerialisedOnce(result: CallToolResult, outcome: CallOutcome & { ok: true }): boolean {
  return result.structuredContent !== undefined && result.structuredContent === toRestData(outcome.value);
}

/** `result` with the plugins' notes (ctx.sessions.resultNote) appended as text blocks. */
export function withNotes(result: CallToolResult, notes: readonly string[]): CallToolResult {
  if (notes.length > 0) result.content = [...result.content, ...notes.map((text) => ({ type: 'text' as const, text }))];
  return result;
}
