// How long to wait before the next connection attempt.

/**
 * Equal jitter: half a ceiling that doubles from `baseMs` per failed attempt up to `maxMs`,
 * plus a random part of the other half. Never shorter than half the ceiling (the first wait
 * is at least baseMs/2), while gateways that lost the same backend at once still spread out.
 * `retry` counts from 1.
 */
export function reconnectDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = reconnectCeilingMs(retry, baseMs, maxMs);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/** The ceiling of the `retry`th wait. */
export function reconnectCeilingMs(retry: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(retry - 1, 30));
}

/**
 * The wait after a refused token (401/403): between maxMs/2 and maxMs, random, so that
 * gateways sharing a wrong token do not come back in lockstep.
 */
export function refusedDelayMs(maxMs: number, random: () => number = Math.random): number {
  return Math.floor(maxMs / 2 + random() * (maxMs / 2));
}
