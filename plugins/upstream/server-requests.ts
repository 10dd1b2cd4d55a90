import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import { isGatewayError, type CallContext, type SamplingParams } from '../../core/index.js';

export interface ServerRequestContext {
  /** Folders answered to roots/list (absolute); absent: the client offers no roots. */
  readonly roots?: readonly string[];
  /** Calls to this server in flight: where its sampling and elicitation requests go. */
  readonly calls: ReadonlySet<CallContext>;
}

/**
 * Answers the requests a server makes of its client: roots/list from the configured roots,
 * and sampling and elicitation (form mode) relayed to the caller of the one call in flight.
 */
export function answerServerRequests(client: Client, context: ServerRequestContext): void {
  const { roots } = context;
  if (roots) {
    const listed = roots.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) || path }));
    client.setRequestHandler('roots/list', () => ({ roots: listed }));
  }
  client.setRequestHandler('sampling/createMessage', ({ params }) => askCaller(context, 'sampling', (call) => call.sample(params as SamplingParams)));
  client.setRequestHandler('elicitation/create', ({ params }) => {
    if (params.mode === 'url') throw rpcError(ProtocolErrorCode.InvalidParams, 'mcp-gateway relays form elicitation only.');
    return askCaller(context, 'elicitation', (call) => call.elicit(params));
  });
}

/**
 * MCP links a server's request to the tool call it belongs to only over HTTP, so with several
 * calls in flight there is no telling whose it is: refused then, as when none is.
 */
async function askCaller<T>({ calls }: ServerRequestContext, what: string, ask: (call: CallContext) => Promise<T>): Promise<T> {
  if (calls.size !== 1) {
    const why = calls.size === 0 ? 'no call to it is in flight' : `${calls.size} calls to it are in flight and MCP does not say whose request this is`;
    throw rpcError(ProtocolErrorCode.InvalidRequest, `mcp-gateway cannot relay this ${what} request: ${why}.`);
  }
  try {
    return await ask([...calls][0]!);
  } catch (err) {
    // CLIENT_CAPABILITY_MISSING (a REST caller, a client without it), CLIENT_REQUEST_FAILED...
    const message = isGatewayError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
    throw rpcError(ProtocolErrorCode.InvalidRequest, message);
  }
}

/**
 * An error answer for a request the server made of us. Not an McpError: the SDK sends a
 * handler's message as it is, and an McpError's already starts with "MCP error -32600: ",
 * which the server's SDK would then put before it a second time.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
