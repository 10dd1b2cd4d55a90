import type { CacheableRequestOptions, Client } from '@modelcontextprotocol/client';

/** The first revision without sessions: `server/discover`, `subscriptions/listen`, no `ping`. */
const MODERN = '2026-07-28';

/** Whether the connection negotiated the 2026-07-28 revision (or a later one) rather than 2025's `initialize`. */
export function isModern(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  return version !== undefined && version >= MODERN;
}

/** Whether the server still answers: `ping` in the 2025 era, `server/discover` in 2026's (which has no ping). */
export async function answers(client: Client, timeout: number): Promise<void> {
  if (isModern(client)) await client.discover({ timeout });
  else await client.ping({ timeout });
}

/**
 * Every list and read goes to the server: the catalogs keep their own copy, refreshed when the
 * server says a list changed, and a read is the caller's, never an answer the SDK kept for
 * another caller (a 2026 server's `ttlMs` would let the SDK serve one).
 */
export const UNCACHED: CacheableRequestOptions = { cacheMode: 'bypass' };
