import { createHash } from 'node:crypto';
import type { EmbeddingsReadiness, EmbedOptions } from './api.js';
import type { RaiseError } from './declaration.js';
import type { ProviderClient } from './provider-client.js';
import type { ProviderSettings } from './settings.js';
import type { VectorCache } from './vector-cache.js';

export interface EmbedderLimits {
  readonly batchSize: number;
  readonly maxTexts: number;
  readonly maxInputChars: number;
}

/** What one call gave: the vectors in input order, and how many texts the cache answered. */
export interface Embedded {
  readonly vectors: number[][];
  readonly cached: number;
}

/** The configured provider: its settings, its client, and the cache when enabled. */
export interface ProviderParts {
  readonly settings: ProviderSettings;
  readonly client: ProviderClient;
  readonly cache: VectorCache | undefined;
}

export const NO_PROVIDER = 'no embedding provider configured (plugins.embeddings.config.provider)';

/**
 * Texts to vectors: checked, prefixed for their purpose, looked up in the cache by hash, the
 * rest sent once each (a text twice in a call is embedded once) in batches, one after another.
 * Every vector comes back as float32 values, whether fresh or cached, so that a text gets the
 * same numbers on every call.
 */
export class Embedder {
  /** Texts answered from the cache and texts sent to the provider, since the gateway started. */
  readonly counts = { hits: 0, misses: 0 };
  readonly #provider: ProviderParts | undefined;
  readonly #limits: EmbedderLimits;
  readonly #error: RaiseError;

  constructor(provider: ProviderParts | undefined, limits: EmbedderLimits, error: RaiseError) {
    this.#provider = provider;
    this.#limits = limits;
    this.#error = error;
  }

  readiness(): EmbeddingsReadiness {
    if (!this.#provider) return { ok: false, reason: NO_PROVIDER };
    const { client, settings } = this.#provider;
    return client.open ? { ok: false, reason: `embedding provider ${settings.shownUrl} unavailable: breaker open` } : { ok: true };
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Embedded> {
    if (!this.#provider) {
      throw this.#error('EMBEDDINGS_DISABLED', `${NO_PROVIDER}: configure plugins.embeddings.config.provider (openai or ollama) with model and dimensions.`);
    }
    this.#check(texts);
    const { settings, client, cache } = this.#provider;
    const prefix = settings.prefixes[options.purpose ?? 'document'];
    const hashes = texts.map((text) => hashOf(prefix + text));
    const unique = new Map<string, string>();
    hashes.forEach((hash, i) => unique.has(hash) || unique.set(hash, prefix + texts[i]!));

    const vectors = cache ? await cache.get(settings.space, [...unique.keys()]) : new Map<string, number[]>();
    const cached = hashes.filter((hash) => vectors.has(hash)).length;
    const missing = [...unique.keys()].filter((hash) => !vectors.has(hash));
    for (let i = 0; i < missing.length; i += this.#limits.batchSize) {
      options.signal?.throwIfAborted();
      const batch = missing.slice(i, i + this.#limits.batchSize);
      const fresh = (await client.embed(batch.map((hash) => unique.get(hash)!), options.signal)).map((v) => v.map(Math.fround));
      batch.forEach((hash, j) => vectors.set(hash, fresh[j]!));
      await cache?.put(settings.space, batch.map((hash, j) => ({ hash, vector: fresh[j]! })));
    }
    this.counts.hits += cached;
    this.counts.misses += texts.length - cached;
    // A copy each: two equal texts must not share one array a caller might change.
    return { vectors: hashes.map((hash) => vectors.get(hash)!.slice()), cached };
  }

  #check(texts: readonly string[]): void {
    const { maxTexts, maxInputChars } = this.#limits;
    if (!Array.isArray(texts)) throw this.#error('EMBEDDINGS_INPUT_INVALID', 'texts must be a list of strings.');
    if (texts.length > maxTexts) {
      throw this.#error(
        'EMBEDDINGS_INPUT_INVALID',
        `${texts.length} texts in one call; at most ${maxTexts} (plugins.embeddings.config.maxTexts). Split them into several calls.`,
        { count: texts.length, maxTexts },
      );
    }
    texts.forEach((text, index) => {
      if (typeof text !== 'string' || text.length === 0) {
        throw this.#error('EMBEDDINGS_INPUT_INVALID', `Text ${index} is ${typeof text === 'string' ? 'empty' : 'not a string'}: every text needs at least one character.`, { index });
      }
      if (text.length > maxInputChars) {
        throw this.#error(
          'EMBEDDINGS_INPUT_INVALID',
          `Text ${index} has ${text.length} characters; at most ${maxInputChars} (plugins.embeddings.config.maxInputChars). Split it into chunks.`,
          { index, length: text.length, maxInputChars },
        );
      }
    });
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
