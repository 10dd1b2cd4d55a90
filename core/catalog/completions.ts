import type { Completer, CompletionContext } from '../plugins/content-types.js';
import type { ContentCalls, ContentOutcome, ContentRequest, HandlerTarget } from './content-calls.js';
import type { RunningCall } from './running-call.js';

/** The most values one completion/complete answer carries (the MCP specification's cap). */
export const MAX_COMPLETION_VALUES = 100;

/** The `completion` object of a completion/complete result. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export const NO_COMPLETION: Completion = { values: [], hasMore: false };

/**
 * Runs a plugin's completer for one argument, with the time limit and cancellation of any
 * call, and cuts its answer to MAX_COMPLETION_VALUES with `total` and `hasMore`. A completer
 * that returns something other than a list of strings is the plugin's bug (INTERNAL_ERROR).
 */
export async function runCompleter(
  calls: ContentCalls,
  target: HandlerTarget,
  completer: Completer | undefined,
  value: string,
  args: Readonly<Record<string, string>>,
  request: ContentRequest,
): Promise<ContentOutcome<Completion>> {
  if (!completer) return { ok: true, value: NO_COMPLETION };
  return calls.run(target, request, async (call) => {
    const values: unknown = await completer(value, completionContext(call, args));
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
      throw new Error(`the completer of ${target.label} returned something other than a list of strings`);
    }
    const strings = values as string[];
    return { values: strings.slice(0, MAX_COMPLETION_VALUES), total: strings.length, hasMore: strings.length > MAX_COMPLETION_VALUES };
  });
}

function completionContext(call: RunningCall, args: Readonly<Record<string, string>>): CompletionContext {
  // Getters, so that the signal and the logger child are still made only when used.
  return {
    arguments: args,
    caller: call.caller,
    get signal() {
      return call.signal;
    },
    get log() {
      return call.log;
    },
    progress: (update) => call.progress(update),
    sample: (params, options) => call.sample(params, options),
    elicit: (params, options) => call.elicit(params, options),
    logToClient: (level, data, options) => call.logToClient(level, data, options),
  };
}
