import type { CacheableRequestOptions, Client } from '@modelcontextprotocol/client';

/** The first revision without sessions: `server/discover`, `subscriptions/listen`, no `ping`. */
const MODERN = '2026-07-28';

/** Whether the connection negotiated the 2026-07-28 revision (or a later one) rather than 2025's `initialize`. */
export function isModern(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  return version !== undefined && version >= MODERN;
}

/**
 * Whether the server still answers: `ping` in the 2025 era, `server/discover` in 2026's (which
 * has no ping). Rejects with a reason that names the request.
 */
export async function answers(client: Client, timeout: number): Promise<void> {
  const modern = isModern(client);
  try {
    if (modern) await client.discover({ timeout });
    else await client.ping({ timeout });
  } catch (err) {
    throw new Error(`no answer to ${modern ? 'server/discover' : 'ping'}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * A read goes to the server: it is the caller's, never an answer the SDK kept for another
 * caller (a 2026 server's `ttlMs` would let the SDK serve one). Lists are fetched page by page
 * with `client.request`, which keeps no cache (and no page cap of its own).
 */
export const UNCACHED: CacheableRequestOptions = { cacheMode: 'bypass' };
