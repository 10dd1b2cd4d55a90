// How long to wait before the next connection attempt.

/**
 * Full jitter: a random wait between 0 and a ceiling that doubles from `baseMs` per failed
 * attempt up to `maxMs`. Gateways that lost the same backend at once spread out instead of
 * coming back in step. `retry` counts from 1.
 */
export function reconnectDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * reconnectCeilingMs(retry, baseMs, maxMs));
}

/** The ceiling of the `retry`th wait. */
export function reconnectCeilingMs(retry: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(retry - 1, 30));
}
