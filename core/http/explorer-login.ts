import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeys } from '../auth/api-keys.js';
import { GatewayError } from '../contract/errors.js';
import { EXPLORER_COOKIE } from './http-guard.js';

/**
 * `GET /docs?key=<key>`, the explorer link the gateway prints at first start: a known key is
 * exchanged for an HttpOnly, SameSite=Strict cookie and the browser is sent on to `/docs`, so
 * the key leaves the address bar after one use and the explorer's requests carry it. Returns
 * the refusal for an unknown key, true when it answered, false for any other request.
 */
export function answerExplorerLogin(request: FastifyRequest, reply: FastifyReply, keys: ApiKeys): GatewayError | boolean {
  const path = request.url.split('?')[0];
  const key = (request.query as { key?: unknown } | undefined)?.key;
  if ((path !== '/docs' && path !== '/docs/') || typeof key !== 'string') return false;
  if (!keys.authenticate(key)) return new GatewayError('UNAUTHORIZED', 'The key in this link is not known to this gateway; `mcp-gateway keys owner` prints a current link.');
  void reply
    .code(303)
    .header('set-cookie', `${EXPLORER_COOKIE}=${key}; Path=/; HttpOnly; SameSite=Strict`)
    .header('location', '/docs')
    .header('cache-control', 'no-store')
    .send();
  return true;
}
