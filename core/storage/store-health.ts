// Whether the shared store answers, for /health and gateway_status. A load balancer may ask
// every second from several places: the answer is kept for `cacheMs`, and there is never more
// than one probe query in flight, even when a server that hangs outlives `timeoutMs`.
import { isGatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';

/** What /health and gateway_status show of the store's health. */
export interface StoreHealthReport {
  readonly state: 'ok' | 'unavailable';
  /** When this state was found (ISO 8601). */
  readonly checkedAt: string;
  /** Why it is unavailable: the code a call would get, and a message without secrets. */
  readonly error?: { readonly code: string; readonly message: string };
}

export interface StoreHealthOptions {
  /** How long a result is served before the store is asked again. */
  readonly cacheMs: number;
  /** How long the probe may take before the store counts as unavailable. */
  readonly timeoutMs: number;
}

export const DEFAULT_STORE_HEALTH: StoreHealthOptions = { cacheMs: 2000, timeoutMs: 2000 };

export interface StoreHealthParts {
  /** One cheap query (`select 1`); it rejects when the store cannot answer. */
  readonly probe: () => Promise<unknown>;
  /** The store for messages, never with a password. */
  readonly where: string;
  readonly redact: (text: string) => string;
  readonly log: Logger;
  readonly now?: () => number;
}

export class StoreHealth {
  readonly #parts: StoreHealthParts;
  readonly #options: StoreHealthOptions;
  readonly #now: () => number;
  #last: StoreHealthReport;
  #lastAt: number;
  /** The probe query still running, which may outlive its check (a hung server). */
  #query: Promise<StoreHealthReport> | undefined;
  /** The check under way, shared by every caller meanwhile. */
  #checking: Promise<StoreHealthReport> | undefined;

  /** Starts as `ok`: the store has just answered the boot's first query. */
  constructor(parts: StoreHealthParts, options: StoreHealthOptions = DEFAULT_STORE_HEALTH) {
    this.#parts = parts;
    this.#options = options;
    this.#now = parts.now ?? Date.now;
    this.#lastAt = this.#now();
    this.#last = { state: 'ok', checkedAt: new Date(this.#lastAt).toISOString() };
  }

  /** The last result, without asking the store. */
  get last(): StoreHealthReport {
    return this.#last;
  }

  /** The store's health: the last result while younger than `cacheMs`, else a new probe. Never rejects. */
  check(): Promise<StoreHealthReport> {
    if (this.#now() - this.#lastAt < this.#options.cacheMs) return Promise.resolve(this.#last);
    return (this.#checking ??= this.#check().finally(() => (this.#checking = undefined)));
  }

  async #check(): Promise<StoreHealthReport> {
    const query = this.#query ?? this.#startQuery();
    let timer: NodeJS.Timeout | undefined;
    // Not unref'd: whoever awaits the check is owed an answer, and it is cleared as soon as the probe answers.
    const timedOut = new Promise<StoreHealthReport>((resolve) => (timer = setTimeout(() => resolve(this.#timedOut()), this.#options.timeoutMs)));
    const report = await Promise.race([query, timedOut]);
    clearTimeout(timer);
    this.#record(report);
    return report;
  }

  #startQuery(): Promise<StoreHealthReport> {
    const query = this.#parts.probe().then(
      () => ({ state: 'ok' as const, checkedAt: this.#stamp() }),
      (err: unknown) => ({ state: 'unavailable' as const, checkedAt: this.#stamp(), error: this.#describe(err) }),
    );
    this.#query = query;
    void query.finally(() => (this.#query = undefined));
    return query;
  }

  #timedOut(): StoreHealthReport {
    const message = `The shared store (${this.#parts.where}) did not answer a probe within ${this.#options.timeoutMs} ms (storage.healthCheck.timeoutMs): it is overloaded or unreachable.`;
    return { state: 'unavailable', checkedAt: this.#stamp(), error: { code: 'STORE_UNAVAILABLE', message } };
  }

  #describe(err: unknown): { code: string; message: string } {
    // The driver has already mapped its failures to STORE_* codes with redacted messages.
    if (isGatewayError(err)) return { code: err.code, message: err.message };
    const reason = this.#parts.redact(String((err as Error)?.message ?? err));
    return { code: 'STORE_UNAVAILABLE', message: `The shared store (${this.#parts.where}) failed a probe: ${reason}.` };
  }

  /** Keeps `report` and logs a change of state, once per change rather than once per probe. */
  #record(report: StoreHealthReport): void {
    if (report.state !== this.#last.state) {
      if (report.state === 'unavailable') this.#parts.log.warn({ store: this.#parts.where, error: report.error }, 'shared store unavailable: /health answers 503 until it answers again');
      else this.#parts.log.info({ store: this.#parts.where }, 'shared store available again');
    }
    this.#last = report;
    this.#lastAt = this.#now();
  }

  #stamp(): string {
    return new Date(this.#now()).toISOString();
  }
}
