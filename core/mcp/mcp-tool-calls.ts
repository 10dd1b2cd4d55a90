import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, type ErrorTable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Caller } from '../plugins/plugin-types.js';
import type { CallOutcome, RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import type { Profile } from '../catalog/profiles.js';
import { toMcpResult, toRestData } from '../catalog/tool-result.js';
import type { ClientLink } from '../catalog/client-link.js';
import { jsonRpcError, toolCallResponse, withJsonText } from '../replies.js';
import { isPlainObject } from '../json.js';

type RequestId = string | number;

/** A JSON-RPC request for tools/call, as far as the envelope goes; params are checked later. */
export interface ToolCallMessage {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tools/call';
  params?: unknown;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether `value` is a tools/call request with a well-formed JSON-RPC envelope (the checks of
 * the SDK's JSONRPCRequestSchema, written out: the stream transports skip the zod parse for
 * these, the hot path).
 */
export function isToolCallMessage(value: unknown): value is ToolCallMessage {
  if (!isPlainObject(value) || value.method !== 'tools/call' || value.jsonrpc !== '2.0') return false;
  const { id } = value;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  for (const key in value) if (!ENVELOPE_KEYS.has(key)) return false;
  return true;
}

export interface ToolCallHost {
  readonly catalog: ToolCatalog;
  readonly errors: ErrorTable;
  readonly log: Logger;
  /** Who is calling; asked per call, since `initialize` may name the client after connect. */
  readonly caller: () => Caller;
  readonly allows?: (tool: RegisteredTool) => boolean;
  readonly profile?: Profile;
  /** How a call asks this session's client (sampling, elicitation) or logs to it. */
  readonly client?: ClientLink;
  /** Lines plugins append to a successful result (ctx.sessions.resultNote), as more text blocks. */
  readonly notes?: (caller: Caller, tool: string) => string[];
}

/**
 * Answers tools/call requests on `transport` straight from the catalog, ahead of the SDK
 * Server, which would parse every request with zod several times and make an AbortController
 * for each: together more than a trivial call costs. Everything else (initialize, tools/list,
 * ping, logging) still goes to the SDK. Follows what the SDK's Protocol does for a request:
 * progress notifications when the request has a progressToken, `notifications/cancelled`
 * cancels the call and suppresses its response, a closed transport cancels every call.
 * Installed after `connect`, which is where the SDK sets `onmessage`.
 */
export function serveToolCalls(transport: Transport, host: ToolCallHost): { cancelAll(): void } {
  /** Calls in flight by request id: how to cancel each, once its handler runs. */
  const running = new Map<RequestId, { cancel?: () => void; cancelled: boolean }>();
  const deliver = transport.onmessage!;

  const reply = (message: JSONRPCMessage) => {
    // A peer that is gone is not an error; send may also throw before returning its promise.
    try {
      transport.send(message).catch(() => {});
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
                void transport
                  .send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, ...update } }, { relatedRequestId: id })
                  .catch(() => {}),
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

  transport.onmessage = (message, extra) => {
    if (isToolCallMessage(message)) {
      answer(message);
      return;
    }
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) {
      const entry = running.get(cancelled);
      if (entry) {
        entry.cancelled = true;
        entry.cancel?.();
        return;
      }
    }
    deliver(message, extra);
  };

  return {
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

/** What the SDK's zod schema for tools/call params would refuse, in words a caller can act on. */
function toolCallProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return 'params must be an object';
  if (typeof params.name !== 'string') return '"name" must be a string naming a tool';
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return '"arguments" must be an object';
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isPlainObject(meta)) return '"_meta" must be an object';
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return '"_meta.progressToken" must be a string or an integer';
  return undefined;
}

/** The request id a `notifications/cancelled` names, if `message` is one. */
function cancelledRequest(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

/** A catalog outcome as the JSON-RPC response: a result, an isError result or a protocol error. */
function responseOf(id: RequestId, outcome: CallOutcome, errors: ErrorTable, notes: readonly string[]): JSONRPCMessage {
  if (!outcome.ok) return toolCallResponse(id, outcome, errors);
  const result = toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json);
  if (notes.length > 0) result.content = [...result.content, ...notes.map((text) => ({ type: 'text' as const, text }))];
  const response = toolCallResponse(id, { ok: true, result }, errors);
  // The structured value was serialised once already (`outcome.json`, also the text block of a
  // plain value): it goes into the message's text as it is. For a listing that is half the work.
  if (result.structuredContent === undefined || result.structuredContent !== toRestData(outcome.value)) return response;
  const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":${JSON.stringify(result.content)},"structuredContent":${outcome.json}}}`;
  return withJsonText(response, text);
}
