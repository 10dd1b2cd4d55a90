import type { Socket } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { ApiKeys, Principal } from '../auth/api-keys.js';
import { GatewayError } from '../contract/errors.js';
import { jsonRpcError } from '../contract/replies.js';
import type { NdjsonTransport } from './ndjson-transport.js';
import { claimsModernEra } from './era-claim.js';

export interface TcpAdmission {
  readonly principal: Principal;
  /** The first request (its key removed) and anything that came after it, in order. */
  readonly messages: JSONRPCMessage[];
}

/**
 * TCP has no headers, so its clients send the key in the first request, `initialize` (or, in
 * the 2026-07-28 era, whichever request comes first), as `params._meta.apiKey`. Starts `transport`, waits for that request and checks the key; the
 * socket is paused from then until the session is connected, so that nothing is handled
 * ahead of the initialize. Anything else first, an unknown key, or no such initialize within
 * `timeoutMs` (transports.tcp.authTimeoutMs) is answered with UNAUTHORIZED and the connection
 * closed (resolves undefined): a connection without a key holds its slot only that long.
 */
export async function admitTcpClient(transport: NdjsonTransport, socket: Socket, keys: ApiKeys, timeoutMs: number): Promise<TcpAdmission | undefined> {
  await transport.start();
  return new Promise((resolve) => {
    const messages: JSONRPCMessage[] = [];
    let principal: Principal | undefined;
    const refuse = (id: string | number | null, message: string) => {
      clearTimeout(timer);
      void transport
        .send(jsonRpcError(id, new GatewayError('UNAUTHORIZED', message)))
        .catch(() => {})
        .finally(() => {
          void transport.close();
          // Closed for good once the refusal is out: a client that keeps its half of the
          // connection open would otherwise hold a connection slot for ever.
          socket.destroySoon();
        });
      resolve(undefined);
    };
    const timer = setTimeout(
      () => refuse(null, `No initialize with an API key arrived within ${timeoutMs / 1000} s (transports.tcp.authTimeoutMs); connection closed. Send initialize (in the 2026-07-28 era, any request) with params._meta.apiKey as soon as you connect.`),
      timeoutMs,
    );
    transport.onclose = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    transport.onmessage = (message) => {
      if (principal) {
        messages.push(message);
        return;
      }
      const request = message as { id?: string | number; method?: string; params?: { _meta?: Record<string, unknown> } };
      // A 2026-07-28 client has no initialize: its first request (server/discover, say) carries the key.
      if ((request.method !== 'initialize' && !claimsModernEra(message)) || request.id === undefined) {
        return refuse(request.id ?? null, 'This gateway needs an API key: send it in the first request, initialize (in the 2026-07-28 era, whichever request comes first), as params._meta.apiKey.');
      }
      const meta = request.params?._meta;
      const key = meta?.apiKey;
      principal = typeof key === 'string' ? keys.authenticate(key) : undefined;
      if (!principal) return refuse(request.id, typeof key === 'string' ? 'The API key is not known to this gateway.' : `This gateway needs an API key: send it in ${request.method} as params._meta.apiKey.`);
      // The key goes no further: not to the SDK, not into any log.
      delete meta!.apiKey;
      clearTimeout(timer);
      socket.pause();
      transport.onclose = undefined;
      messages.push(message);
      resolve({ principal, messages });
    };
  });
}
