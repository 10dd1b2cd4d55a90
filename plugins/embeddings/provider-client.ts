import type { Breaker } from '../../core/index.js';
import type { RaiseError } from './errors.js';
import type { ProviderSettings } from './settings.js';
import { wireFormats, type WireFormat } from './wire-formats.js';

/** Longest piece of a provider's error text passed on to the caller. */
const MAX_MESSAGE_CHARS = 500;

/**
 * The breaker's error filter: only what says the provider is unwell counts against it —
 * no connection, a timeout, a 5xx or a 429. A 4xx answer (a bad key, an unknown model), a
 * body that is not embeddings, or vectors of another length come from a provider that is up
 * and answering; opening the breaker would only hide the real message behind BREAKER_OPEN.
 * A caller's abort is core's business (never counted, except for a half-open trial).
 */
export function isCallerError(err: unknown): boolean {
  const { code, details } = err as { code?: unknown; details?: { status?: unknown } };
  if (code === 'EMBEDDINGS_DIMENSION_MISMATCH') return true;
  if (code !== 'EMBEDDINGS_PROVIDER_FAILED') return false;
  const status = details?.status;
  return typeof status === 'number' && status < 500 && status !== 429;
}

/** Counts since the gateway started, for status and /metrics. */
export interface ProviderCounts {
  requests: number;
  failures: number;
}

/** One HTTP request per batch of texts to the configured provider, through its breaker. */
export class ProviderClient {
  readonly counts: ProviderCounts = { requests: 0, failures: 0 };
  /**
   * Set while the provider answers vectors of another length than the config says: a mistake
   * in the config that every write will meet, shown in status (and /health) until an answer fits.
   */
  mismatch: string | undefined;
  readonly #settings: ProviderSettings;
  readonly #wire: WireFormat;
  readonly #breaker: Breaker;
  readonly #error: RaiseError;

  constructor(settings: ProviderSettings, breaker: Breaker, error: RaiseError) {
    this.#settings = settings;
    this.#wire = wireFormats[settings.provider];
    this.#breaker = breaker;
    this.#error = error;
  }

  /** True while the breaker answers BREAKER_OPEN at once (half-open lets a trial through). */
  get open(): boolean {
    return this.#breaker.state === 'open';
  }

  /** One vector per text, in order, each `dimensions` finite numbers; throws the plugin's codes or the breaker's. */
  embed(texts: readonly string[], callerSignal?: AbortSignal): Promise<number[][]> {
    return this.#breaker.call(async (signal) => {
      this.counts.requests++;
      try {
        return await this.#request(texts, callerSignal ? AbortSignal.any([signal, callerSignal]) : signal);
      } catch (err) {
        if (!callerSignal?.aborted) this.counts.failures++;
        throw err;
      }
    }, callerSignal ? { signal: callerSignal } : {});
  }

  async #request(texts: readonly string[], signal: AbortSignal): Promise<number[][]> {
    const settings = this.#settings;
    const headers = new Headers(settings.headers);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json');
    if (settings.apiKey) headers.set('authorization', `Bearer ${settings.apiKey}`);
    let text: string;
    let status: number;
    try {
      const response = await fetch(settings.endpoint, { method: 'POST', headers, body: JSON.stringify(this.#wire.body(texts, settings)), signal });
      status = response.status;
      text = await response.text();
    } catch (err) {
      // The breaker's timeout or the caller's abort: their reason (BREAKER_TIMEOUT, CANCELLED) says it best.
      if (signal.aborted) throw signal.reason;
      throw this.#failed(`cannot be reached (${reasonOf(err)})`, { reason: reasonOf(err) });
    }
    if (status < 200 || status > 299) throw this.#refused(status, text);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw this.#failed(`answered ${status} with a body that is not JSON: ${this.#excerpt(text)}`, { status });
    }
    const parsed = this.#wire.parse(answer, texts.length);
    if ('problem' in parsed) throw this.#failed(`answered something that is not embeddings (${parsed.problem})`, { status });
    try {
      const vectors = this.#checked(parsed.vectors, status);
      this.mismatch = undefined;
      return vectors;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'EMBEDDINGS_DIMENSION_MISMATCH') this.mismatch = (err as Error).message;
      throw err;
    }
  }

  /** Arrays of finite numbers, all of the configured length; otherwise nothing is returned. */
  #checked(vectors: readonly unknown[], status: number): number[][] {
    const lengths = new Set<number>();
    vectors.forEach((vector, i) => {
      if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw this.#failed(`answered something that is not embeddings (item ${i} is not a list of finite numbers)`, { status });
      }
      if (vector.length !== this.#settings.dimensions) lengths.add(vector.length);
    });
    if (lengths.size) {
      const { model, dimensions } = this.#settings;
      const got = [...lengths].sort((a, b) => a - b);
      throw this.#error(
        'EMBEDDINGS_DIMENSION_MISMATCH',
        `The model "${model}" answered vectors of ${got.join(', ')} numbers, but plugins.embeddings.config.dimensions is ${dimensions}: set dimensions to the model's length. Nothing was cached.`,
        { model, expected: dimensions, got },
      );
    }
    return vectors as number[][];
  }

  /** A non-2xx answer: its status and the provider's own message, with a hint for the usual ones. */
  #refused(status: number, text: string): Error {
    const { apiKeyEnv, apiKey, model } = this.#settings;
    const message = this.#excerpt(providerMessage(text));
    let hint = '';
    if (status === 401 || status === 403) {
      hint = !apiKeyEnv ? ' The request carried no key: set apiKeyEnv.' : apiKey ? ` Check the key in $${apiKeyEnv}.` : ` No key was sent: $${apiKeyEnv} is not set.`;
    } else if (status === 404) {
      const { provider, endpoint } = this.#settings;
      // OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp) serve the API under /v1.
      const v1 = provider === 'openai' && !new URL(endpoint).pathname.includes('/v1/') ? ' OpenAI-compatible servers answer under /v1: try url http://host:port/v1.' : '';
      hint = `${v1} Check url and that the model "${model}" is there (ollama pull ${model}).`;
    }
    return this.#failed(`answered ${status}: ${message || '(no message)'}.${hint}`, { status, message });
  }

  #failed(what: string, details: Record<string, unknown>): Error {
    const { provider, shownUrl } = this.#settings;
    return this.#error('EMBEDDINGS_PROVIDER_FAILED', `The embedding provider ${shownUrl} ${what}`, { provider, url: shownUrl, ...details });
  }

  /** Trimmed, short, and without the key should the provider repeat it. */
  #excerpt(text: string): string {
    const key = this.#settings.apiKey;
    const clean = (key ? text.split(key).join('***') : text).replace(/\s+/g, ' ').trim().replace(/\.$/, '');
    return clean.length > MAX_MESSAGE_CHARS ? `${clean.slice(0, MAX_MESSAGE_CHARS)}…` : clean;
  }
}

/** `{error: {message}}` (OpenAI), `{error: "..."}` (Ollama), or the body's text. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body.error as { message?: unknown } | string | undefined;
    for (const candidate of [typeof error === 'object' ? error?.message : error, body.message, body.detail]) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate;
    }
  } catch {
    // Not JSON: the text itself (an HTML error page, a proxy's plain text).
  }
  return text;
}

/** `ECONNREFUSED`, `ENOTFOUND`...: fetch hides the socket's error in `cause`. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (err as Error)?.message ?? String(err);
}
