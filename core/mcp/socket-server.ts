import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';
import type { ListenerConfig } from '../config.js';
import { GatewayError } from '../errors.js';
import { jsonRpcError } from '../replies.js';
import type { Gateway } from '../gateway.js';
import { NdjsonTransport } from './ndjson-transport.js';
import { admitTcpClient, type TcpAdmission } from './tcp-auth.js';
import { pluginScope, toolScope } from '../http/api-keys.js';

export type SocketAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

/** A listening TCP or unix-socket endpoint; one MCP session per connection. */
export interface SocketListener {
  readonly address: SocketAddress;
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Serves newline-delimited JSON-RPC on TCP or a unix socket. Connections past the limit get
 * one JSON-RPC error line and are closed; a unix socket file is created with mode 0600 and
 * removed on close.
 */
export async function listenSocket(gateway: Gateway, address: SocketAddress, limits: ListenerConfig): Promise<SocketListener> {
  const { lifecycle } = gateway;
  await lifecycle.checkpoint(`${address.kind}-starting`);
  const listener = await lifecycle.start(address.kind, () => startSocketServer(gateway, address, limits), (started) => started.close());
  await lifecycle.checkpoint(`${address.kind}-listening`);
  return listener;
}

async function startSocketServer(gateway: Gateway, address: SocketAddress, limits: ListenerConfig): Promise<SocketListener> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    if (sockets.size >= limits.maxConnections) {
      refuse(socket, limits.maxConnections);
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(gateway, socket, address, limits).catch((err) => {
      gateway.log.error({ err }, 'could not open an MCP session');
      socket.destroy();
    });
  });
  server.on('error', (err) => gateway.log.error({ err }, 'socket server error'));

  if (address.kind === 'unix') await removeStaleSocket(address.path);
  else checkExposure(gateway, address.host);

  await listen(server, address);
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
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
        if (address.kind === 'unix' && existsSync(address.path)) unlinkSync(address.path);
      })()),
  };
}

async function serveConnection(gateway: Gateway, socket: Socket, address: SocketAddress, limits: ListenerConfig): Promise<void> {
  socket.setNoDelay(true);
  const peer = address.kind === 'tcp' ? `${socket.remoteAddress}:${socket.remotePort}` : 'unix';
  const transport = new NdjsonTransport(socket, socket, {
    maxMessageBytes: limits.maxMessageBytes,
    onEnd: () => socket.end(),
  });
  // The unix socket is the owner's alone (mode 0600): like stdio, it needs no key.
  let admitted: TcpAdmission | undefined;
  if (address.kind === 'tcp' && gateway.keys.required) {
    admitted = await admitTcpClient(transport, socket, gateway.keys);
    if (!admitted) return;
    // The SDK chains onto a handler it finds on the transport: the admission's must go.
    transport.onmessage = undefined;
  }
  const { principal } = admitted ?? {};
  const { server } = await gateway.connect(transport, { transport: address.kind, peer, identity: principal?.name, allows: toolScope(principal), allowsPlugin: pluginScope(principal) });
  // Closing the SDK server closes the transport, which ends the socket.
  socket.once('close', () => void server.close().catch(() => {}));
  if (admitted) {
    for (const message of admitted.messages) transport.onmessage?.(message);
    socket.resume();
  }
}

function refuse(socket: Socket, limit: number): void {
  const error = new GatewayError('CONNECTION_LIMIT', `Too many connections: this gateway serves at most ${limit} on this transport. Retry later.`);
  socket.on('error', () => {});
  socket.end(`${JSON.stringify(jsonRpcError(null, error))}\n`);
  // Not only ended: a peer that keeps its half open would keep the descriptor.
  socket.destroySoon();
}

function listen(server: Server, address: SocketAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (address.kind === 'tcp') {
      server.listen({ host: address.host, port: address.port }, done);
      return;
    }
    // umask makes the socket file 0600 from the moment it exists; chmod afterwards would
    // leave a window in which another local user could connect.
    const previous = process.umask(0o177);
    try {
      server.listen(address.path, () => {
        chmodSync(address.path, 0o600);
        done();
      });
    } finally {
      process.umask(previous);
    }
  });
}

function boundAddress(server: Server, address: SocketAddress): SocketAddress {
  if (address.kind === 'unix') return address;
  const info = server.address();
  return typeof info === 'object' && info ? { kind: 'tcp', host: info.address, port: info.port } : address;
}

/**
 * A socket file left by a gateway that died is removed; one that a live gateway still
 * answers on is not stolen. Anything that is not a socket is never deleted.
 */
async function removeStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  if (!lstatSync(path).isSocket()) {
    throw new GatewayError('CONFIG_INVALID', `${path} exists and is not a socket; refusing to replace it. Choose another transports.unix.path.`);
  }
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) {
    throw new GatewayError('CONFIG_INVALID', `Another process is serving on ${path}. Stop it or choose another transports.unix.path.`);
  }
  unlinkSync(path);
}

/** 127.0.0.0/8, ::1 or localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

/** `auth: none` serves loopback only: anyone who can connect could call every tool. */
export function refuseExposedWithoutAuth(gateway: Gateway, transport: string, host: string): void {
  if (gateway.keys.required || isLoopback(host)) return;
  throw new GatewayError(
    'CONFIG_INVALID',
    `Refusing to serve ${transport} on ${host} with auth: none: anyone who can reach it could call every tool. Remove auth: none (keys are then required) or bind 127.0.0.1.`,
  );
}

/** A non-loopback TCP address: refused with `auth: none`, a warning (plain text) otherwise. */
function checkExposure(gateway: Gateway, host: string): void {
  refuseExposedWithoutAuth(gateway, 'TCP', host);
  if (isLoopback(host)) return;
  gateway.log.warn(
    { host },
    `TCP transport bound to ${host}, which is reachable from other machines. TCP is plain text: API keys and calls cross the network unencrypted. Bind 127.0.0.1 unless this network is trusted, or tunnel it.`,
  );
}
