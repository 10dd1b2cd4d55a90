import type { Client } from '@modelcontextprotocol/client';
import { answers } from './eras.js';

/** A connection that lasted this long resets the restart delay to its initial value. */
const STABLE_MS = 10_000;
/** How often an idle HTTP server is pinged: a stdio server's death is seen at once, an HTTP one's is not. */
const HTTP_PING_MS = 15_000;

/**
 * When to try a server again: waits that double from restartInitialDelayMs up to
 * restartMaxDelayMs, with ±20% jitter so that servers which failed together do not come back
 * in step, and back to the first wait once a connection has lasted STABLE_MS.
 */
export class RestartTimer {
  readonly #initialMs: number;
  readonly #maxMs: number;
  #attempt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(delays: { readonly restartInitialDelayMs: number; readonly restartMaxDelayMs: number }) {
    this.#initialMs = delays.restartInitialDelayMs;
    this.#maxMs = delays.restartMaxDelayMs;
  }

  /** A connection made at `since` (a Date.now()) ended: one that lasted starts the waits over. */
  ended(since: number): void {
    if (Date.now() - since >= STABLE_MS) this.#attempt = 0;
  }

  /** Runs `retry` after the next wait, in place of any retry already scheduled. */
  schedule(retry: () => void): void {
    clearTimeout(this.#timer);
    const base = Math.min(this.#maxMs, this.#initialMs * 2 ** Math.min(this.#attempt, 20));
    this.#attempt += 1;
    this.#timer = setTimeout(retry, Math.round(base * (0.8 + Math.random() * 0.4)));
    this.#timer.unref();
  }

  cancel(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * Pings an HTTP server's `client` every HTTP_PING_MS and calls `lost` with the reason when a
 * ping goes unanswered within `timeoutMs` (capped at the interval). Returns the stop.
 */
export function pingEvery(client: Client, timeoutMs: number, lost: (reason: string) => void): () => void {
  const timer = setInterval(() => {
    answers(client, Math.min(HTTP_PING_MS, timeoutMs)).catch((err: unknown) => lost((err as Error).message));
  }, HTTP_PING_MS);
  timer.unref();
  return () => clearInterval(timer);
}
