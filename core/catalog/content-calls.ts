import { GatewayError, isGatewayError, type ErrorTable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Caller, ProgressUpdate } from '../plugins/plugin-types.js';
import { isThenable, refusingSignal, RunningCall } from './running-call.js';
import type { CallRecord } from './tool-catalog.js';
import { observeCall, type CallObserver } from './call-observers.js';

/** What the resource and prompt catalogs share with the tool catalog: errors, log, shutdown. */
export interface ContentCatalogOptions {
  errors: ErrorTable;
  log: Logger;
  /** The time limit of a read or get whose definition sets none (`tools.timeoutMs`). */
  defaultTimeoutMs: number;
  /** Aborted at shutdown: running reads are cancelled and new ones refused. */
  shutdownSignal: AbortSignal;
  /**
   * Aborted when shutdown begins (the lifecycle's signal), before the listeners close and
   * `shutdownSignal` fires: new calls are refused from then on.
   */
  closingSignal?: AbortSignal;
}

/** One resources/read, prompts/get or completion/complete request, whichever face it came from. */
export interface ContentRequest {
  readonly caller: Caller;
  /** Given the call's cancel function once its handler starts (notifications/cancelled, disconnect). */
  readonly onCancelable?: (cancel: () => void) => void;
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Whether this caller may use the entries of `plugin` (API-key scopes `*`, `plugin:<name>`); all when absent. */
  readonly allowsPlugin?: (plugin: string) => boolean;
}

export type ContentOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: GatewayError };

/** Which entry a handler belongs to, for its time limit, its log lines and its errors. */
export interface HandlerTarget {
  readonly plugin: string;
  /** How the entry is named in messages and logs: `resource notes://a` or `prompt summarize`. */
  readonly label: string;
  readonly timeoutMs: number;
}

/**
 * Runs the handlers of resources, prompts and completions as the tool catalog runs tools:
 * refused after shutdown began or when a precondition fails (the audit journal), raced against
 * a time limit, client cancellation and shutdown, errors mapped (a declared code passes,
 * anything else is INTERNAL_ERROR with the original logged), and every finished call handed
 * to the observers (audit, metrics) through observeCall, as tools are. Kept off the tools/call
 * hot path, which has its own.
 */
export class ContentCalls {
  readonly #options: ContentCatalogOptions;
  readonly #observers: CallObserver[] = [];
  readonly #preconditions: Array<() => GatewayError | undefined> = [];
  readonly #running = new Set<RunningCall>();
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Aborted at the first of the two shutdown signals: from then on new calls are refused. */
  readonly #refusing: AbortSignal;

  constructor(options: ContentCatalogOptions) {
    this.#options = options;
    this.#refusing = refusingSignal(options);
    options.shutdownSignal.addEventListener('abort', () => {
      const reason = new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; the request was cancelled.');
      for (const call of this.#running) call.abort(reason);
    });
  }

  get options(): ContentCatalogOptions {
    return this.#options;
  }

  observe(observer: CallObserver): void {
    this.#observers.push(observer);
  }

  require(precondition: () => GatewayError | undefined): void {
    this.#preconditions.push(precondition);
  }

  /** Tracks `work` until it settles, so that `drain` can wait for its audit row. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work)).catch(() => {});
    return work;
  }

  /** Resolves once every read and get in flight has settled and been recorded. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Why a call may not start now (shutdown, the audit journal), if it may not. */
  refusal(): GatewayError | undefined {
    if (this.#refusing.aborted) return new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; retry later.');
    for (const precondition of this.#preconditions) {
      const refusal = precondition();
      if (refusal) return refusal;
    }
    return undefined;
  }

  /** Runs `handler` for `target` with a RunningCall as its call context. Never throws. */
  async run<T>(target: HandlerTarget, request: ContentRequest, handler: (call: RunningCall) => T | Promise<T>): Promise<ContentOutcome<Awaited<T>>> {
    const call = new RunningCall(
      { plugin: target.plugin, tool: target.label, timeoutMs: target.timeoutMs, caller: request.caller, onCancelable: request.onCancelable, onProgress: request.onProgress },
      this.#options.log,
    );
    this.#running.add(call);
    try {
      // A handler that answers synchronously is done (see ToolCatalog.#run).
      const result = handler(call);
      if (isThenable(result)) return { ok: true, value: await call.race(result) };
      if (call.abortReason) throw call.abortReason;
      return { ok: true, value: result as Awaited<T> };
    } catch (err) {
      return { ok: false, error: this.#toCallerError(err, target, call.log) };
    } finally {
      call.settle();
      this.#running.delete(call);
    }
  }

  /**
   * Hands the record of a finished call to every observer (observeCall): the audit log may
   * hold the answer until its row is written, or turn it into AUDIT_UNAVAILABLE.
   */
  record<T>(record: CallRecord, outcome: ContentOutcome<T>): ContentOutcome<T> | Promise<ContentOutcome<T>> {
    return observeCall(this.#observers, record, outcome, (error): ContentOutcome<T> => ({ ok: false, error }), this.#options.log);
  }

  #toCallerError(err: unknown, target: HandlerTarget, log: Logger): GatewayError {
    if (isGatewayError(err) && this.#options.errors.get(err.code)) {
      if (err.code === 'INTERNAL_ERROR') log.error({ err }, `${target.label} failed`);
      return err;
    }
    log.error({ err }, `${target.label} threw an unexpected error`);
    return new GatewayError('INTERNAL_ERROR', `The ${target.label} (plugin ${target.plugin}) failed unexpectedly; the gateway log has the details.`, { cause: err });
  }
}
