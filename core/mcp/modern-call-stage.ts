import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  SERVER_INFO_META_KEY,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../lib/json.js';
import type { RequestId } from '../contract/replies.js';
import type { CallAnswerer, Send } from './call-stage.js';
import { uncoveredQuestion } from './input-request-capabilities.js';
import { modernEnvelope } from './modern-envelope.js';
import { toolCallProblem } from './param-checks.js';
import type { RequestContext } from '../sessions/input-round.js';
import { callModernTool, type ModernToolCallHost } from './sdk-tool-calls.js';


/** The params of a tools/call the stage takes: anything more (a round's requestState, a task) is the SDK's. */
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** The 2025 revisions' code for a resource not found, which 2026-07-28 does not have: the SDK sends it as -32602. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * How a 2026-07-28 Server's tool-call stage (call-stage.ts) answers tools/call ahead of the SDK:
 * a request whose params are a name, arguments and a `_meta` with a valid envelope for this
 * revision (modern-envelope.ts), for a tool without task support. Anything else goes on to the
 * SDK, which answers it as before: a retry with `requestState` or `inputResponses`, a task, a
 * malformed envelope (with the SDK's own error). For what it takes it does what the SDK would:
 * runs the call as the SDK's handler does (sdk-tool-calls.ts), then stamps the result with
 * `resultType` and the gateway's `serverInfo`, refuses questions the request's capabilities do
 * not cover (-32021), and maps a thrown error's code as the revision asks. The call's
 * notifications (progress, log messages at the envelope's level) go out related to the request.
 */
export function modernToolCalls(host: ModernToolCallHost, send: Send, serverInfo: Implementation): CallAnswerer {
  return ({ id, params }) => {
    if (!isPlainObject(params) || toolCallProblem(params) !== undefined) return undefined;
    for (const key in params) if (!PARAM_KEYS.has(key)) return undefined;
    const envelope = isPlainObject(params._meta) ? modernEnvelope(params._meta) : undefined;
    if (envelope === undefined) return undefined;
    const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> };
    if (host.catalog.get(name)?.definition.taskSupport !== undefined) return undefined;
    const ctx: RequestContext = {
      mcpReq: {
        id,
        envelope,
        requestState: () => undefined,
        notify: (notification) => send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage, { relatedRequestId: id }),
      },
    };
    return (hooks) =>
      callModernTool(host, name, args, ctx, hooks).then(
        (result) => resultMessage(id, result, envelope, serverInfo),
        (err: unknown) => errorMessage(id, err),
      );
  };
}

/** The response with `result`, stamped as the SDK's 2026-07-28 codec stamps it. */
function resultMessage(id: RequestId, result: CallToolResult | InputRequiredResult, envelope: Record<string, unknown>, serverInfo: Implementation): JSONRPCMessage {
  if (result.resultType === 'input_required') {
    const uncovered = uncoveredQuestion(result as InputRequiredResult, envelope[CLIENT_CAPABILITIES_META_KEY]);
    if (uncovered) return errorMessage(id, new MissingRequiredClientCapabilityError({ requiredCapabilities: uncovered.missing }, uncovered.message));
  }
  const meta = result._meta;
  const stamped = {
    ...result,
    resultType: result.resultType ?? 'complete',
    _meta: { ...meta, [SERVER_INFO_META_KEY]: meta?.[SERVER_INFO_META_KEY] ?? serverInfo },
  };
  return { jsonrpc: '2.0', id, result: stamped } as JSONRPCMessage;
}

/** A thrown JSON-RPC error (the gateway's, or the revision's -32021) as the response; anything else is rethrown. */
function errorMessage(id: RequestId, err: unknown): JSONRPCMessage {
  const { code, message, data } = err as { code?: unknown; message?: string; data?: unknown };
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) throw err;
  const error = { code: code === RESOURCE_NOT_FOUND ? -32602 : code, message: message ?? 'Internal error', ...(data === undefined ? {} : { data }) };
  return { jsonrpc: '2.0', id, error } as JSONRPCMessage;
}
