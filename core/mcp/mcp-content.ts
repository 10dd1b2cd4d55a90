import { ProtocolError, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientLink } from '../catalog/client-link.js';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { CallerRequest } from '../catalog/call-pipeline.js';
import type { ContentRequest } from '../catalog/content-calls.js';
import type { PromptCatalog } from '../catalog/prompt-catalog.js';
import type { ResourceCatalog } from '../catalog/resource-catalog.js';
import type { Caller } from '../contract/plugin-types.js';
import type { ResourceSubscriptions } from '../sessions/resource-subscriptions.js';
import { JsonRpcFailure, rpcFailure } from '../sessions/rpc-failure.js';
import type { RequestContext } from '../sessions/input-round.js';

/** What a session's resource, prompt and completion handlers need from the gateway. */
export interface ContentDeps {
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly subscriptions: ResourceSubscriptions;
  readonly errors: ErrorTable;
  readonly log: Logger;
}

/** Who a session's (or, in the 2026 era, a request's) requests come from and what they may use. */
export interface ContentSession {
  /**
   * Asked per request, since `initialize` may name the client after connect; a 2026-07-28
   * request names its own client, in the `_meta` the SDK hands over as `ctx`.
   */
  readonly caller: (ctx?: RequestContext) => Caller;
  readonly allowsPlugin?: (plugin: string) => boolean;
  /** How a prompts/get or resources/read asks its client; it cannot when absent. */
  readonly asking?: (ctx: RequestContext, method: 'prompts/get' | 'resources/read', target: string, args: unknown) => RequestAsking;
}

/**
 * How one request asks its client: the link its call gets (a 2025 session's, or the 2026
 * request's own, input-round.ts), and what a call that ended to ask answers instead.
 */
export interface RequestAsking {
  readonly client: ClientLink;
  /** Whether the call asked a 2026-07-28 round's questions (and so is about to end to ask). */
  readonly asked: boolean;
  /** The InputRequiredResult of a 2026-07-28 call that ended (with `error`) to ask; undefined for any other end. */
  inputRequired(error: GatewayError): Promise<InputRequiredResult> | undefined;
  /** The revision's own error for a call's failure, where it names one (2026-07-28: -32021 for a missing capability). */
  refusal?(error: GatewayError): Error | undefined;
}

/** What a prompts/get or resources/read whose call failed answers: the questions when it ended to ask, else the JSON-RPC error. */
export function failedContent(asking: RequestAsking | undefined, error: GatewayError, errors: ErrorTable, uri?: string): Promise<InputRequiredResult> {
  const questions = asking?.inputRequired(error);
  if (questions) return questions;
  throw asking?.refusal?.(error) ?? rpcFailure(error, errors, uri);
}

type Handler<T, R> = (request: { params: T }, ctx: ServerContext) => Promise<R>;

/**
 * Wraps a request handler so that whatever it throws reaches the client as a JSON-RPC error
 * with a code from the table: a JsonRpcFailure (or the SDK's ProtocolError) as it is, anything
 * else (a bug of ours) as INTERNAL_ERROR with the original logged, never its message.
 */
export function guarded<T, R>(deps: ContentDeps, method: string, handler: Handler<T, R>): Handler<T, R> {
  return async (request, ctx) => {
    try {
      return await handler(request, ctx);
    } catch (err) {
      // The gateway's own JSON-RPC errors, and the revision's (a missing capability's -32021).
      if (err instanceof JsonRpcFailure || err instanceof ProtocolError) throw err;
      deps.log.error({ err, method }, 'MCP request failed');
      throw rpcFailure(new GatewayError('INTERNAL_ERROR', `${method} failed unexpectedly; the gateway log has the details.`), deps.errors);
    }
  };
}

/**
 * How the catalog hears from one MCP request the SDK handles: cancelled by the SDK's signal for
 * it (the client's notifications/cancelled, or the session closing), with progress on the
 * request's own stream when the client asked.
 */
export function requestHooks(ctx: ServerContext): Pick<CallerRequest, 'onCancelable' | 'onProgress'> {
  const { signal, _meta, notify } = ctx.mcpReq;
  const progressToken = _meta?.progressToken;
  return {
    onCancelable: (cancel) => {
      if (signal.aborted) cancel();
      else signal.addEventListener('abort', cancel, { once: true });
    },
    onProgress: progressToken === undefined ? undefined : (update) => void notify({ method: 'notifications/progress', params: { progressToken, ...update } }).catch(() => {}),
  };
}

/** The catalog request of one resources, prompts or completion request; `asking` lets its call ask the client. */
export function contentRequest(context: ContentSession, ctx: ServerContext, asking?: RequestAsking): ContentRequest {
  const client = asking === undefined ? {} : { client: asking.client, requestId: ctx.mcpReq.id };
  return { caller: context.caller(ctx), allowsPlugin: context.allowsPlugin, ...requestHooks(ctx), ...client };
}
