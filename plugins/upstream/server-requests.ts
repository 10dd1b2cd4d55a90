import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import { isGatewayError, type CallContext, type SamplingParams } from '@mcp-gateway/core';
import { isModern } from './eras.js';
import type { RaiseError } from './declaration.js';

export interface ServerRequestContext {
  /** Folders answered to roots/list (absolute); absent: the client offers no roots. */
  readonly roots?: readonly string[];
  /** Calls to this server in flight: where its sampling and elicitation requests go. */
  readonly calls: ReadonlySet<CallContext>;
  readonly error: RaiseError;
}

/**
 * Answers the requests a server makes of its client: roots/list from the configured roots,
 * and sampling and elicitation (form mode) relayed to the caller of the one call in flight.
 *
 * A 2025 server sends them as requests and gets a refusal back as an error answer. A 2026
 * server asks in its InputRequiredResult, which SDK v2 answers here, in the gateway, during
 * the call to that server: a refusal then ends that call, as the caller's own error (the
 * caller cannot answer: CLIENT_CAPABILITY_MISSING...) or UPSTREAM_QUESTION_REFUSED, neither of
 * which says anything against the server (its breaker does not count them).
 */
export function answerServerRequests(client: Client, context: ServerRequestContext): void {
  const { roots } = context;
  if (roots) {
    const listed = roots.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) || path }));
    client.setRequestHandler('roots/list', () => ({ roots: listed }));
  }
  client.setRequestHandler('sampling/createMessage', ({ params }) => askCaller(client, context, 'sampling', (call) => call.sample(params as SamplingParams)));
  client.setRequestHandler('elicitation/create', ({ params }) => {
    if (params.mode === 'url') throw refusal(client, context, ProtocolErrorCode.InvalidParams, 'mcp-gateway relays form elicitation only.');
    return askCaller(client, context, 'elicitation', (call) => call.elicit(params));
  });
}

/**
 * MCP links a server's request to the tool call it belongs to only over HTTP, so with several
 * calls in flight there is no telling whose it is: refused then, as when none is.
 */
async function askCaller<T>(client: Client, context: ServerRequestContext, what: string, ask: (call: CallContext) => Promise<T>): Promise<T> {
  const { calls } = context;
  if (calls.size !== 1) {
    const why = calls.size === 0 ? 'no call to it is in flight' : `${calls.size} calls to it are in flight and MCP does not say whose request this is`;
    throw refusal(client, context, ProtocolErrorCode.InvalidRequest, `mcp-gateway cannot relay this ${what} request: ${why}.`);
  }
  try {
    return await ask([...calls][0]!);
  } catch (err) {
    // CLIENT_CAPABILITY_MISSING (a REST caller, a client without it), CLIENT_REQUEST_FAILED,
    // INPUT_REQUIRED (a 2026 caller's round ends)...: the caller's own, in the 2026 era as it is.
    if (isModern(client) && isGatewayError(err)) throw err;
    const message = isGatewayError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
    throw rpcError(ProtocolErrorCode.InvalidRequest, message);
  }
}

/** The gateway refuses a server's question: an error answer to a 2025 server, UPSTREAM_QUESTION_REFUSED for the call to a 2026 one. */
function refusal(client: Client, { error }: ServerRequestContext, code: number, message: string): Error {
  return isModern(client) ? error('UPSTREAM_QUESTION_REFUSED', message) : rpcError(code, message);
}

/**
 * An error answer for a request the server made of us. Not an McpError: the SDK sends a
 * handler's message as it is, and an McpError's already starts with "MCP error -32600: ",
 * which the server's SDK would then put before it a second time.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
