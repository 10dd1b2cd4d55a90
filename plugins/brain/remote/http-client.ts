// JSON over HTTP to the remote brain, whichever protocol it speaks: every attempt through the
// `brain:remote` breaker, retries on what a retry can cure, and nothing of the key in any message.
import { fetchFailureReason, readCappedText, type Breaker } from '@mcp-gateway/core';
import type { RaiseError } from '../declaration.js';
import { backoffMs, pause, retryAfterMs } from './backoff.js';
import { remoteMessage } from './http-body.js';
import type { RemoteSettings } from './remote-settings.js';

/** Longest piece of the remote's own text passed on in a message. */
const MAX_MESSAGE_CHARS = 500;
/** Keys shorter than this are not masked: no real key is that short, and masking would garble the message. */
const MIN_MASKED_CHARS = 4;

export interface RemoteRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Appended to the base URL: a path starting with `/`, with its query. */
  readonly path: string;
  /** Sent as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** The tool this request serves: a 403 names it. */
  readonly tool: string;
}

/** An answer the remote meant: a 2xx, or a 4xx other than 401, 403, 408 and 429 (those are handled here). */
export interface RemoteAnswer {
  readonly status: number;
  /** The parsed JSON body; undefined when empty, or when a 4xx's body is not JSON. */
  readonly body: unknown;
  readonly headers: Headers;
  /** The remote's own message for a 4xx (its error envelope's, or the text), key masked, shortened. */
  readonly message: string;
}

/**
 * `brain:remote`'s error filter: only what says the remote is unwell counts against it — no
 * connection, a timeout, 408, 429, a 5xx. A 4xx answer (a wrong key, an unknown id), a body
 * that is not a brain answer, a redirect, or a caller's abort come from a remote that is up;
 * opening the breaker on them would only hide the real message behind BREAKER_OPEN.
 */
export function isCallerError(err: unknown): boolean {
  return !countsAgainstRemote(err);
}

/** Unreachable, timed out, 408, 429 or 5xx: what counts against the remote, and what a retry may cure. */
function countsAgainstRemote(err: unknown): boolean {
  const { code, details } = (err ?? {}) as { code?: unknown; details?: { status?: unknown } };
  if (code === 'BREAKER_TIMEOUT') return true;
  if (code !== 'BRAIN_REMOTE_FAILED') return false;
  const status = details?.status;
  return status === undefined || isRetryableStatus(status as number);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export class RemoteClient {
  readonly #settings: RemoteSettings;
  readonly #breaker: Breaker;
  readonly #error: RaiseError;
  /** Retry-After of a failed attempt, by its error: the wait before the next one. */
  readonly #retryAfter = new WeakMap<object, number>();

  constructor(settings: RemoteSettings, breaker: Breaker, error: RaiseError) {
    this.#settings = settings;
    this.#breaker = breaker;
    this.#error = error;
  }

  /**
   * One request, retried up to `retries` times on a lost connection, a timeout, 408, 429 and
   * 5xx. Throws BREAKER_OPEN at once while the breaker is open, the caller's abort reason as
   * soon as it aborts, BRAIN_REMOTE_REFUSED for 401/403, BRAIN_REMOTE_FAILED otherwise.
   */
  async request(request: RemoteRequest, signal?: AbortSignal): Promise<RemoteAnswer> {
    if (!request.path.startsWith('/') || request.path.startsWith('//')) throw new Error(`RemoteClient: the path ${request.path} is not relative to the base URL`);
    const attempts = 1 + this.#settings.retries;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(request, signal);
      } catch (err) {
        if (signal?.aborted || !countsAgainstRemote(err)) throw err;
        if (attempt >= attempts) throw this.#exhausted(err, attempt);
        // An open breaker answers the next attempt at once: waiting first would only delay BREAKER_OPEN.
        if (this.#breaker.state === 'open') continue;
        const { retryBaseMs, retryMaxMs } = this.#settings;
        await pause(this.#retryAfter.get(err as object) ?? backoffMs(attempt, retryBaseMs, retryMaxMs), signal);
      }
    }
  }

  /** A BRAIN_REMOTE_FAILED naming the remote: for answers the protocols find wrong. */
  failed(what: string, details: { status?: number; reason: string; [more: string]: unknown }): Error {
    return this.#error('BRAIN_REMOTE_FAILED', `The remote brain ${this.#settings.base} ${what}`, details);
  }

  /** Trimmed, short, and without the key should the remote repeat it. */
  excerpt(text: string): string {
    const { apiKey } = this.#settings;
    // A key of a few characters would garble every message it is masked in (as in embeddings).
    const masked = apiKey && apiKey.length >= MIN_MASKED_CHARS ? text.split(apiKey).join('***') : text;
    const clean = masked.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
    return clean.length > MAX_MESSAGE_CHARS ? `${clean.slice(0, MAX_MESSAGE_CHARS)}…` : clean;
  }

  #attempt(request: RemoteRequest, callerSignal: AbortSignal | undefined): Promise<RemoteAnswer> {
    return this.#breaker.call((signal) => this.#send(request, signal), callerSignal ? { signal: callerSignal } : {});
  }


  async #send(request: RemoteRequest, signal: AbortSignal): Promise<RemoteAnswer> {
    const { base, apiKey, maxResponseBytes } = this.#settings;
    const headers = new Headers(request.headers);
    headers.set('accept', 'application/json');
    if (request.body !== undefined) headers.set('content-type', 'application/json');
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    let response: Response;
    try {
      // Redirects are not followed: the key and the memories would go wherever the remote points.
      response = await fetch(base + request.path, { method: request.method, headers, body, signal, redirect: 'manual' });
    } catch (err) {
      // The breaker's timeout or the caller's abort: their reason (BREAKER_TIMEOUT, CANCELLED) says it best.
      if (signal.aborted) throw signal.reason;
      throw this.failed(`cannot be reached (${fetchFailureReason(err)}).`, { reason: fetchFailureReason(err) });
    }
    const status = response.status;
    if (status >= 300 && status <= 399) {
      await response.body?.cancel().catch(() => undefined);
      throw this.#redirected(status, response.headers.get('location'));
    }
    let text: string | null;
    try {
      text = await readCappedText(response, maxResponseBytes);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      // No status in details: a connection lost mid-answer counts, and is retried, like one never made.
      throw this.failed(`dropped the connection while answering ${status} (${fetchFailureReason(err)}).`, { reason: fetchFailureReason(err) });
    }
    if (text === null) {
      throw this.failed(`answered more than remote.maxResponseBytes (${maxResponseBytes} bytes; status ${status}); the rest was not read. Raise maxResponseBytes if such answers are expected.`, {
        status,
        reason: 'too large',
        limit: maxResponseBytes,
      });
    }
    const isSuccess = status >= 200 && status <= 299;
    let parsed: unknown;
    let isJson = true;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      isJson = false;
    }
    if (isSuccess && !isJson) throw this.failed(`answered ${status} with a body that is not JSON: ${this.excerpt(text)}`, { status, reason: 'not JSON' });
    if (isSuccess) return { status, body: parsed, headers: response.headers, message: '' };

    const { message, code } = remoteMessage(isJson ? parsed : undefined, text);
    const shown = this.excerpt(message) || '(no message)';
    if (status === 401 || status === 403) throw this.#refused(status, request.tool, shown);
    if (isRetryableStatus(status)) {
      const error = this.failed(`answered ${status}: ${shown}.`, { status, reason: shown, ...(code ? { code } : {}) });
      const wait = retryAfterMs(response.headers.get('retry-after'), this.#settings.retryMaxMs);
      if (wait !== undefined) this.#retryAfter.set(error, wait);
      throw error;
    }
    return { status, body: isJson ? parsed : undefined, headers: response.headers, message: shown };
  }

  /** The exhausted retries: BRAIN_REMOTE_FAILED with the last failure's status and reason. */
  #exhausted(last: unknown, attempts: number): Error {
    const tries = attempts === 1 ? '' : ` Gave up after ${attempts} attempts.`;
    if ((last as { code?: unknown }).code === 'BREAKER_TIMEOUT') {
      return this.failed(`did not answer within remote.timeoutMs (${this.#settings.timeoutMs} ms).${tries}`, { reason: 'BREAKER_TIMEOUT', attempts });
    }
    const { message, details } = last as { message: string; details: Record<string, unknown> & { reason: string } };
    return this.#error('BRAIN_REMOTE_FAILED', `${message}${tries}`, { ...details, attempts });
  }

  /** 401: the key is missing or wrong; 403: it is valid but its scopes leave this tool out. */
  #refused(status: 401 | 403, tool: string, message: string): Error {
    const { base, apiKeyEnv, apiKey } = this.#settings;
    const fix =
      status === 403
        ? `the key in $${apiKeyEnv} is valid there, but its scopes on the remote do not allow ${tool}: give that key the brain tools (brain_*, or plugin:brain) on the remote.`
        : apiKey
          ? `the key in $${apiKeyEnv} is wrong or revoked: set $${apiKeyEnv} to a key the remote accepts.`
          : `no key was sent because $${apiKeyEnv} is not set: set $${apiKeyEnv} to a key the remote accepts.`;
    return this.#error('BRAIN_REMOTE_REFUSED', `The remote brain ${base} refused ${tool} (${status}: ${message}): ${fix}`, { status, tool, reason: message });
  }

  /** A 3xx: refused, naming where it pointed (without query or credentials) and the fix. */
  #redirected(status: number, location: string | null): Error {
    let where = '(no location)';
    if (location) {
      try {
        const url = new URL(location, this.#settings.base);
        url.username = '';
        url.password = '';
        url.search = '';
        url.hash = '';
        where = this.excerpt(url.toString());
      } catch {
        where = this.excerpt(location);
      }
    }
    return this.failed(`redirected to ${where} (${status}). Redirects are not followed, so that the key and the memories go nowhere else: set remote.url to the final address.`, {
      status,
      reason: 'redirect',
      location: where,
    });
  }
}
