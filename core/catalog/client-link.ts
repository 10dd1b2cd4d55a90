import { CreateMessageRequestParamsSchema, ElicitRequestFormParamsSchema, ListRootsRequestSchema } from '@modelcontextprotocol/core';
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
  type LoggingLevel,
  type RequestId,
} from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import type { ClientRequestOptions, ElicitationParams, RootsParams, SamplingParams, TransportKind } from '../contract/plugin-types.js';

/**
 * What a call needs of the MCP session it came from to ask the client something or log to
 * it. One per session (made by the MCP face); the catalog knows only this interface, so REST
 * and the CLI, which have no client, simply pass none.
 */
export interface ClientLink {
  /** What the client declared at initialize; undefined until it has. */
  capabilities(): ClientCapabilities | undefined;
  /** The client's name from initialize, for messages. */
  clientName(): string | undefined;
  /** Sends `sampling/createMessage` and resolves with the validated result. */
  createMessage(params: SamplingParams, options: LinkRequestOptions): Promise<CreateMessageResult>;
  /** Sends `elicitation/create` (form mode); accepted content is checked against the requested schema. */
  elicitInput(params: ElicitationParams, options: LinkRequestOptions): Promise<ElicitResult>;
  /** Sends `roots/list` and resolves with the validated result. */
  listRoots(params: RootsParams, options: LinkRequestOptions): Promise<ListRootsResult>;
  /**
   * Sends `notifications/message` as part of request `relatedRequestId`, unless the session's
   * `logging/setLevel` filters the level out. Returns whether it was sent.
   */
  log(params: { level: LoggingLevel; logger: string; data: unknown }, relatedRequestId: RequestId): boolean;
}

export interface LinkRequestOptions {
  readonly relatedRequestId: RequestId;
  readonly signal: AbortSignal;
  readonly timeout: number;
  /** The name the plugin gave the question (`options.key`), for a 2026-07-28 InputRequiredResult. */
  readonly key: string | undefined;
  /**
   * Ends the call with `reason`, as a cancellation does. A 2026-07-28 request cannot wait for
   * an answer: its link ends the call and the face answers with the questions instead.
   */
  readonly endCall: (reason: GatewayError) => void;
}

/** The call a question to the client belongs to. */
export interface AskingCall {
  readonly link: ClientLink | undefined;
  readonly requestId: RequestId | undefined;
  readonly transport: TransportKind;
  readonly signal: AbortSignal;
  /** The tool's time limit: no question may outlive the call. */
  readonly timeoutMs: number;
  /** Ends the call (RunningCall.abort). */
  readonly abort: (reason: GatewayError) => void;
}

const ASKS = {
  sampling: { method: 'sampling/createMessage', params: CreateMessageRequestParamsSchema, verb: 'call.sample' },
  elicitation: { method: 'elicitation/create', params: ElicitRequestFormParamsSchema, verb: 'call.elicit' },
  roots: { method: 'roots/list', params: ListRootsRequestSchema.shape.params, verb: 'call.listRoots' },
} as const;

/** A question's name in an InputRequiredResult: short, and plain enough to read in a log. */
const QUESTION_KEY = /^[A-Za-z0-9_.:-]{1,64}$/;

export type ClientAsk = keyof typeof ASKS;

/** `call.sample(...)`: checks, sends on the call's own request and maps every failure to a code. */
export function sampleFromClient(call: AskingCall, params: SamplingParams, options?: ClientRequestOptions): Promise<CreateMessageResult> {
  return observed(askClient(call, 'sampling', params, options, (link, request) => link.createMessage(params, request)));
}

/** `call.elicit(...)`: as `sampleFromClient`, for `elicitation/create` in form mode. */
export function elicitFromClient(call: AskingCall, params: ElicitationParams, options?: ClientRequestOptions): Promise<ElicitResult> {
  return observed(askClient(call, 'elicitation', params, options, (link, request) => link.elicitInput(params, request)));
}

/** `call.listRoots()`: as `sampleFromClient`, for `roots/list`. */
export function listRootsOfClient(call: AskingCall, options?: ClientRequestOptions): Promise<ListRootsResult> {
  const params: RootsParams = {};
  return observed(askClient(call, 'roots', params, options, (link, request) => link.listRoots(params, request)));
}

/**
 * `question`, its rejection marked as seen: a handler that asks twice and awaits one answer
 * after the other never awaits the second when the first rejects (its call ended: cancelled,
 * or a 2026 round that asked), and an unhandled rejection would end the process. The handler
 * still gets the rejection when it awaits.
 */
function observed<T>(question: Promise<T>): Promise<T> {
  question.catch(() => {});
  return question;
}

async function askClient<T>(
  call: AskingCall,
  kind: ClientAsk,
  params: unknown,
  options: ClientRequestOptions | undefined,
  send: (link: ClientLink, request: LinkRequestOptions) => Promise<T>,
): Promise<T> {
  const { method, verb } = ASKS[kind];
  const { link, requestId } = call;
  if (!link || requestId === undefined) {
    throw new GatewayError(
      'CLIENT_CAPABILITY_MISSING',
      `The tool needs to ask the MCP client (${method}), but this call came over ${call.transport}, where there is no MCP client to ask; call the tool over MCP from a client that supports ${kind}.`,
      { details: { method, capability: kind } },
    );
  }
  const declared = link.capabilities()?.[kind];
  if (!declared) {
    const client = link.clientName() ?? 'the MCP client';
    throw new GatewayError(
      'CLIENT_CAPABILITY_MISSING',
      `The tool needs to ask the client (${method}), but ${client} did not declare the "${kind}" capability; use a client that supports ${kind}.`,
      { details: { method, capability: kind } },
    );
  }
  // The plugin's mistake, not the caller's: a plain error, so it is logged and the caller gets INTERNAL_ERROR.
  const checked = ASKS[kind].params.safeParse(params);
  if (!checked.success) throw new TypeError(`${verb}: the params are not valid ${method} params: ${checked.error.message}`);
  // The call already ended: asking now would only bother the user.
  if (call.signal.aborted) throw call.signal.reason;
  const timeout = Math.min(options?.timeoutMs ?? call.timeoutMs, call.timeoutMs);
  if (!(timeout > 0)) throw new TypeError(`${verb}: options.timeoutMs must be a positive number of milliseconds.`);
  const key = options?.key;
  if (key !== undefined && (!QUESTION_KEY.test(key) || key === '__proto__')) throw new TypeError(`${verb}: options.key must be 1 to 64 letters, digits and _.:- characters (not __proto__).`);
  try {
    return await send(link, { relatedRequestId: requestId, signal: call.signal, timeout, key, endCall: call.abort });
  } catch (err) {
    // The call ended first (cancelled, timed out, shutdown): its own reason says why.
    if (call.signal.aborted) throw call.signal.reason;
    // The plugin's mistake (a question key used twice, too many questions), not the client's.
    if (err instanceof TypeError) throw err;
    throw clientFailure(method, timeout, err);
  }
}

function clientFailure(method: string, timeout: number, err: unknown): GatewayError {
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    return new GatewayError('CLIENT_REQUEST_FAILED', `The MCP client did not answer ${method} within ${timeout} ms.`, { details: { method, timeoutMs: timeout }, cause: err });
  }
  // The client answered with a JSON-RPC error.
  if (err instanceof ProtocolError) {
    return new GatewayError('CLIENT_REQUEST_FAILED', `The MCP client failed ${method}: ${err.message}`, { details: { method, jsonRpcCode: err.code }, cause: err });
  }
  // The connection failed under the request (closed, not sendable); an invalid answer is below.
  if (err instanceof SdkError && err.code !== SdkErrorCode.InvalidResult) {
    return new GatewayError('CLIENT_REQUEST_FAILED', `The MCP client failed ${method}: ${err.message}`, { details: { method }, cause: err });
  }
  const why = err instanceof Error ? err.message : String(err);
  return new GatewayError('CLIENT_REQUEST_FAILED', `The MCP client's answer to ${method} could not be used: ${why}`, { details: { method }, cause: err });
}
