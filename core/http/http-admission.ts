import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/api-keys.js';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import type { HttpGuard } from './http-guard.js';
import { bodyTooLarge, parseJsonBody, readBody, type HttpHeaders } from './http-reply.js';
import { clientAddressGroup } from './client-address.js';
import { connectionAuthenticated } from './http-connections.js';
import { RateLimiter } from './rate-limit.js';

/** Routes anyone who passes the Host check may read: health checks, metrics, the API's description. */
const PUBLIC_PATHS = /^\/(health(\/live)?|metrics|openapi\.json|docs(\/.*)?)$/;
/** Routes the rate limit does not count: probes and scrapers call them on a schedule. */
const UNCOUNTED_PATHS = new Set(['/health', '/health/live', '/metrics']);

/** Whether a request may go on, who made it, and the rate-limit headers its answer carries. */
export type Admission = Admitted | { readonly ok: false; readonly error: GatewayError; readonly headers?: HttpHeaders };
export type Admitted = { readonly ok: true; readonly principal?: Principal; readonly headers?: HttpHeaders };

/**
 * The checks every HTTP request passes before any route runs, whichever path serves it
 * (fastify's hook, or the REST call path in rest-calls.ts): Host/Origin and API key
 * (HttpGuard), then the rate limit per key, or per client address without keys.
 */
export class HttpAdmission {
  readonly #guard: HttpGuard;
  readonly #limiter?: RateLimiter;
  readonly #max: number;
  readonly #windowS: number;

  constructor(guard: HttpGuard, { max, timeWindowMs }: HttpConfig['rateLimit']) {
    this.#guard = guard;
    this.#limiter = max > 0 ? new RateLimiter(max, timeWindowMs) : undefined;
    this.#max = max;
    this.#windowS = Math.round(timeWindowMs / 1000);
  }

  /**
   * Checks `request` for `path` (its URL without the query). `once`: nothing checks this
   * request after the admission (see HttpGuard.check).
   */
  admit(request: IncomingMessage, path: string, once = false): Admission {
    const result = this.#guard.check(request, !PUBLIC_PATHS.test(path), once);
    // A caller that showed its key keeps its connection's slot (http-connections.ts).
    if (result.ok && (result.principal || !this.#guard.keys.required)) connectionAuthenticated(request.socket);
    if (!result.ok || !this.#limiter || UNCOUNTED_PATHS.has(path)) return result;
    const key = result.principal ? `key:${result.principal.name}` : `ip:${clientAddressGroup(request.socket.remoteAddress)}`;
    const decision = this.#limiter.hit(key);
    const resetS = Math.ceil(decision.resetMs / 1000);
    const headers: HttpHeaders = { 'x-ratelimit-limit': decision.limit, 'x-ratelimit-remaining': decision.remaining, 'x-ratelimit-reset': resetS };
    if (decision.allowed) return { ok: true, principal: result.principal, headers };
    headers['retry-after'] = resetS;
    const message = `Rate limit of ${this.#max} requests per ${this.#windowS} s reached; retry in ${resetS} s.`;
    return { ok: false, error: new GatewayError('RATE_LIMITED', message), headers };
  }
}

/**
 * How the fast paths (rest-calls.ts, mcp-http.ts) start a request with a JSON body: admitted
 * for `path` (once: it never reaches fastify's hooks, which would ask again), its body read
 * with the size limit and parsed, then `done`. Anything refused goes to `refuse` with the
 * headers its answer carries: the admission's refusal; a body past `bodyLimit` (by its
 * Content-Length or as it arrives) with the rate limit's headers and `connection: close`,
 * since the rest of the body would be taken for the next request on the connection; a body
 * that is not JSON (PARSE_ERROR, INVALID_REQUEST). A connection reset mid-body calls neither.
 */
export function admitJsonRequest(
  req: IncomingMessage,
  admission: HttpAdmission,
  path: string,
  bodyLimit: number,
  refuse: (error: GatewayError, headers?: HttpHeaders) => void,
  done: (body: unknown, admitted: Admitted) => void,
): void {
  const admitted = admission.admit(req, path, true);
  if (!admitted.ok) return refuse(admitted.error, admitted.headers);
  readBody(
    req,
    bodyLimit,
    (text) => {
      let body: unknown;
      try {
        body = parseJsonBody(text);
      } catch (err) {
        // parseJsonBody throws only GatewayErrors.
        return refuse(err as GatewayError, admitted.headers);
      }
      done(body, admitted);
    },
    () => refuse(bodyTooLarge(bodyLimit), { ...admitted.headers, connection: 'close' }),
  );
}
