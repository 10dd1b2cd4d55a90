import { createServer, isIPv4, type Server, type Socket } from 'node:net';
import type { ListenerConfig } from '../config/config.js';
import { socketLimitDefaults } from '../config/config-schema.js';
import { ConnectionSlots } from '../lib/connection-slots.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { jsonRpcError } from '../contract/replies.js';
import type { SocketAddress } from '../contract/addresses.js';
import type { Gateway } from '../gateway/gateway.js';
import { mcpFace, type McpFace, type McpKernel } from './mcp-face.js';
import { NdjsonTransport } from './ndjson-transport.js';
import { listenUnix, type ClaimedSocket } from './unix-socket.js';
import { admitTcpClient, type TcpAdmission } from './tcp-auth.js';
import { callerView, chooseProfile } from '../catalog/caller-view.js';


/** What this file uses of the gateway: the MCP face's part, and the keys, profiles and lifecycle. */
export type SocketServerGateway = McpKernel & Pick<Gateway, 'config' | 'keys' | 'lifecycle' | 'listening' | 'profiles'>;

/** A listening TCP or unix-socket endpoint; one MCP session per connection. */
export interface SocketListener {
  readonly address: SocketAddress;
  readonly connections: number;
  close(): Promise<void>;
}

/** A listener's limits: its config section, whose newer keys may be left out (socketLimitDefaults). */
export type SocketLimits = Pick<ListenerConfig, 'maxConnections' | 'maxMessageBytes'> & {
  readonly maxReplyBytes?: number;
  readonly authTimeoutMs?: number;
};

/**
 * Serves newline-delimited JSON-RPC on TCP or a unix socket. Connections past the limit get
 * one JSON-RPC error line and are closed; over TCP with keys, a connection still waiting to
 * authenticate gives its slot up to a newer one first (connection-slots.ts). A unix socket
 * file is created with mode 0600 and removed on close.
 */
export async function listenSocket(gateway: SocketServerGateway, address: SocketAddress, limits: SocketLimits): Promise<SocketListener> {
  const { lifecycle } = gateway;
  await lifecycle.checkpoint(`${address.kind}-starting`);
  const listener = await lifecycle.start(address.kind, () => startSocketServer(gateway, address, limits), (started) => started.close());
  await lifecycle.checkpoint(`${address.kind}-listening`);
  return listener;
}

async function startSocketServer(gateway: SocketServerGateway, address: SocketAddress, limits: SocketLimits): Promise<SocketListener> {
  const face = await mcpFace(gateway);
  const sockets = new Set<Socket>();
  const slots = new ConnectionSlots({ total: limits.maxConnections });
  // Only TCP with keys has a wait to authenticate; the unix socket is the owner's alone.
  const keyed = address.kind === 'tcp' && gateway.keys.required;
  const server = createServer((socket) => {
    const slot = slots.take(socket);
    if (!slot.ok) {
      refuse(socket, tooManyConnections(limits.maxConnections));
      return;
    }
    if (slot.displaced) refuse(slot.displaced, displacedUnauthenticated(limits.maxConnections));
    if (!keyed) slots.authenticated(socket);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(gateway, face, socket, address, limits, () => slots.authenticated(socket)).catch((err) => {
      gateway.log.error({ err }, 'could not open an MCP session');
      socket.destroy();
    });
  });
  server.on('error', (err) => gateway.log.error({ err }, 'socket server error'));

  let claimed: ClaimedSocket | undefined;
  if (address.kind === 'unix') claimed = await listenUnix(server, address.path);
  else {
    checkExposure(gateway, address.host);
    await listen(server, address.host, address.port);
  }
  const bound = boundAddress(server, address);
  gateway.log.info({ transport: address.kind, address: bound }, 'listening');
  const forget = gateway.listening.add(bound);

  let closing: Promise<void> | undefined;
  return {
    address: bound,
    get connections() {
      return sockets.size;
    },
    close: () =>
      (closing ??= (async () => {
        forget();
        // While it still listens, so that no other gateway can have put its socket there.
        claimed?.release();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
      })()),
  };
}

async function serveConnection(gateway: SocketServerGateway, face: McpFace, socket: Socket, address: SocketAddress, limits: SocketLimits, onAuthenticated: () => void): Promise<void> {
  socket.setNoDelay(true);
  const peer = address.kind === 'tcp' ? `${socket.remoteAddress}:${socket.remotePort}` : 'unix';
  const transport = new NdjsonTransport(socket, socket, {
    maxMessageBytes: limits.maxMessageBytes,
    maxReplyBytes: limits.maxReplyBytes,
    onEnd: () => socket.end(),
  });
  // The unix socket is the owner's alone (mode 0600): like stdio, it needs no key.
  let admitted: TcpAdmission | undefined;
  if (address.kind === 'tcp' && gateway.keys.required) {
    admitted = await admitTcpClient(transport, socket, gateway.keys, limits.authTimeoutMs ?? socketLimitDefaults.authTimeoutMs);
    if (!admitted) return;
    onAuthenticated();
    // The SDK chains onto a handler it finds on the transport: the admission's must go.
    transport.onmessage = undefined;
  }
  const { principal } = admitted ?? {};
  let profile;
  try {
    // TCP and the socket are one endpoint each: the key's profile, else the default one.
    profile = chooseProfile(gateway.profiles, undefined, principal, gateway.profiles.default);
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    refuse(socket, err);
    return;
  }
  const connection = face.serveStream(transport, { transport: address.kind, peer, identity: principal?.name, view: callerView(principal, profile) });
  // Closing the connection closes its server, then the transport, which ends the socket.
  socket.once('close', () => void connection.close().catch(() => {}));
  if (admitted) {
    for (const message of admitted.messages) transport.onmessage?.(message);
    socket.resume();
  }
}

const tooManyConnections = (limit: number) =>
  new GatewayError('CONNECTION_LIMIT', `Too many connections: this gateway serves at most ${limit} on this transport. Retry later.`);

const displacedUnauthenticated = (limit: number) =>
  new GatewayError(
    'CONNECTION_LIMIT',
    `Closed to make room: all ${limit} connections were taken, and this one had not sent initialize with an API key yet. Send initialize (in the 2026-07-28 era, any request) with params._meta.apiKey as soon as you connect.`,
  );

function refuse(socket: Socket, error: GatewayError): void {
  socket.on('error', () => {});
  socket.end(`${JSON.stringify(jsonRpcError(null, error))}\n`);
  // Not only ended: a peer that keeps its half open would keep the descriptor.
  socket.destroySoon();
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function boundAddress(server: Server, address: SocketAddress): SocketAddress {
  if (address.kind === 'unix') return address;
  const info = server.address();
  return typeof info === 'object' && info ? { kind: 'tcp', host: info.address, port: info.port } : address;
}

/** 127.0.0.0/8, ::1 or localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

/** `auth: none` serves loopback only: anyone who can connect could call every tool. */
export function refuseExposedWithoutAuth(gateway: SocketServerGateway, transport: string, host: string): void {
  if (gateway.keys.required || isLoopback(host)) return;
  throw new GatewayError(
    'CONFIG_INVALID',
    `Refusing to serve ${transport} on ${host} with auth: none: anyone who can reach it could call every tool. Remove auth: none (keys are then required) or bind 127.0.0.1.`,
  );
}

/** A non-loopback TCP address: refused with `auth: none`, a warning (plain text) otherwise. */
function checkExposure(gateway: SocketServerGateway, host: string): void {
  refuseExposedWithoutAuth(gateway, 'TCP', host);
  if (isLoopback(host)) return;
  gateway.log.warn(
    { host },
    `TCP transport bound to ${host}, which is reachable from other machines. TCP is plain text: API keys and calls cross the network unencrypted. Bind 127.0.0.1 unless this network is trusted, or tunnel it.`,
  );
}
