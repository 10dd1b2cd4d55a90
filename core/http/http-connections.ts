import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionSlots } from '../lib/connection-slots.js';
import { coreErrors, GatewayError } from '../contract/errors.js';
import { clientAddressGroup } from './client-address.js';
import { rawErrorResponse } from './http-reply.js';

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
}

/**
 * Each counted socket's slots. The admission (http-admission.ts) sees requests, not the server
 * they came through, and marks their connections here; keyed by socket, so an entry goes
 * with its connection.
 */
const slotsOf = new WeakMap<Socket, ConnectionSlots>();

/**
 * Caps the open HTTP connections, in all and per client (client-address.ts: every loopback
 * address is one client, an IPv6 address counts by its /64), at accept time: before any byte
 * is parsed, so that a flood of idle connections cannot take every file descriptor.
 *
 * A connection keeps its slot once a request on it has shown a valid key (any admitted
 * request with `auth: none`), or once it is a WebSocket. Until then, a new connection that
 * finds a cap reached takes its slot, oldest first, and it is closed without an answer
 * (connection-slots.ts): idle connections, slow headers and keyless requests cannot keep a
 * keyed caller out. A connection that finds every slot in its way kept is answered 503
 * CONNECTION_LIMIT and closed.
 */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  const slots = new ConnectionSlots({ total: limits.maxConnections, perGroup: limits.maxConnectionsPerAddress });
  server.prependListener('connection', (socket: Socket) => {
    const slot = slots.take(socket, clientAddressGroup(socket.remoteAddress));
    if (!slot.ok) {
      const which = slot.full === 'total' ? `${limits.maxConnections} in all` : `${limits.maxConnectionsPerAddress} per client address (all loopback addresses count as one)`;
      socket.on('error', () => {});
      const error = new GatewayError('CONNECTION_LIMIT', `Too many HTTP connections: this gateway serves at most ${which}. Close idle connections or retry later.`);
      socket.end(rawErrorResponse(error, coreErrors.CONNECTION_LIMIT.status, { 'retry-after': 1 }));
      socket.destroySoon();
      return;
    }
    slotsOf.set(socket, slots);
    // It has made no request that a key admitted: nothing of ours is waiting to be read on it.
    slot.displaced?.destroy();
  });
  // Every WebSocket route checks its upgrade before it answers 101 (events-socket.ts,
  // plugin-sockets.ts), and a refused one is ended: an upgraded connection that ends its side
  // was refused, and may give its slot up again.
  server.prependListener('upgrade', (_request, socket: Socket) => {
    slots.authenticated(socket);
    socket.once('finish', () => slots.waiting(socket));
  });
}

/** A request on `socket` was admitted with a valid key (or keys are off): its connection keeps its slot. */
export function connectionAuthenticated(socket: Socket): void {
  slotsOf.get(socket)?.authenticated(socket);
}
