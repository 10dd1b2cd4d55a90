import type { Server } from 'node:http';
import { coreErrors } from './errors.js';

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
      socket.end(refusal(`Too many HTTP connections: this gateway serves at most ${which}. Close idle connections or retry later.`));
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

function refusal(message: string): string {
  const body = JSON.stringify({ success: false, error: { code: 'CONNECTION_LIMIT', message } });
  const status = coreErrors.CONNECTION_LIMIT.status;
  return `HTTP/1.1 ${status} Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`;
}
