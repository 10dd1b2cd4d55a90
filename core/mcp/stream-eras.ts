import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ProtocolError, type Server, type Transport } from '@modelcontextprotocol/server';
import { InboundGate } from './inbound-gate.js';
import { listenStage } from './listen-stage.js';
import { legacySession, type LegacySession, type McpSessionDeps, type McpSessionOptions } from './mcp-session.js';
import { modernServer } from './modern-server.js';
import type { ListChangedNotices } from '../sessions/list-changed.js';

export interface StreamDeps extends McpSessionDeps {
  readonly listChanges: ListChangedNotices;
}

/** One stream connection served in its client's era. */
export interface StreamConnection {
  /** Ends the connection: the session or the 2026 server, then the transport. */
  close(): Promise<void>;
}

/**
 * Serves one stream connection (stdio, TCP, the unix socket) in the era its client opens with,
 * through SDK v2's era entry for streams (`serveStdio` over `wire`): `initialize`, or any message
 * without a protocol version in its `_meta`, opens a 2025 session as openMcpSession makes it (and
 * `onLegacy` hears of it before its first message); a request that claims 2026-07-28 pins the
 * connection to that revision, served by one modernServer; `server/discover` is answered without
 * pinning, so that a client may probe and then fall back to `initialize`. Each Server connects
 * through its own gate, as everywhere.
 */
export function serveStreamEras(deps: StreamDeps, wire: Transport, options: McpSessionOptions, onLegacy?: (opened: LegacySession) => void): StreamConnection {
  // The entry answers subscriptions/listen itself: a listen that names resources is admitted first.
  const listens = listenStage(
    deps,
    options.view?.allowsPlugin,
    (message) => void wire.send(message).catch(() => {}),
    (message) => gate.onmessage?.(message),
  );
  // Chained before the gate takes the wire's handlers: a connection's end ends its listens' holds.
  const { onclose } = wire;
  wire.onclose = () => {
    onclose?.();
    listens.releaseAll();
  };
  const gate = new InboundGate(wire, [listens.stage]);
  const handle = serveStdio(
    ({ era }) => {
      if (era === 'legacy') {
        const opened = legacySession(deps, options);
        onLegacy?.(opened);
        return opened.server;
      }
      return listeningModernServer(deps, options);
    },
    {
      transport: gate,
      // What a client got wrong is answered to it; anything else is the gateway's to look at.
      onerror: (err) => (err instanceof ProtocolError ? deps.log.debug({ err }, 'MCP request refused') : deps.log.warn({ err }, 'MCP connection error')),
    },
  );
  return handle;
}

/**
 * A 2026-07-28 Server for a whole stream connection. What a 2025 session hears as notifications
 * it sends as such too: the SDK's entry routes them onto the connection's `subscriptions/listen`
 * streams that asked for them, and drops them otherwise.
 */
function listeningModernServer(deps: StreamDeps, options: McpSessionOptions): Server {
  const server = modernServer(deps, options);
  const send = (method: string, params?: Record<string, unknown>) =>
    void server.notification({ method, params } as Parameters<Server['notification']>[0]).catch((err: unknown) => deps.log.debug({ err, method }, 'notification not sent'));
  const stops = [
    deps.listChanges.listen((kind) => send(`notifications/${kind}/list_changed`)),
    deps.subscriptions.listen((uri) => send('notifications/resources/updated', { uri })),
  ];
  server.onclose = () => {
    for (const stop of stops) stop();
  };
  return server;
}
