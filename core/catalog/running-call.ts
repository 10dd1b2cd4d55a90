import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Caller, CallContext, ProgressUpdate } from '../plugins/plugin-types.js';

/**
 * One call in progress: the CallContext its handler gets, and its cancellation. Calls are
 * the hot path, so what most handlers never touch is made on first use: the AbortSignal
 * (an AbortController costs more than a whole trivial call) and the logger child.
 */
export class RunningCall implements CallContext {
  readonly caller: Caller;
  /** Rejects with the reason when the call is aborted; raced against the handler. */
  readonly aborted: Promise<never>;
  readonly #bindings: { plugin: string; tool: string };
  readonly #parentLog: Logger;
  readonly #onProgress?: (update: ProgressUpdate) => void;
  readonly #timer: NodeJS.Timeout;
  #reject!: (reason: unknown) => void;
  #reason: GatewayError | undefined;
  #controller: AbortController | undefined;
  #log: Logger | undefined;

  constructor(
    options: {
      plugin: string;
      tool: string;
      timeoutMs: number;
      caller: Caller;
      onCancelable?: (cancel: () => void) => void;
      onProgress?: (update: ProgressUpdate) => void;
    },
    log: Logger,
  ) {
    this.caller = options.caller;
    this.#bindings = { plugin: options.plugin, tool: options.tool };
    this.#parentLog = log;
    this.#onProgress = options.onProgress;
    this.aborted = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    this.#timer = setTimeout(
      () =>
        this.abort(
          new GatewayError('TOOL_TIMEOUT', `${options.tool} did not finish within ${options.timeoutMs} ms and was cancelled.`, {
            details: { timeoutMs: options.timeoutMs },
          }),
        ),
      options.timeoutMs,
    );
    options.onCancelable?.(this.#onCancel);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get log(): Logger {
    this.#log ??= this.#parentLog.child(this.#bindings);
    return this.#log;
  }

  progress(update: ProgressUpdate): void {
    if (!this.#reason) this.#onProgress?.(update);
  }

  /** Cancels the call once: the signal fires and `aborted` rejects with `reason`. */
  abort(reason: GatewayError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject(reason);
  }

  /** Releases the timer. */
  settle(): void {
    clearTimeout(this.#timer);
  }

  #onCancel = (): void => {
    this.abort(new GatewayError('CANCELLED', 'The call was cancelled by the client or its connection closed.'));
  };
}
