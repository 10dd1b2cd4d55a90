import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/server';
import type { CallerRequest } from '../catalog/call-pipeline.js';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import { jsonRpcError, type RequestId } from '../contract/replies.js';
import { isToolCallMessage, type ToolCallMessage } from './tool-call-message.js';

export type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

/** How the catalog hears from a call the stage runs: cancelled by the client, progress to it. */
export type CallHooks = Pick<CallerRequest, 'onCancelable' | 'onProgress'>;

/** Runs one tools/call a stage took, to its JSON-RPC response. */
export type CallAnswer = (hooks: CallHooks) => Promise<JSONRPCMessage>;

/** How a stage answers a tools/call: undefined leaves it to the SDK's Server. */
export type CallAnswerer = (message: ToolCallMessage) => CallAnswer | undefined;

/**
 * A gate stage (inbound-gate.ts) that answers tools/call requests ahead of the SDK's Server,
 * which parses every request with zod several times and makes an AbortController for each:
 * measured in process, a bare SDK server answers about half the calls a second this path does
 * (SDK 1.32 and 2.4 alike). `answerer` says which calls it takes and runs them (a 2025 session's,
 * mcp-tool-calls.ts; a 2026-07-28 request's, modern-call-stage.ts); everything else goes on to
 * the SDK. Follows what the SDK's Protocol does for a request: progress notifications when the
 * request has a progressToken, `notifications/cancelled` cancels the call and suppresses its
 * response, a closed connection cancels every call (`cancelAll`). `receive` answers true for a
 * message it took.
 */
export function toolCallStage(send: Send, host: { readonly errors: ErrorTable; readonly log: Logger }, answerer: CallAnswerer): { receive(message: JSONRPCMessage): boolean; cancelAll(): void } {
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

  const run = (message: ToolCallMessage, answer: CallAnswer) => {
    const { id } = message;
    const progressToken = (message.params as { _meta?: { progressToken?: RequestId } } | undefined)?._meta?.progressToken;
    const entry: { cancel?: () => void; cancelled: boolean } = { cancelled: false };
    running.set(id, entry);
    void answer({
      onCancelable: (cancel) => (entry.cancel = cancel),
      onProgress:
        progressToken === undefined
          ? undefined
          : (update) => void send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, ...update } }, { relatedRequestId: id }).catch(() => {}),
    })
      .catch((err: unknown) => {
        // A result that cannot be turned into MCP content (not JSON-serialisable, say), or a bug
        // of ours: logged, answered as INTERNAL_ERROR without its message, never an unhandled rejection.
        host.log.error({ err, tool: (message.params as { name?: unknown } | undefined)?.name }, 'tools/call failed unexpectedly');
        return jsonRpcError(id, new GatewayError('INTERNAL_ERROR', 'Internal error: the tools/call could not be answered; the gateway log has the details.'), host.errors);
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
        const answer = answerer(message);
        if (answer === undefined) return false;
        run(message, answer);
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

/** The request id a `notifications/cancelled` names, if `message` is one. */
export function cancelledRequest(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}
