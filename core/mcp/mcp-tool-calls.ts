import type { CallToolResult, JSONRPCMessage, ServerContext, TransportSendOptions } from '@modelcontextprotocol/server';
import { GatewayError, type ErrorTable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Caller } from '../plugins/plugin-types.js';
import type { CallOutcome, RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import type { Profile } from '../catalog/profiles.js';
import { toMcpResult, toRestData } from '../catalog/tool-result.js';
import type { ClientLink } from '../catalog/client-link.js';
import { jsonRpcError, toolCallResponse, withJsonText } from '../replies.js';
import { isToolCallMessage, type ToolCallMessage } from './tool-call-message.js';
import { toolCallProblem } from './param-checks.js';

type RequestId = string | number;

export interface ToolCallHost {
  readonly catalog: ToolCatalog;
  readonly errors: ErrorTable;
  readonly log: Logger;
  /** Who is calling; asked per call, since `initialize` may name the client after connect (ContentSession.caller). */
  readonly caller: (ctx?: ServerContext) => Caller;
  readonly allows?: (tool: RegisteredTool) => boolean;
  readonly profile?: Profile;
  /** How a call asks this session's client (sampling, elicitation) or logs to it. */
  readonly client?: ClientLink;
  /** Lines plugins append to a successful result (ctx.sessions.resultNote), as more text blocks. */
  readonly notes?: (caller: Caller, tool: string) => string[];
}

/**
 * Answers tools/call requests straight from the catalog, ahead of the SDK Server, which parses
 * every request with zod several times and makes an AbortController for each: measured in
 * process, a bare SDK server answers about half the calls a second this path does (SDK 1.32
 * and 2.4 alike). Everything else (initialize, tools/list, ping, logging) goes to the SDK.
 * Follows what the SDK's Protocol does for a request: progress notifications when the request
 * has a progressToken, `notifications/cancelled` cancels the call and suppresses its response,
 * a closed session cancels every call (`cancelAll`). One stage of the session's InboundGate:
 * `receive` answers true for a message it took.
 */
export function toolCallStage(send: (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>, host: ToolCallHost): { receive(message: JSONRPCMessage): boolean; cancelAll(): void } {
  /** Calls in flight by request id: how to cancel each, once its handler runs. */
  const running = new Map<RequestId, { cancel?: () => void; cancelled: boolean }>();

  const reply = (message: JSONRPCMessage) => {
    // A peer that is gone is not an error; send may also throw before returning its promise.
    try {
      send(message).catch(() => {});
    } catch (err) {
      host.log.debug({ err }, 'could not send a tools/call response');
    }
  };

  const answer = (message: ToolCallMessage) => {
    const { id, params } = message;
    const problem = toolCallProblem(params);
    if (problem !== undefined) {
      reply(jsonRpcError(id, new GatewayError('INVALID_PARAMS', `Invalid tools/call params: ${problem}.`), host.errors));
      return;
    }
    const { name, arguments: args, _meta: meta } = params as ToolCallParams;
    const progressToken = meta?.progressToken;
    const entry: { cancel?: () => void; cancelled: boolean } = { cancelled: false };
    running.set(id, entry);
    const caller = host.caller();
    void host.catalog
      .call(name, args, {
        caller,
        allows: host.allows,
        profile: host.profile,
        client: host.client,
        requestId: id,
        onCancelable: (cancel) => (entry.cancel = cancel),
        onProgress:
          progressToken === undefined
            ? undefined
            : (update) =>
                void send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, ...update } }, { relatedRequestId: id }).catch(() => {}),
      })
      .then((outcome) => responseOf(id, outcome, host.errors, outcome.ok && host.notes ? host.notes(caller, name) : []))
      .catch((err: unknown) => {
        // A result that cannot be turned into MCP content (not JSON-serialisable, say): the
        // plugin's bug, answered as the SDK would, never an unhandled rejection.
        host.log.error({ err, tool: name }, 'tools/call result could not be sent');
        return jsonRpcError(id, new GatewayError('INTERNAL_ERROR', 'Internal error: the tool result could not be sent; the gateway log has the details.'), host.errors);
      })
      .then((response) => {
        if (running.get(id) === entry) running.delete(id);
        // The client gave up on it: per the protocol, a cancelled request gets no response.
        if (!entry.cancelled) reply(response);
      });
  };

  return {
    receive: (message) => {
      if (isToolCallMessage(message)) {
        answer(message);
        return true;
      }
      // A cancellation of one of these calls; any other goes on to the SDK.
      const cancelled = cancelledRequest(message);
      const entry = cancelled === undefined ? undefined : running.get(cancelled);
      if (!entry) return false;
      entry.cancelled = true;
      entry.cancel?.();
      return true;
    },
    cancelAll: () => {
      for (const entry of running.values()) {
        entry.cancelled = true;
        entry.cancel?.();
      }
      running.clear();
    },
  };
}

interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: { progressToken?: RequestId };
}

/** The request id a `notifications/cancelled` names, if `message` is one. */
export function cancelledRequest(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

/** A catalog outcome as the JSON-RPC response: a result, an isError result or a protocol error. */
function responseOf(id: RequestId, outcome: CallOutcome, errors: ErrorTable, notes: readonly string[]): JSONRPCMessage {
  if (!outcome.ok) return toolCallResponse(id, outcome, errors);
  const result = withNotes(toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json), notes);
  const response = toolCallResponse(id, { ok: true, result }, errors);
  // The structured value was serialised once already (`outcome.json`, also the text block of a
  // plain value): it goes into the message's text as it is. For a listing that is half the work.
  if (result.structuredContent === undefined || result.structuredContent !== toRestData(outcome.value)) return response;
  const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":${JSON.stringify(result.content)},"structuredContent":${outcome.json}}}`;
  return withJsonText(response, text);
}

/** `result` with the plugins' notes (ctx.sessions.resultNote) appended as text blocks. */
export function withNotes(result: CallToolResult, notes: readonly string[]): CallToolResult {
  if (notes.length > 0) result.content = [...result.content, ...notes.map((text) => ({ type: 'text' as const, text }))];
  return result;
}
