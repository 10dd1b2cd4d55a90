import type { Server } from '@modelcontextprotocol/server';
import type { Caller, TransportKind } from '../plugins/plugin-types.js';
import type { CallerView } from '../catalog/caller-view.js';
import { InboundGate } from './inbound-gate.js';
import { catalogServer, paramsStage, type McpSessionDeps } from './mcp-session.js';
import { serveToolCalls } from './sdk-tool-calls.js';

export interface ModernServerOptions {
  readonly transport: TransportKind;
  readonly peer?: string;
  /** The API key's name, when a key came with the request. */
  readonly identity?: string;
  /** What the caller may see and call: its key's scopes and its profile; everything when absent. */
  readonly view?: CallerView;
}

/**
 * A Server for 2026-07-28 requests, which the SDK's era entry (`createMcpHandler` on HTTP)
 * marks as serving that revision and connects, one per request. The revision has no session:
 * each request names its client in its own `_meta`, so the caller is the key, else the client
 * the request names, else the peer, and has no session id, as a REST caller has none. There is
 * no client to ask either (sampling, elicitation and roots come back as Multi Round-Trip
 * Requests in this revision), so a call gets no client link. tools/call goes through the SDK,
 * which must check the request's envelope and stamp the result.
 */
export function modernServer(deps: McpSessionDeps, options: ModernServerOptions): Server {
  const view = options.view ?? {};
  const keyName = options.identity === undefined ? {} : { keyName: options.identity };
  const caller = (): Caller => ({ transport: options.transport, identity: options.identity ?? server.getClientVersion()?.name ?? options.peer, ...keyName });
  const server = catalogServer(deps, view, caller, (inner) => new InboundGate(inner, [paramsStage(inner, 'modern')]));
  serveToolCalls(server, {
    catalog: deps.catalog,
    errors: deps.errors,
    log: deps.log,
    allows: view.allows,
    profile: view.profile,
    caller,
    notes: (caller, tool) => deps.sessions.resultNotes(caller, tool),
  });
  server.onerror = (err) => deps.log.debug({ err }, 'MCP request error');
  return server;
}
