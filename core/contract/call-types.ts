import type { CreateMessageRequestParamsBase, CreateMessageResult, ElicitRequestFormParams, ElicitResult, ListRootsResult } from '@modelcontextprotocol/server';
import type { Logger } from '../lib/logger.js';

// One call as its handler sees it: who calls, the call's signal, progress, and the questions it
// may put to the client. Tools, resources, prompts and completions all get a CallContext.

/** The MCP log levels (RFC 5424 severities), least severe first. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export type TransportKind = 'stdio' | 'tcp' | 'unix' | 'http' | 'rest' | 'memory' | 'cli';

/** Who is calling: the transport, its session and, where known, the client or key name. */
export interface Caller {
  readonly transport: TransportKind;
  readonly sessionId?: string;
  /** The MCP client's name from `initialize`, the API key's name, or the peer address. */
  readonly identity?: string;
  /**
   * The API key's name when the call came with a key (HTTP, TCP, REST with keys): the one
   * identity the gateway has checked. Absent otherwise, where `identity` is only what the client says.
   */
  readonly keyName?: string;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** The second argument of every tool handler. */
export interface CallContext {
  /** Fires on client cancellation, disconnect, the tool's timeout, or gateway shutdown. */
  readonly signal: AbortSignal;
  /** Sends MCP progress notifications when the client asked for them; a no-op otherwise. */
  progress(update: ProgressUpdate): void;
  readonly caller: Caller;
  /** The gateway's own log (stderr), tagged with plugin and tool. For the client, see `logToClient`. */
  readonly log: Logger;
  /**
   * Asks the MCP client's model for a message (`sampling/createMessage`). Sent as part of
   * this call (over /mcp, on the tools/call's own POST stream), cancelled with the call (the
   * client gets `notifications/cancelled`), and waited for at most `options.timeoutMs`, else
   * the tool's own time limit. Resolves with the client's result, checked against the MCP
   * schema. Throws CLIENT_CAPABILITY_MISSING when the client did not declare `sampling`, or the
   * call came over REST or the CLI (no client to ask); CLIENT_REQUEST_FAILED when the client
   * refused, answered with an invalid result or did not answer in time; the call's own
   * CANCELLED or TOOL_TIMEOUT when the call ended first.
   *
   * A 2026-07-28 client cannot be asked during a request: the call ends, the client gets the
   * questions asked so far as an InputRequiredResult, and the handler runs again from the
   * start when the client retries with the answers, each question then resolving with its
   * answer (docs/plugins/tools.md, "questions in rounds"). So whatever a handler does before
   * its last question may run more than once: ask first, act after.
   */
  sample(params: SamplingParams, options?: ClientRequestOptions): Promise<SamplingResult>;
  /**
   * Asks the user, through the MCP client, to fill in a form (`elicitation/create`, form mode):
   * `requestedSchema` is a flat object of string, number, integer, boolean and enum fields.
   * Resolves with `{action: 'accept', content}` (content checked against `requestedSchema`),
   * or `{action: 'decline' | 'cancel'}`, which are answers, not errors. Sent, cancelled and
   * refused like `sample` (the capability is `elicitation`).
   */
  elicit(params: ElicitationParams, options?: ClientRequestOptions): Promise<ElicitationResult>;
  /**
   * Asks the MCP client for its roots (`roots/list`): the folders the user opened. Sent,
   * cancelled and refused like `sample` (the capability is `roots`).
   */
  listRoots(options?: ClientRequestOptions): Promise<RootsResult>;
  /**
   * Sends `notifications/message` `{level, logger, data}` to the calling session as part of
   * this call, so that over /mcp it arrives on the call's POST stream before the result.
   * Honours the level the session set with `logging/setLevel`. Returns whether it was sent:
   * false when the level is filtered out, and over REST and the CLI (no session), where the
   * message goes to the gateway log instead. `logger` defaults to the plugin's name.
   * Throws NOTIFICATION_INVALID for an unknown level or data that is not JSON.
   */
  logToClient(level: McpLogLevel, data: unknown, options?: { readonly logger?: string }): boolean;
}

/** `sampling/createMessage` params: `messages`, `maxTokens`, and optionally a system prompt, model preferences... */
export type SamplingParams = CreateMessageRequestParamsBase;
/** The client's answer to `sampling/createMessage`: `{role, content, model, stopReason?}`. */
export type SamplingResult = CreateMessageResult;
/** `elicitation/create` params in form mode: `{message, requestedSchema}`. */
export type ElicitationParams = ElicitRequestFormParams;
/** `{action: 'accept', content}` or `{action: 'decline' | 'cancel'}`. */
export type ElicitationResult = ElicitResult;

/** `roots/list` params: none beyond `_meta`. */
export type RootsParams = Record<string, never>;
/** The client's answer to `roots/list`: `{roots: [{uri, name?}]}`. */
export type RootsResult = ListRootsResult;

export interface ClientRequestOptions {
  /** How long to wait for the client's answer; at most, and by default, the tool's time limit. */
  readonly timeoutMs?: number;
  /**
   * The question's name in a 2026-07-28 InputRequiredResult (1 to 64 of `A-Za-z0-9_.:-`), the
   * key the client answers it under; `<kind>-<n>` (the nth question of its kind in this run of
   * the handler: `elicitation-1`, `sampling-2`, `roots-1`) when absent.
   */
  readonly key?: string;
}

/**
 * Receives arguments already validated against the input schema (defaults filled in).
 * Returns a JSON value (sent as text content, and as `structuredContent` when the tool has
 * an outputSchema) or a `toolContent(...)` result for images and other content types.
 * Throw a GatewayError (`ctx.error(...)`) for failures the caller should see.
 */
export type ToolHandler<Args = Record<string, unknown>> = (args: Args, call: CallContext) => unknown;
