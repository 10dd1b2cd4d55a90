/** Keys remembered at most; past it, expired windows go first, then the oldest. */
const MAX_KEYS = 10_000;

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the key's window ends and its count starts again. */
  readonly resetMs: number;
}

/**
 * Fixed-window request counts per key (an API key's name, or a client address): `max`
 * requests per `windowMs`, the window starting at a key's first request. In memory, per
 * process. Written for the HTTP face instead of taken from @fastify/rate-limit: in one
 * steady-state measurement REST used about 13 µs less CPU per request without that plugin
 * (a quarter of a trivial call), and about 1.5 µs less without this class.
 */
export class RateLimiter {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor(max: number, windowMs: number) {
    this.#max = max;
    this.#windowMs = windowMs;
  }

  /** Counts one request of `key` and says whether it is within the limit. */
  hit(key: string, now = Date.now()): RateDecision {
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      if (!window && this.#windows.size >= MAX_KEYS) this.#makeRoom(now);
      window = { count: 0, endsAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    return {
      allowed: window.count <= this.#max,
      limit: this.#max,
      remaining: Math.max(0, this.#max - window.count),
      resetMs: window.endsAt - now,
    };
  }

  /** A flood of new addresses must not grow the map without bound. */
  #makeRoom(now: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    // Still full: forget the oldest keys (a Map iterates in insertion order).
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MAX_KEYS) break;
      this.#windows.delete(key);
    }
  }
}
