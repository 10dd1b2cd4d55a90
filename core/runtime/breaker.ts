import CircuitBreaker from 'opossum';
import type { BreakerDefaults } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Breaker, BreakerOptions, BreakerState, BreakerStatus } from '../contract/breaker-types.js';


type Task = (signal: AbortSignal) => Promise<unknown>;

/** A service's name, as a plugin object's `services` takes it. */
export const SERVICE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** All breakers of one gateway, for /health, metrics and gateway_status. */
export class BreakerRegistry {
  readonly #breakers = new Map<string, GatewayBreaker>();
  /** Every name a plugin object's `services` declared: the only ones `forService` builds. */
  readonly #declared = new Set<string>();
  readonly #defaults: BreakerDefaults;
  readonly #log: Logger;
  readonly #isCallerError: (err: unknown) => boolean;

  constructor(defaults: BreakerDefaults, log: Logger, isCallerError: (err: unknown) => boolean) {
    this.#defaults = defaults;
    this.#log = log;
    this.#isCallerError = isCallerError;
  }

  /**
   * Makes `name` known before first use, so /health, gateway_status and metrics list it from
   * boot. The breaker itself is built by the first `get`, with that call's options.
   */
  declare(name: string): void {
    this.#declared.add(name);
  }

  /** Forgets declared names never used (their plugin failed to set up). */
  retract(names: Iterable<string>): void {
    for (const name of names) if (!this.#breakers.has(name)) this.#declared.delete(name);
  }

  /**
   * `ctx.breaker`: the breaker `<plugin>:<service>` of a declared service. Throws
   * SERVICE_UNDECLARED for any other, so that `services` lists every service a plugin calls.
   */
  forService(plugin: string, service: string, options?: BreakerOptions): Breaker {
    const name = `${plugin}:${service}`;
    // `*` itself names no service: its breaker would be listed as one.
    if (service !== '*' && this.#declared.has(name)) return this.get(name, options);
    // `*` in `services` declares services named at run time (by the plugin's config).
    if (this.#declared.has(`${plugin}:*`)) {
      if (typeof service === 'string' && SERVICE_NAME.test(service)) return this.get(name, options);
      throw new GatewayError(
        'SERVICE_UNDECLARED',
        `Plugin "${plugin}" asked for a circuit breaker for service ${JSON.stringify(service)}, which is not a service name (${SERVICE_NAME.source}).`,
      );
    }
    throw new GatewayError(
      'SERVICE_UNDECLARED',
      `Plugin "${plugin}" asked for a circuit breaker for service "${service}", which its plugin object does not declare. Add it to definePlugin's services: [{ name: '${service}' }].`,
    );
  }

  /** The breaker named `name`, created on first use; later options for the same name are ignored. */
  get(name: string, options: BreakerOptions = {}): Breaker {
    let breaker = this.#breakers.get(name);
    if (!breaker) {
      breaker = new GatewayBreaker(name, { ...this.#defaults, ...definedOnly(options) }, this.#log, options.isCallerError ?? this.#isCallerError);
      this.#breakers.set(name, breaker);
    }
    return breaker;
  }

  list(): BreakerStatus[] {
    const unused = [...this.#declared].filter((name) => !this.#breakers.has(name) && !name.endsWith(':*')).map((name): BreakerStatus => ({
      name,
      state: 'closed',
      stats: { fires: 0, successes: 0, failures: 0, rejects: 0, timeouts: 0 },
    }));
    return [...[...this.#breakers.values()].map((b) => b.status()), ...unused].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Stops every breaker's timers. */
  shutdown(): void {
    for (const breaker of this.#breakers.values()) breaker.shutdown();
  }
}

class GatewayBreaker implements Breaker {
  readonly name: string;
  readonly #circuit: CircuitBreaker<[Task, AbortSignal | undefined], unknown>;
  readonly #timeoutMs: number;
  readonly #resetTimeoutMs: number;
  #openedAt = 0;

  constructor(
    name: string,
    options: Required<Omit<BreakerOptions, 'isCallerError'>>,
    log: Logger,
    isCallerError: (err: unknown) => boolean,
  ) {
    this.name = name;
    this.#timeoutMs = options.timeoutMs;
    this.#resetTimeoutMs = options.resetTimeoutMs;
    this.#circuit = new CircuitBreaker((task: Task, callerSignal: AbortSignal | undefined) => this.#run(task, callerSignal), {
      name,
      // The timeout is enforced in #run with a per-call AbortController; opossum's own
      // abortController is one per breaker and would cancel every call in flight.
      timeout: false,
      errorThresholdPercentage: options.errorThresholdPercentage,
      resetTimeout: options.resetTimeoutMs,
      volumeThreshold: options.volumeThreshold,
      rollingCountTimeout: options.rollingCountTimeoutMs,
      // opossum passes the fired arguments after the error; its typings omit them. A call its
      // own caller aborted says nothing about the service, except for the half-open trial:
      // opossum counts a filtered error as a success, which would close the breaker unproven.
      errorFilter: ((err: unknown, _task: Task, callerSignal?: AbortSignal) =>
        (callerSignal?.aborted === true && !this.#circuit.halfOpen) || isCallerError(err)) as (err: unknown) => boolean,
    });
    this.#circuit.on('open', () => {
      this.#openedAt = Date.now();
      log.warn({ breaker: name }, 'circuit breaker opened');
    });
    this.#circuit.on('halfOpen', () => log.info({ breaker: name }, 'circuit breaker half-open: trying one call'));
    this.#circuit.on('close', () => log.info({ breaker: name }, 'circuit breaker closed'));
  }

  get state(): BreakerState {
    if (this.#circuit.opened) return 'open';
    return this.#circuit.halfOpen ? 'halfOpen' : 'closed';
  }

  async call<T>(task: (signal: AbortSignal) => Promise<T>, options: { signal?: AbortSignal } = {}): Promise<T> {
    try {
      return (await this.#circuit.fire(task, options.signal)) as T;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ESHUTDOWN') {
        throw new GatewayError('SHUTTING_DOWN', `${this.name} is closed because the gateway is shutting down.`, { cause: err });
      }
      if ((err as { code?: unknown }).code === 'EOPENBREAKER') {
        const retryAfterMs = this.#retryAfterMs();
        throw new GatewayError(
          'BREAKER_OPEN',
          `${this.name} is failing and its circuit breaker is open; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
          { details: { breaker: this.name, retryAfterMs }, cause: err },
        );
      }
      throw err;
    }
  }

  status(): BreakerStatus {
    const { fires, successes, failures, rejects, timeouts } = this.#circuit.stats;
    const status: BreakerStatus = { name: this.name, state: this.state, stats: { fires, successes, failures, rejects, timeouts } };
    if (status.state !== 'closed') status.retryAfterMs = this.#retryAfterMs();
    return status;
  }

  shutdown(): void {
    this.#circuit.shutdown();
  }

  #retryAfterMs(): number {
    // Half-open with its trial call in flight: the answer comes within one timeout.
    if (this.#circuit.halfOpen) return this.#timeoutMs;
    return Math.max(0, this.#openedAt + this.#resetTimeoutMs - Date.now());
  }

  async #run(task: Task, callerSignal?: AbortSignal): Promise<unknown> {
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new GatewayError('BREAKER_TIMEOUT', `${this.name} did not answer within ${this.#timeoutMs} ms; the request was aborted.`, {
          details: { breaker: this.name, timeoutMs: this.#timeoutMs },
        });
        controller.abort(error);
        // opossum counts timeouts only from its own timer, which is off (see the constructor).
        this.#circuit.emit('timeout', error, this.#timeoutMs);
        reject(error);
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([task(controller.signal), timedOut]);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}
