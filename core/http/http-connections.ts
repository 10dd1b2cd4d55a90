import type { Server } from 'node:http';
import { coreErrors, GatewayError } from '../errors.js';
import { rawErrorResponse } from './http-reply.js';

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
}

/**
 * Caps the open HTTP connections, in all and per client address, at accept time: before any
 * byte is parsed and before any key is checked, so that a flood of idle connections (tens of
 * thousands, from one address) cannot take every file descriptor. A connection past a cap is
 * answered 503 CONNECTION_LIMIT and closed.
 */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  const byAddress = new Map<string, number>();
  let total = 0;
  server.prependListener('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = byAddress.get(address) ?? 0;
    if (total >= limits.maxConnections || fromAddress >= limits.maxConnectionsPerAddress) {
      const which = total >= limits.maxConnections ? `${limits.maxConnections} in all` : `${limits.maxConnectionsPerAddress} per client address`;
      socket.on('error', () => {});
      const error = new GatewayError('CONNECTION_LIMIT', `Too many HTTP connections: this gateway serves at most ${which}. Close idle connections or retry later.`);
      socket.end(rawErrorResponse(error, coreErrors.CONNECTION_LIMIT.status, { 'retry-after': 1 }));
      socket.destroySoon();
      return;
    }
    total++;
    byAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      total--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
}
