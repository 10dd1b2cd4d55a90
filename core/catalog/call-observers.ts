import { isGatewayError, type GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import { isThenable } from './running-call.js';
import type { Caller } from '../contract/plugin-types.js';

/** What is called: a tool, a resource read, a prompt get, a completion, a plugin route (`ctx.http.route`). */
export type CallKind = 'tool' | 'resource' | 'prompt' | 'completion' | 'route';

/** What observers (audit log, metrics) learn of every finished call, whatever its kind. */
export interface CallRecord {
  readonly kind: CallKind;
  /** The tool, or the URI, prompt or route a call of another kind named. */
  readonly tool: string;
  readonly plugin?: string;
  /** For a resource read: the URI or template that served it (a bounded label, unlike the URI). */
  readonly entry?: string;
  readonly caller: Caller;
  readonly args: unknown;
  readonly startedAt: number;
  readonly durationMs: number;
  /** `ok` or the error code. */
  readonly outcome: string;
}

/**
 * Sees every finished call (tool call, resource read, prompt get) before its answer leaves:
 * the audit log, metrics. One that returns a promise holds the answer until it settles: the
 * audit log writes the rows of every call that finished in one turn of the event loop with a
 * single write(2), and their answers leave after it (AuditLog.record).
 */
export type CallObserver = (record: CallRecord) => void | Promise<void>;

/**
 * Hands `record` to every observer and gives the outcome the caller gets. An observer that
 * throws a GatewayError, or whose promise rejects with one, turns the outcome into that error
 * (the audit log, when it cannot write the row), unless the call already failed with that
 * code (a call the audit log refused before it ran keeps its own message); anything else an
 * observer throws is logged. Synchronous unless an observer returned a promise.
 */
export function observeCall<O>(observers: readonly CallObserver[], record: CallRecord, outcome: O, failed: (error: GatewayError) => O, log: Logger): O | Promise<O> {
  let result = outcome;
  const fail = (err: unknown) => {
    if (!isGatewayError(err)) log.error({ err }, 'call observer threw');
    else if (err.code !== record.outcome) result = failed(err);
  };
  let waiting: Promise<void> | undefined;
  for (const observer of observers) {
    try {
      const pending: unknown = observer(record);
      // Only the audit log holds answers today; a second would be waited for as well. (Checked
      // as a thenable: a plain-JS observer may return anything.)
      if (isThenable(pending)) waiting = waiting ? Promise.all([waiting, pending]).then(() => undefined) : (Promise.resolve(pending) as Promise<void>);
    } catch (err) {
      fail(err);
    }
  }
  if (!waiting) return result;
  return waiting.then(
    () => result,
    (err: unknown) => {
      fail(err);
      return result;
    },
  );
}
