// A circuit breaker as plugins see it (ctx.breaker): core/runtime/breaker.ts implements it.

export interface BreakerOptions {
  /** A call slower than this is aborted and counts as a failure. */
  timeoutMs?: number;
  /** Failure percentage in the rolling window that opens the breaker. */
  errorThresholdPercentage?: number;
  /** How long it stays open before letting one trial call through. */
  resetTimeoutMs?: number;
  /** Calls in the window before the percentage is considered at all. */
  volumeThreshold?: number;
  rollingCountTimeoutMs?: number;
  /**
   * Errors that are the caller's fault (a 404 for a name the caller gave, a validation
   * error) and say nothing about the service's health. By default a GatewayError whose code
   * has a status below 500, and a call aborted by its own caller, do not count.
   */
  isCallerError?: (err: unknown) => boolean;
}

export type BreakerState = 'closed' | 'open' | 'halfOpen';

export interface BreakerStatus {
  name: string;
  state: BreakerState;
  /** Counts in the current rolling window. */
  stats: { fires: number; successes: number; failures: number; rejects: number; timeouts: number };
  /** When open: milliseconds until a trial call is let through. */
  retryAfterMs?: number;
}

/** A circuit breaker for one external service. */
export interface Breaker {
  readonly name: string;
  readonly state: BreakerState;
  /**
   * Runs `task` unless the breaker is open. `task` gets a signal that aborts on the breaker's
   * timeout or when `options.signal` (the tool call's signal) aborts: pass it to fetch and
   * friends so that a timed-out request really stops. Rejects with BREAKER_OPEN at once while
   * open and BREAKER_TIMEOUT on timeout; other errors pass through unchanged.
   */
  call<T>(task: (signal: AbortSignal) => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
  status(): BreakerStatus;
}
