// How many pushes from the backend the gateway takes in: a backend (or a runaway agent on it)
// can push thousands of frames a second, and each one kept is an event to every /events
// client and a notification to every MCP session. Beyond the rates, pushes are dropped and
// counted; answers to the gateway's own requests are never limited (it asked for them).
import { RateLimiter, type Logger } from '@mcp-gateway/core';

/** The limits are counted in windows of this length: "per second". */
const WINDOW_MS = 1000;
/** A warn line at most this often while pushes are being dropped; each says how many since the last. */
export const DROP_WARN_EVERY_MS = 10_000;

export interface PushRates {
  /** Pushes taken in per second, all sessions and kinds together. */
  perSecond: number;
  /** Pushes taken in per second for one chat session (`sessionId`); pushes without one count only in `perSecond`. */
  perSessionPerSecond: number;
}

export class PushLimiter {
  readonly rates: PushRates;
  readonly #all: RateLimiter;
  readonly #sessions: RateLimiter;
  readonly #log: Logger;
  readonly #now: () => number;
  #dropped = 0;
  #droppedSinceWarn = 0;
  #warnedAt: number | undefined;

  constructor(rates: PushRates, log: Logger, now: () => number = Date.now) {
    this.rates = rates;
    this.#all = new RateLimiter(rates.perSecond, WINDOW_MS);
    this.#sessions = new RateLimiter(rates.perSessionPerSecond, WINDOW_MS);
    this.#log = log;
    this.#now = now;
  }

  /** Pushes dropped over the rates since the gateway started. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Whether a push about `sessionId` (or about no session) may be taken in; a refused one is counted. */
  admit(sessionId: string | undefined): boolean {
    const now = this.#now();
    // The session's own count first: a push its session may not send does not use up the
    // allowance of the others.
    const limit = sessionId !== undefined && !this.#sessions.hit(sessionId, now).allowed ? 'perSessionPerSecond' : !this.#all.hit('all', now).allowed ? 'perSecond' : undefined;
    if (limit === undefined) return true;
    this.#dropped += 1;
    this.#droppedSinceWarn += 1;
    if (this.#warnedAt === undefined || now - this.#warnedAt >= DROP_WARN_EVERY_MS) {
      this.#log.warn(
        { dropped: this.#droppedSinceWarn, droppedTotal: this.#dropped, limit, ...this.rates, ...(sessionId !== undefined ? { sessionId } : {}) },
        `ide-bridge: the backend pushes faster than ${limit} allows; pushes over it are dropped (ide_bridge_status droppedPushes)`,
      );
      this.#warnedAt = now;
      this.#droppedSinceWarn = 0;
    }
    return false;
  }
}
