import type { IncomingMessage } from 'node:http';
import type { ApiKeys, Principal } from '../auth/api-keys.js';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The outcome of checking one request: who it is, or why it is refused. */
export type GuardResult = { ok: true; principal?: Principal } | { ok: false; error: GatewayError };

/**
 * Checks every HTTP request (and WebSocket upgrade) before any route runs:
 * - exactly one Host header (DUPLICATE_HOST_HEADER otherwise), and it and Origin must name
 *   this gateway: a page on another site that rebinds its DNS name to 127.0.0.1 sends its own
 *   Host, and is refused (HOST_NOT_ALLOWED);
 * - with `auth: key`, a known key must come as `Authorization: Bearer`, `X-API-Key`, or the
 *   explorer's cookie (set by `/docs?key=`), which counts only on the browser's same-origin
 *   requests so that another page on a loopback port cannot ride on it.
 */
export class HttpGuard {
  readonly keys: ApiKeys;
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;
  /** Per request: the Host/Origin verdict and who the key says it is (or why it is unknown). */
  readonly #cache = new WeakMap<IncomingMessage, { refusal?: GatewayError; principal?: Principal; keyRefusal?: GatewayError }>();
  /** The last Host header seen and its verdict: clients send the same one on every request. */
  #lastHost: { header: string; allowed: boolean } | undefined;

  constructor(config: HttpConfig, boundHost: string, keys: ApiKeys) {
    this.keys = keys;
    const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
    this.#hosts = new Set([...LOOPBACK_NAMES, bound, ...config.allowedHosts].map((h) => h.toLowerCase()));
    this.#origins = new Set(config.allowedOrigins.map((o) => o.toLowerCase()));
  }

  /**
   * Checks a request; `needsKey` is false for public routes, which still get the Host check.
   * The work is memoised per request, so the admission hook and the routes share it; `once`
   * says no one will ask about this request again (the REST call path), and skips the memo,
   * whose WeakMap entry costs more than the rest of the check.
   */
  check(request: IncomingMessage, needsKey = true, once = false): GuardResult {
    let verdict = this.#cache.get(request);
    if (!verdict) {
      verdict = this.#examine(request);
      if (!once) this.#cache.set(request, verdict);
    }
    if (verdict.refusal) return { ok: false, error: verdict.refusal };
    if (!needsKey || !this.keys.required) return { ok: true, principal: verdict.principal };
    return verdict.keyRefusal ? { ok: false, error: verdict.keyRefusal } : { ok: true, principal: verdict.principal };
  }

  #examine(request: IncomingMessage): { refusal?: GatewayError; principal?: Principal; keyRefusal?: GatewayError } {
    // Node keeps the first of two Host headers; a proxy in front may route by the last. A
    // request that names two hosts is refused whatever they are, before either is judged.
    if (hasSecondHost(request.rawHeaders)) {
      return { refusal: new GatewayError('DUPLICATE_HOST_HEADER', 'The request has more than one Host header; send exactly one.') };
    }
    if (!this.#hostAllowed(request.headers.host)) {
      return { refusal: new GatewayError('HOST_NOT_ALLOWED', `Host "${request.headers.host ?? ''}" is not served here; add its name (without the port) to transports.http.allowedHosts if it should be.`) };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#originAllowed(origin)) {
      return { refusal: new GatewayError('HOST_NOT_ALLOWED', `Origin "${origin}" is not allowed; add it to transports.http.allowedOrigins if it should be.`) };
    }
    if (!this.keys.required) return {};
    const presented = presentedKey(request);
    if (!presented) {
      return { keyRefusal: new GatewayError('UNAUTHORIZED', 'This gateway needs an API key: send "Authorization: Bearer <key>" or "X-API-Key: <key>" (the owner key is in the data folder\'s owner.key; `mcp-gateway keys owner` prints it).') };
    }
    const principal = this.keys.authenticate(presented);
    return principal ? { principal } : { keyRefusal: new GatewayError('UNAUTHORIZED', 'The API key is not known to this gateway.') };
  }

  #hostAllowed(header: string | undefined): boolean {
    if (header === undefined) return false;
    const last = this.#lastHost;
    if (last !== undefined && last.header === header) return last.allowed;
    const host = hostName(header);
    const allowed = host !== undefined && this.#hosts.has(host);
    this.#lastHost = { header, allowed };
    return allowed;
  }

  #originAllowed(origin: string): boolean {
    if (this.#origins.has(origin.toLowerCase())) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && this.#hosts.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  }
}

/** Whether `Host` appears twice among the raw headers (name, value, name, value…), in any case. */
function hasSecondHost(raw: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

/** `Host: example.com:9101` → `example.com`; `[::1]:9101` → `[::1]`. */
function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(header.trim().toLowerCase());
  return match?.[1];
}

/** The cookie `/docs?key=` sets for the explorer. */
export const EXPLORER_COOKIE = 'mgw_key';

const BEARER = /^bearer /i;

function presentedKey(request: IncomingMessage): string | undefined {
  const auth = request.headers.authorization;
  // (Not auth.toLowerCase(): a copy of the whole header, key included, on every request.)
  if (auth !== undefined && BEARER.test(auth)) return auth.slice(7).trim() || undefined;
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  // Cookies of 127.0.0.1 go to every port of it: only a same-origin request (a header no
  // page can forge) may use the explorer's.
  if (request.headers['sec-fetch-site'] === 'same-origin') return cookieValue(request.headers.cookie, EXPLORER_COOKIE);
  return undefined;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || undefined;
  }
  return undefined;
}
