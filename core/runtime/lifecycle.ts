import { GatewayError } from '../contract/errors.js';
import { createLogger, type Logger } from '../lib/logger.js';

/** booting → ready → closing → closed; `closing` may also come straight from `booting`. */
export type LifecycleState = 'booting' | 'ready' | 'closing' | 'closed';

/**
 * Test-only: the name of the start-up point at which the process pauses (see `checkpoint`).
 * Unset in production, where checkpoints only check for a shutdown.
 */
export const PAUSE_AT_ENV = 'MCP_GATEWAY_TEST_PAUSE_AT';

interface Part {
  readonly name: string;
  /** Settles when the part's start has; its close waits for this. */
  readonly started: Promise<unknown>;
  readonly close: () => Promise<void>;
}

export interface LifecycleOptions {
  log?: Logger;
  /** Where to pause at start-up; defaults to $MCP_GATEWAY_TEST_PAUSE_AT. */
  pauseAt?: string;
}

/**
 * The one owner of a gateway process's life. Every part that holds a resource (the gateway
 * with its database and plugins, each listener, the stdio session) starts through `start`,
 * which registers it before it starts; `close` then closes exactly what was started, newest
 * first, each once its start has settled, whatever the moment. Start-up code calls
 * `checkpoint` between its steps, so a shutdown that began meanwhile stops it there instead
 * of opening more.
 */
export class Lifecycle {
  #state: LifecycleState = 'booting';
  readonly #controller = new AbortController();
  readonly #parts: Part[] = [];
  #closing: Promise<void> | undefined;
  #markClosed!: () => void;
  /** Resolves once `close` has finished. */
  readonly closed = new Promise<void>((resolve) => (this.#markClosed = resolve));
  #log: Logger | undefined;
  readonly #pauseAt: string | undefined;

  constructor(options: LifecycleOptions = {}) {
    this.#log = options.log;
    this.#pauseAt = options.pauseAt ?? (process.env[PAUSE_AT_ENV] || undefined);
  }

  get state(): LifecycleState {
    return this.#state;
  }

  /** Aborted when closing begins. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The logger, once the config that sets its level has been read. */
  get log(): Logger | undefined {
    return this.#log;
  }

  set log(log: Logger | undefined) {
    this.#log = log;
  }

  /**
   * A named point of start-up. Throws SHUTTING_DOWN once closing has begun, so the start-up
   * goes no further. In tests, when `point` is the one $MCP_GATEWAY_TEST_PAUSE_AT names, it
   * logs "paused at <point>" (to stderr, whatever the log level) and waits for the shutdown.
   */
  async checkpoint(point: string): Promise<void> {
    if (point === this.#pauseAt && !this.signal.aborted) {
      (this.#log ?? createLogger('info')).fatal({ point }, `paused at ${point}`);
      // Held open like a real step's pending I/O, or node would exit with nothing left to do.
      const keepAlive = setInterval(() => {}, 60_000);
      await new Promise((resolve) => this.signal.addEventListener('abort', resolve, { once: true }));
      clearInterval(keepAlive);
    }
    if (this.signal.aborted) throw shuttingDown(point);
  }

  /**
   * Starts one part under the lifecycle: it is registered before `start` runs, and `close`
   * receives what `start` resolved with. Throws SHUTTING_DOWN without starting anything once
   * closing has begun, and after starting it if closing began meanwhile (the lifecycle then
   * closes it). A part whose start fails is not closed: `start` must clean up after itself.
   */
  async start<T>(name: string, start: () => Promise<T>, close: (part: T) => Promise<void>): Promise<T> {
    if (this.signal.aborted) throw shuttingDown(name);
    const started = start();
    let closed: Promise<void> | undefined;
    this.#parts.push({
      name,
      started,
      close: () => (closed ??= started.then(close, () => {})),
    });
    const part = await started;
    if (this.signal.aborted) throw shuttingDown(name);
    return part;
  }

  /** booting → ready: everything is started. Ignored once closing has begun. */
  ready(): void {
    if (this.#state === 'booting') this.#state = 'ready';
  }

  /**
   * Closes every started part, newest first (listeners before the gateway they serve), each
   * once its start has settled; a part that fails to close is logged and the next one runs.
   * Idempotent: later calls get the same promise.
   */
  close(reason = 'close'): Promise<void> {
    this.#closing ??= (async () => {
      this.#state = 'closing';
      this.#log?.info({ reason }, 'shutting down');
      this.#controller.abort(shuttingDown(reason));
      for (const part of [...this.#parts].reverse()) {
        try {
          await part.close();
        } catch (err) {
          this.#log?.error({ err, part: part.name }, 'a part failed to close');
        }
      }
      this.#state = 'closed';
      this.#markClosed();
    })();
    return this.#closing;
  }
}

function shuttingDown(where: string): GatewayError {
  return new GatewayError('SHUTTING_DOWN', `The gateway is shutting down (at ${where}).`);
}

/** Whether `err` is the SHUTTING_DOWN a checkpoint or `start` throws once closing has begun. */
export function isShutdown(err: unknown, lifecycle: Lifecycle): boolean {
  return lifecycle.signal.aborted && (err as { code?: unknown } | null)?.code === 'SHUTTING_DOWN';
}
