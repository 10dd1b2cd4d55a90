// What a plugin that keeps vectors in a search index needs around the embeddings plugin (brain,
// knowledge): the plugin may be absent or its provider down, and the work goes on by words then;
// rows written meanwhile get their vectors later. In the public API, so that plugins share it
// without importing one another.
import type { Logger } from '../lib/logger.js';
import type { VectorPurpose, VectorSource, VectorsOutcome } from '../contract/search-types.js';

/**
 * The embeddings plugin as a user of it sees it: present or not, reachable or not. Only a
 * provider that answers vectors of the wrong length fails a write (its vectors would poison an
 * index); every other failure leaves the work lexical, with the reason given.
 */
export class OptionalVectors {
  readonly #api: VectorSource | undefined;

  /** `api` is `ctx.api('embeddings')`: undefined when the plugin is not enabled. */
  constructor(api: VectorSource | undefined) {
    this.#api = api;
  }

  /** The vector space's name (for index names), or null when there are no vectors. */
  get space(): string | null {
    return this.#api?.space ?? null;
  }

  get dimensions(): number | null {
    return this.#api?.dimensions ?? null;
  }

  /** Why there are no vectors now, or undefined when there should be. */
  unavailable(): string | undefined {
    if (!this.#api) return 'the embeddings plugin is not enabled';
    const readiness = this.#api.readiness();
    return readiness.ok ? undefined : (readiness.reason ?? 'embeddings unavailable');
  }

  /**
   * Embeds `texts`. Throws EMBEDDINGS_DIMENSION_MISMATCH and the caller's abort; any other
   * failure answers `{vectors: null, reason}` (the embeddings plugin logs it).
   */
  embed(texts: readonly string[], purpose: VectorPurpose, signal?: AbortSignal): Promise<VectorsOutcome> {
    if (!this.#api) return Promise.resolve({ vectors: null, reason: 'the embeddings plugin is not enabled' });
    return this.#api.tryEmbed(texts, { purpose, ...(signal ? { signal } : {}) });
  }
}

/** The rows a plugin keeps vectors for, as a fill of the missing ones reads and writes them. */
export interface VectorBacklog<T> {
  /** Up to `limit` items without a vector of `space`, leaving out those refused in it (`!<space>`). */
  next(space: string, limit: number): Promise<readonly T[]>;
  /** What an item's vector is made from. */
  text(item: T): string;
  /** Indexes `items` with their `vectors` (in order) and records that they have them. */
  store(items: readonly T[], vectors: number[][], signal?: AbortSignal): Promise<void>;
  /** Marks an item the provider refused on its own (`!<space>`), so that it is not tried again until it changes. */
  refuse(item: T, space: string): Promise<void>;
}

const BATCH = 64;

/**
 * Makes the vectors that rows lack (written while the provider was down, or before a new model),
 * a batch at a time while the provider answers; one run at a time. A batch the provider refuses
 * is tried item by item, and an item it refuses alone is marked and not tried again. The rows
 * say what is missing, not memory, so every gateway on a shared store can fill.
 */
export class VectorFiller<T> {
  readonly #vectors: OptionalVectors;
  readonly #backlog: VectorBacklog<T>;
  readonly #log: Logger;
  readonly #failure: string;
  #filling: Promise<void> | undefined;

  /** `failure` is the warning logged when a run fails: it should say when it is tried again. */
  constructor(vectors: OptionalVectors, backlog: VectorBacklog<T>, log: Logger, failure: string) {
    this.#vectors = vectors;
    this.#backlog = backlog;
    this.#log = log;
    this.#failure = failure;
  }

  /** Runs a fill, or joins the one running; resolves when it ends (it never rejects). */
  fill(signal?: AbortSignal): Promise<void> {
    const space = this.#vectors.space;
    if (!space || this.#vectors.unavailable()) return Promise.resolve();
    this.#filling ??= (async () => {
      try {
        while (!signal?.aborted) {
          const batch = await this.#backlog.next(space, BATCH);
          if (batch.length === 0) return;
          const outcome = await this.#embed(batch, signal);
          if (outcome.vectors) await this.#backlog.store(batch, outcome.vectors, signal);
          else if (!outcome.refused || !(await this.#oneByOne(batch, space, signal))) return;
        }
      } catch (err) {
        this.#log.warn({ err }, this.#failure);
      } finally {
        this.#filling = undefined;
      }
    })();
    return this.#filling;
  }

  /** A refused batch, item by item; false when the provider stops answering (try later). */
  async #oneByOne(batch: readonly T[], space: string, signal?: AbortSignal): Promise<boolean> {
    for (const item of batch) {
      const outcome = await this.#embed([item], signal);
      if (outcome.vectors) await this.#backlog.store([item], outcome.vectors, signal);
      else if (outcome.refused) await this.#backlog.refuse(item, space);
      else return false;
    }
    return true;
  }

  #embed(items: readonly T[], signal?: AbortSignal): Promise<VectorsOutcome> {
    return this.#vectors.embed(items.map((item) => this.#backlog.text(item)), 'document', signal);
  }
}
