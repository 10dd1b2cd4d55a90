import type { RequestId } from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type {
  Caller,
  CallContext,
  ClientRequestOptions,
  ElicitationParams,
  ElicitationResult,
  McpLogLevel,
  ProgressUpdate,
  RootsResult,
  SamplingParams,
  SamplingResult,
} from '../contract/plugin-types.js';
import { elicitFromClient, listRootsOfClient, sampleFromClient, type AskingCall, type ClientLink } from './client-link.js';
import { logToClient } from './client-log.js';

/**
 * One call in progress: the CallContext its handler gets, and its cancellation. Calls are
 * the hot path, so what most handlers never touch is made on first use: the AbortSignal
 * (an AbortController costs more than a whole trivial call) and the logger child. What
 * asks the client (sample, elicit, logToClient) only keeps the session's link and the
 * request id until a handler uses it. The time limit, the cancel hook and the promise raced
 * against the handler are made by `race`, only for a handler that returns a promise: one
 * that answers synchronously cannot be interrupted, and is done before any of them could fire.
 */
export class RunningCall implements CallContext {
  readonly caller: Caller;
  readonly #bindings: { plugin: string; tool: string };
  readonly #parentLog: Logger;
  readonly #onProgress?: (update: ProgressUpdate) => void;
  readonly #onCancelable?: (cancel: () => void) => void;
  /** When the call began (performance.now()): the time limit counts from here. */
  readonly #startedAt: number;
  #timer: NodeJS.Timeout | undefined;
  /** Rejects `race`'s promise; set by `race`. */
  #reject: ((reason: unknown) => void) | undefined;
  #reason: GatewayError | undefined;
  readonly #timeoutMs: number;
  readonly #timeoutError: ((timeoutMs: number) => GatewayError) | undefined;
  readonly #client: ClientLink | undefined;
  readonly #requestId: RequestId | undefined;
  #controller: AbortController | undefined;
  #log: Logger | undefined;

  constructor(
    options: {
      plugin: string;
      tool: string;
      timeoutMs: number;
      /** The error of a call past its time limit; TOOL_TIMEOUT naming `tool` when absent. */
      timeoutError?: (timeoutMs: number) => GatewayError;
      caller: Caller;
      onCancelable?: (cancel: () => void) => void;
      onProgress?: (update: ProgressUpdate) => void;
      /** The MCP session the call came from, and its request id: how to ask the client. */
      client?: ClientLink;
      requestId?: RequestId;
    },
    log: Logger,
  ) {
    this.caller = options.caller;
    this.#bindings = { plugin: options.plugin, tool: options.tool };
    this.#timeoutMs = options.timeoutMs;
    this.#timeoutError = options.timeoutError;
    this.#client = options.client;
    this.#requestId = options.requestId;
    this.#parentLog = log;
    this.#onProgress = options.onProgress;
    this.#onCancelable = options.onCancelable;
    this.#startedAt = performance.now();
  }

  /** Why the call was aborted, once it was. */
  get abortReason(): GatewayError | undefined {
    return this.#reason;
  }

  /**
   * `pending` (what the handler returned), raced against the call's abort: rejects with the
   * reason on client cancellation, at shutdown, or when the time limit (counted from the
   * call's start) passes. Called once, after the handler returned.
   */
  race<T>(pending: PromiseLike<T>): Promise<T> {
    // Aborted while the handler's synchronous part ran (it began the shutdown, say): the abort
    // wins, as it did when the handler started in a microtask of its own. Listed first, so
    // that it wins over a `pending` already settled; `pending` still gets a handler, so a
    // later rejection of it is not unhandled.
    if (this.#reason) return Promise.race([Promise.reject(this.#reason) as Promise<never>, pending]);
    const aborted = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    const { tool } = this.#bindings;
    const timeoutMs = this.#timeoutMs;
    const timeoutError = this.#timeoutError;
    this.#timer = setTimeout(
      () =>
        this.abort(
          timeoutError?.(timeoutMs) ??
            new GatewayError('TOOL_TIMEOUT', `${tool} did not finish within ${timeoutMs} ms and was cancelled.`, { details: { timeoutMs } }),
        ),
      Math.max(0, timeoutMs - (performance.now() - this.#startedAt)),
    );
    this.#onCancelable?.(this.#onCancel);
    return Promise.race([pending, aborted]);
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

  sample(params: SamplingParams, options?: ClientRequestOptions): Promise<SamplingResult> {
    return sampleFromClient(this.#asking(), params, options);
  }

  elicit(params: ElicitationParams, options?: ClientRequestOptions): Promise<ElicitationResult> {
    return elicitFromClient(this.#asking(), params, options);
  }

  listRoots(options?: ClientRequestOptions): Promise<RootsResult> {
    return listRootsOfClient(this.#asking(), options);
  }

  logToClient(level: McpLogLevel, data: unknown, options?: { readonly logger?: string }): boolean {
    const target = this.#client && this.#requestId !== undefined ? { link: this.#client, requestId: this.#requestId } : undefined;
    return logToClient(target, this.#bindings.plugin, () => this.log, level, data, options);
  }

  #asking(): AskingCall {
    return {
      link: this.#client,
      requestId: this.#requestId,
      transport: this.caller.transport,
      signal: this.signal,
      timeoutMs: this.#timeoutMs,
      abort: (reason) => this.abort(reason),
    };
  }

  /** Cancels the call once: the signal fires and `race`'s promise rejects with `reason`. */
  abort(reason: GatewayError): void {
    if (this.#reason) return;
    this.#reason = reason;
    // Rejected before the signal fires: a handler that answers as its signal fires (a value
    // saying why) would otherwise settle `race` first, and the abort must win.
    this.#reject?.(reason);
    this.#controller?.abort(reason);
  }

  /** Releases the timer, if `race` armed one. */
  settle(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  #onCancel = (): void => {
    this.abort(new GatewayError('CANCELLED', 'The call was cancelled by the client or its connection closed.'));
  };
}

/** Whether a handler returned a promise (or any thenable) rather than its answer. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * The signal after which a catalog refuses new calls: the first of the shutdown itself and
 * the lifecycle's closing signal (which fires earlier, when shutdown begins), so that a call
 * starting check reads one flag.
 */
export function refusingSignal(options: { shutdownSignal: AbortSignal; closingSignal?: AbortSignal }): AbortSignal {
  return options.closingSignal ? AbortSignal.any([options.shutdownSignal, options.closingSignal]) : options.shutdownSignal;
}
