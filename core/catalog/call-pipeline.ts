import type { RequestId } from '@modelcontextprotocol/server';
import { GatewayError, isGatewayError, type ErrorTable } from '../contract/errors.js';
import { isJsonSerialisable } from '../lib/json.js';
import type { Logger } from '../lib/logger.js';
import type { Caller, ProgressUpdate } from '../contract/plugin-types.js';
import { observeCall, type CallKind, type CallObserver, type CallRecord } from './call-observers.js';
import type { ClientLink } from './client-link.js';
import { isThenable, refusingSignal, RunningCall } from './running-call.js';

/** What the pipeline needs of the gateway: its error table, its log, and its shutdown. */
export interface CallPipelineOptions {
  errors: ErrorTable;
  log: Logger;
  /** The time limit of a call whose definition sets none (`tools.timeoutMs`). */
  defaultTimeoutMs: number;
  /** Aborted at shutdown: running calls are cancelled and new ones refused. */
  shutdownSignal: AbortSignal;
  /**
   * Aborted when shutdown begins (the lifecycle's signal), before the listeners close and
   * `shutdownSignal` fires: new calls are refused from then on. A call sees the shutdown at
   * its start, not only when the gateway part closes.
   */
  closingSignal?: AbortSignal;
}


/** Who calls, and how to reach them while the call runs, whichever face the call came from. */
export interface CallerRequest {
  readonly caller: Caller;
  /**
   * Given the call's cancel function once its handler starts; the face calls it on client
   * cancellation or disconnect (CANCELLED). A hook rather than an AbortSignal: an
   * AbortController per call costs more than a trivial call.
   */
  readonly onCancelable?: (cancel: () => void) => void;
  /** Where progress goes; absent when the client did not ask for it. */
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** The MCP session's link to its client and the request's id; absent over REST and the CLI. */
  readonly client?: ClientLink;
  readonly requestId?: RequestId;
}

/** Which entry a handler belongs to, for its time limit, its log lines and its errors. */
export interface HandlerTarget {
  readonly plugin: string;
  /** How the entry is named in messages and logs: `file_read`, `resource notes://a`, `prompt summarize`. */
  readonly label: string;
  readonly timeoutMs: number;
  /** The error of a call past `timeoutMs` (a plugin route's ROUTE_TIMEOUT); TOOL_TIMEOUT when absent. */
  readonly timeoutError?: (timeoutMs: number) => GatewayError;
}

export interface Failure {
  readonly ok: false;
  readonly error: GatewayError;
}

/** One call into the pipeline: what it is, who asks, what runs, and how its value becomes the answer. */
export interface Invocation<T, S> {
  readonly kind: CallKind;
  /** The tool, URI, prompt or route as the caller named it: the record's `tool`. */
  readonly name: string;
  /** What runs it; absent when nothing matched the name, and then `unmatched` is the answer. */
  readonly target: HandlerTarget | undefined;
  readonly unmatched?: () => GatewayError;
  /** The record's `entry` and `args`. */
  readonly entry?: string;
  readonly args: unknown;
  readonly request: CallerRequest;
  /**
   * Why the call may not run, asked after the shutdown and the preconditions: the caller's
   * reach, its arguments. A throw (a validator on hostile input) is INTERNAL_ERROR.
   */
  readonly check?: () => GatewayError | undefined;
  readonly handler: (call: RunningCall) => T;
  /** The handler's value made into the answer (a tool's output check, its JSON). A throw is the plugin's bug. */
  readonly answer: (value: Awaited<T>, call: RunningCall) => S;
}

/**
 * The one path every call takes, whichever face it came from and whatever it calls: refused
 * after shutdown began or when a precondition fails (the audit journal), checked, run with a
 * RunningCall as its context (raced against its time limit, client cancellation and shutdown),
 * its errors mapped (a declared code passes, anything else is INTERNAL_ERROR with the original
 * logged), and every finished call handed to the observers (audit, metrics). A handler that
 * answers synchronously is answered before `invoke` returns, without a promise or a microtask
 * (the REST bridge's hot path), unless an observer holds the answer (the audit log does).
 */
export class CallPipeline {
  readonly options: CallPipelineOptions;
  readonly #observers: CallObserver[] = [];
  readonly #preconditions: Array<() => GatewayError | undefined> = [];
  /** Calls whose handler is running, to cancel them all from one shutdown listener. */
  readonly #running = new Set<RunningCall>();
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Aborted at the first of the two shutdown signals: from then on new calls are refused. */
  readonly #refusing: AbortSignal;

  constructor(options: CallPipelineOptions) {
    this.options = options;
    this.#refusing = refusingSignal(options);
    options.shutdownSignal.addEventListener('abort', () => {
      const reason = new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; the call was cancelled.');
      for (const call of this.#running) call.abort(reason);
    });
  }

  /**
   * Called with a record of every finished call, before its answer leaves; the answer waits
   * for the promise an observer returns (see observeCall). An observer that throws a
   * GatewayError turns the call's outcome into that error (the audit log does, when it cannot
   * record the call); any other throw is logged.
   */
  observe(observer: CallObserver): void {
    this.#observers.push(observer);
  }

  /** A check every call must pass before its handler runs; the error it returns refuses the call. */
  require(precondition: () => GatewayError | undefined): void {
    this.#preconditions.push(precondition);
  }

  /** Calls started and not yet answered. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Resolves once every call in flight has settled and been recorded. Shutdown aborts them
   * first, so this is quick; it must finish before the database closes, or the audit rows of
   * the cancelled calls would be lost. (A call answered synchronously was recorded before
   * `invoke` returned: it is never in flight.)
   */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Runs one call to its recorded answer. Never throws, never rejects: every failure is a Failure with a code. */
  invoke<T, S>(invocation: Invocation<T, S>): S | Failure | Promise<S | Failure> {
    const startedAt = Date.now();
    const started = performance.now();
    let outcome: S | Failure | Promise<S | Failure>;
    try {
      outcome = this.#start(invocation);
    } catch (err) {
      // Only a check can get here (a recursive schema on deeply nested input, say); a rejected
      // promise would be an unhandled rejection, which ends the process.
      outcome = this.#failure(err, invocation.target, this.options.log);
    }
    const answer = isThenable(outcome) ? this.#settle(invocation, startedAt, started, outcome) : this.#record(invocation, startedAt, started, outcome);
    if (isThenable(answer)) {
      this.#inFlight.add(answer);
      const done = () => void this.#inFlight.delete(answer);
      answer.then(done, done);
    }
    return answer;
  }

  /** The record of a call whose handler answered later (made apart, so that a synchronous call allocates no closure for it). */
  #settle<T, S>(invocation: Invocation<T, S>, startedAt: number, started: number, pending: Promise<S | Failure>): Promise<S | Failure> {
    return pending.then(
      (settled) => this.#record(invocation, startedAt, started, settled),
      (err: unknown) => this.#record(invocation, startedAt, started, this.#failure(err, invocation.target, this.options.log)),
    );
  }

  /** The refusals and checks, then the handler: synchronously to the end when the handler answers synchronously. */
  #start<T, S>(invocation: Invocation<T, S>): S | Failure | Promise<S | Failure> {
    const { target, request } = invocation;
    if (!target) return { ok: false, error: invocation.unmatched!() };
    const refusal = this.#refusal() ?? invocation.check?.();
    if (refusal) return { ok: false, error: refusal };
    const call = new RunningCall(
      {
        plugin: target.plugin,
        tool: target.label,
        timeoutMs: target.timeoutMs,
        timeoutError: target.timeoutError,
        caller: request.caller,
        onCancelable: request.onCancelable,
        onProgress: request.onProgress,
        client: request.client,
        requestId: request.requestId,
      },
      this.options.log,
    );
    this.#running.add(call);
    let value: T;
    try {
      value = invocation.handler(call);
    } catch (err) {
      this.#running.delete(call);
      return this.#failure(err, target, call.log);
    }
    if (isThenable(value)) return this.#awaitHandler(invocation, call, value);
    this.#running.delete(call);
    // A handler that answered synchronously is done: nothing can have interrupted it but what
    // it did itself (begin the shutdown, say), and then the abort wins, as in `race`.
    if (call.abortReason) return this.#failure(call.abortReason, target, call.log);
    return this.#answer(invocation, call, value as Awaited<T>);
  }

  async #awaitHandler<T, S>(invocation: Invocation<T, S>, call: RunningCall, pending: PromiseLike<unknown>): Promise<S | Failure> {
    try {
      return this.#answer(invocation, call, (await call.race(pending)) as Awaited<T>);
    } catch (err) {
      return this.#failure(err, invocation.target, call.log);
    } finally {
      call.settle();
      this.#running.delete(call);
    }
  }

  #answer<T, S>(invocation: Invocation<T, S>, call: RunningCall, value: Awaited<T>): S | Failure {
    try {
      return invocation.answer(value, call);
    } catch (err) {
      return this.#failure(err, invocation.target, call.log);
    }
  }

  /** Why a call may not start now (shutdown, the audit journal), if it may not. */
  #refusal(): GatewayError | undefined {
    if (this.#refusing.aborted) return new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; retry later.');
    for (const precondition of this.#preconditions) {
      const refusal = precondition();
      if (refusal) return refusal;
    }
    return undefined;
  }

  /** Hands the record of a finished call to the observers (observeCall), which may change or hold its outcome. */
  #record<T, S>(invocation: Invocation<T, S>, startedAt: number, started: number, settled: S | Failure): S | Failure | Promise<S | Failure> {
    const { kind, name, target, entry, args, request } = invocation;
    const failed = (settled as { ok: boolean }).ok === false;
    const record: CallRecord = {
      kind,
      tool: name,
      plugin: target?.plugin,
      entry,
      caller: request.caller,
      args,
      startedAt,
      durationMs: performance.now() - started,
      outcome: failed ? (settled as Failure).error.code : 'ok',
    };
    return observeCall<S | Failure>(this.#observers, record, settled, (error) => ({ ok: false, error }), this.options.log);
  }

  /** What a caller may see of a failure: a declared code passes, anything else is INTERNAL_ERROR. */
  #failure(err: unknown, target: HandlerTarget | undefined, log: Logger): Failure {
    if (isGatewayError(err) && this.options.errors.get(err.code) && isJsonSerialisable(err.details)) {
      if (err.code === 'INTERNAL_ERROR') log.error({ err }, 'call failed');
      return { ok: false, error: err };
    }
    // Logged in full with plugin and entry; the caller gets a code and a hint, no internals.
    log.error({ err }, 'call threw an unexpected error');
    const what = target ? `${target.label} (plugin ${target.plugin})` : 'The call';
    return { ok: false, error: new GatewayError('INTERNAL_ERROR', `${what} failed unexpectedly; the gateway log has the details.`, { cause: err }) };
  }
}
