import { fetchFailureReason, readCappedText, type Breaker } from '@mcp-gateway/core';
import type { RaiseError } from './declaration.js';
import type { ProviderSettings } from './settings.js';
import { wireFormats, type WireFormat } from './wire-formats.js';

/** Longest piece of a provider's error text passed on to the caller. */
const MAX_MESSAGE_CHARS = 500;

/**
 * The most an answer may hold, for a request of `count` texts: room for every number at 40
 * bytes (a provider writes one in about 20: `-0.012345678901234567,`; float64's longest form
 * is 24 characters, and pretty-printed JSON adds indentation), plus 1 MiB for the envelope,
 * usage counts or an HTML error page. At the schema's largest (batchSize 2,048 × 4,096
 * dimensions) that is 321 MiB, below V8's longest string; at the defaults (64 × 1,536) 4.75
 * MiB. A provider (or something in its place) that sends more is cut off there instead of
 * filling the gateway's memory.
 */
export function maxAnswerBytes(count: number, dimensions: number): number {
  return count * dimensions * 40 + 1024 * 1024;
}

/** Header values shorter than this are not masked: no secret, and masking would garble the message. */
const MIN_MASKED_CHARS = 4;
/** A word of a header value this long is masked on its own too (the token of `Bearer <token>`). */
const MIN_MASKED_WORD_CHARS = 8;

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
  /** What must never appear in a message: the key and the configured headers' values, longest first. */
  readonly #secrets: readonly string[];

  constructor(settings: ProviderSettings, breaker: Breaker, error: RaiseError) {
    this.#settings = settings;
    this.#wire = wireFormats[settings.provider];
    this.#breaker = breaker;
    this.#error = error;
    this.#secrets = secretsOf(settings);
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
    const cap = maxAnswerBytes(texts.length, settings.dimensions);
    let response: Response;
    let text: string | null;
    try {
      // Redirects are not followed: the configured headers (an api-key, say) and the texts
      // would go to wherever the provider points (fetch drops only Authorization on another origin).
      response = await fetch(settings.endpoint, { method: 'POST', headers, body: JSON.stringify(this.#wire.body(texts, settings)), signal, redirect: 'manual' });
      if (isRedirect(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        text = '';
      } else {
        text = await readCappedText(response, cap);
      }
    } catch (err) {
      // The breaker's timeout or the caller's abort: their reason (BREAKER_TIMEOUT, CANCELLED) says it best.
      if (signal.aborted) throw signal.reason;
      throw this.#failed(`cannot be reached (${fetchFailureReason(err)})`, { reason: fetchFailureReason(err) });
    }
    const status = response.status;
    if (isRedirect(status)) throw this.#redirected(status, response.headers.get('location'));
    if (text === null) {
      const what = `${texts.length} vector${texts.length === 1 ? '' : 's'} of ${settings.dimensions} numbers`;
      throw this.#failed(`answered more than ${cap} bytes (status ${status}), more than ${what} can need; the rest was not read.`, { status, limit: cap });
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

  /** A 3xx: refused, naming where it pointed (without query or credentials) and the fix. */
  #redirected(status: number, location: string | null): Error {
    let where = '(no location)';
    if (location) {
      try {
        const url = new URL(location, this.#settings.endpoint);
        url.username = '';
        url.password = '';
        url.search = '';
        url.hash = '';
        where = url.toString();
      } catch {
        where = location;
      }
      where = this.#excerpt(where);
    }
    return this.#failed(
      `redirected to ${where} (${status}). Redirects are not followed, so that the key, the headers and the texts go nowhere else: set url to the final address.`,
      { status, location: where },
    );
  }

  #failed(what: string, details: Record<string, unknown>): Error {
    const { provider, shownUrl } = this.#settings;
    return this.#error('EMBEDDINGS_PROVIDER_FAILED', `The embedding provider ${shownUrl} ${what}`, { provider, url: shownUrl, ...details });
  }

  /** Trimmed, short, and without the key or a header's value should the provider repeat them. */
  #excerpt(text: string): string {
    let masked = text;
    for (const secret of this.#secrets) masked = masked.split(secret).join('***');
    const clean = masked.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
    return clean.length > MAX_MESSAGE_CHARS ? `${clean.slice(0, MAX_MESSAGE_CHARS)}…` : clean;
  }
}

/**
 * The key, each configured header's value, and the words of a value with several (the token of
 * `Bearer <token>`), longest first so that a longer secret is masked whole.
 */
function secretsOf(settings: ProviderSettings): string[] {
  const secrets = new Set<string>();
  if (settings.apiKey) secrets.add(settings.apiKey);
  for (const raw of Object.values(settings.headers)) {
    const value = raw.trim();
    if (value.length >= MIN_MASKED_CHARS) secrets.add(value);
    for (const word of value.split(/\s+/)) if (word.length >= MIN_MASKED_WORD_CHARS && word !== value) secrets.add(word);
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

function isRedirect(status: number): boolean {
  return status >= 300 && status <= 399;
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

