// How long to wait before trying the remote again: full-jitter exponential backoff, or what
// the remote asked for in Retry-After, never longer than the configured cap.
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Full jitter (a random wait between 0 and the doubled base): many gateways that lost the
 * same remote at once do not come back in step. `retry` counts from 1.
 */
export function backoffMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(retry - 1, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After in milliseconds, capped at `maxMs`: delta-seconds or an HTTP date (RFC 9110
 * 10.2.3). Undefined when absent or unreadable (then the backoff decides); 0 for a date past.
 */
export function retryAfterMs(header: string | null, maxMs: number, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(maxMs, Math.max(0, ms));
}

/** Waits `ms`, or rejects with the signal's reason as soon as the caller gives up. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) {
    if (signal?.aborted) throw signal.reason;
    return;
  }
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
}
