import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ListRootsResultSchema } from '@modelcontextprotocol/core';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
  type Root,
  type ServerCapabilities,
  type Transport,
} from '@modelcontextprotocol/server';
import { HeldTransport } from './held-transport.js';
import { claimsModernEra } from './era-claim.js';
import { GatewayError } from '../contract/errors.js';
import { jsonRpcError } from '../contract/replies.js';
import { SERVER_CAPABILITIES, SERVER_INSTRUCTIONS } from './mcp-session.js';

/** How long a client that offers roots may take to list them before the gateway goes on without. */
export const ROOTS_TIMEOUT_MS = 10_000;
const ROOTS_REQUEST_ID = 'mcp-gateway-roots';

/** Where the workspace is, or why the client's roots do not name one (a phrase for a sentence). */
export type RootsOutcome = { readonly workspace: string } | { readonly problem: string };

export type ClientRoots = RootsOutcome & {
  /** Connect the session to this, then `release(initializeId)` it. */
  readonly transport: HeldTransport;
  /** The `initialize` request answered early. */
  readonly initializeId: RequestId;
};

/**
 * Opens the MCP session far enough to learn the client's roots, before any plugin boots with a
 * wrong workspace: answers `initialize` itself (the gateway's capabilities do not depend on its
 * plugins) and `ping`, asks `roots/list` once the client has sent `initialized` (a server may
 * not ask earlier), and holds every other message for the real session. Resolves when the
 * roots are known or known to be missing; rejects when the client goes away first.
 */
export function learnClientRoots(inner: Transport, version: string, capabilities: ServerCapabilities = SERVER_CAPABILITIES): Promise<ClientRoots> {
  return new Promise((resolve, reject) => {
    let initializeId: RequestId | undefined;
    let offersRoots = false;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: RootsOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, transport, initializeId: initializeId! });
    };
    const reply = (message: JSONRPCMessage) => void transport.sendEarly(message).catch(() => {});

    const early = (message: JSONRPCMessage) => {
      if (settled) return transport.hold(message);
      if (isJSONRPCRequest(message) && message.method === 'initialize' && initializeId === undefined) {
        const params = message.params as { protocolVersion?: string; capabilities?: { roots?: unknown } } | undefined;
        initializeId = message.id;
        offersRoots = Boolean(params?.capabilities?.roots);
        transport.hold(message);
        reply({ jsonrpc: '2.0', id: message.id, result: initializeResult(params?.protocolVersion, version, capabilities) });
      } else if (isJSONRPCRequest(message) && claimsModernEra(message)) {
        // Roots are the 2025 era's: without a workspace the gateway serves that era alone. A
        // probe gets -32601, so that its client falls back to `initialize`, as the revision says.
        reply(modernRefusal(message.id, message.method));
      } else if (isJSONRPCRequest(message) && message.method === 'ping') {
        reply({ jsonrpc: '2.0', id: message.id, result: {} });
      } else if (isJSONRPCNotification(message) && message.method === 'notifications/initialized' && initializeId !== undefined) {
        transport.hold(message);
        if (!offersRoots) return settle({ problem: 'the MCP client does not offer roots' });
        reply({ jsonrpc: '2.0', id: ROOTS_REQUEST_ID, method: 'roots/list' });
        timer = setTimeout(() => settle({ problem: `the MCP client did not answer roots/list within ${ROOTS_TIMEOUT_MS / 1000} s` }), ROOTS_TIMEOUT_MS);
      } else if (isJSONRPCResultResponse(message) && message.id === ROOTS_REQUEST_ID) {
        const parsed = ListRootsResultSchema.safeParse(message.result);
        settle(parsed.success ? workspaceOfRoots(parsed.data.roots) : { problem: 'the MCP client answered roots/list with something that is not a list of roots' });
      } else if (isJSONRPCErrorResponse(message) && message.id === ROOTS_REQUEST_ID) {
        settle({ problem: `the MCP client refused roots/list (${message.error.message})` });
      } else {
        transport.hold(message);
      }
    };
    const transport = new HeldTransport(inner, early);
    // Replaced by the session's own handler when it connects.
    transport.onclose = () => {
      clearTimeout(timer);
      if (!settled) reject(new Error('the MCP client closed the connection before the session started'));
    };
    transport.start().catch(reject);
  });
}

/** The workspace the first root names: a file:// URI of an existing folder. Other roots are not used. */
export function workspaceOfRoots(roots: readonly Root[]): RootsOutcome {
  const first = roots[0];
  if (!first) return { problem: 'the MCP client lists no roots' };
  let path: string;
  try {
    path = fileURLToPath(first.uri);
  } catch {
    return { problem: `the MCP client's first root ${first.uri} is not a file:// URI` };
  }
  try {
    if (!statSync(path).isDirectory()) return { problem: `the MCP client's first root ${path} is not a folder` };
  } catch (err) {
    return { problem: `the MCP client's first root ${path} cannot be used (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  return { workspace: path };
}

/**
 * The answer to a 2026-07-28 request while the workspace is still to be learned from roots:
 * -32601 to the `server/discover` probe, INVALID_REQUEST to anything else, each saying why.
 */
function modernRefusal(id: RequestId, method: string): JSONRPCMessage {
  const error = new GatewayError(
    'INVALID_REQUEST',
    `${method} refused: this gateway has no workspace. Without --workspace or workspace: in its config it works in the client's first root, and only the 2025-11-25 protocol has roots; pass --workspace, or connect with initialize.`,
  );
  const refusal = jsonRpcError(id, error);
  return method === 'server/discover' && 'error' in refusal ? { ...refusal, error: { ...refusal.error, code: -32601 } } : refusal;
}

/** What the SDK's Server answers to `initialize`, for the gateway's static capabilities. */
function initializeResult(requested: string | undefined, version: string, capabilities: ServerCapabilities) {
  const protocolVersion = requested && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  return { protocolVersion, capabilities, serverInfo: { name: 'mcp-gateway', version }, instructions: SERVER_INSTRUCTIONS };
}
