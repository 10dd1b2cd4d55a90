import type { Completer, CompletionContext } from '../contract/content-types.js';
import type { GatewayError } from '../contract/errors.js';
import type { CallPipeline, HandlerTarget } from './call-pipeline.js';
import { contentAnswer, settled, type ContentOutcome, type ContentRequest } from './content-calls.js';
import type { RunningCall } from './running-call.js';

/** The most values one completion/complete answer carries (the MCP specification's cap). */
export const MAX_COMPLETION_VALUES = 100;

/** The `completion` object of a completion/complete result (a type, so that it fits the SDK's open result). */
export type Completion = {
  values: string[];
  total?: number;
  hasMore?: boolean;
};

export const NO_COMPLETION: Completion = { values: [], hasMore: false };

/** What a completion is for: a prompt or a resource template, found or not. */
export interface CompletionRef {
  /** The prompt's name or the template, as the caller gave it. */
  readonly name: string;
  readonly target: HandlerTarget | undefined;
  /** The answer when nothing has that name. */
  readonly unmatched: () => GatewayError;
  /** The answer when the caller may not use the plugin that has it. */
  readonly forbidden: () => GatewayError;
}

/**
 * Runs a plugin's completer for one argument through the call pipeline, as any call (refused
 * at shutdown, timed, cancellable, audited and counted as kind `completion`), and cuts its
 * answer to MAX_COMPLETION_VALUES with `total` and `hasMore`. An argument without a completer
 * completes to nothing. A completer that returns something other than a list of strings is
 * the plugin's bug (INTERNAL_ERROR).
 */
export function runCompleter(
  pipeline: CallPipeline,
  ref: CompletionRef,
  completer: Completer | undefined,
  argument: string,
  value: string,
  args: Readonly<Record<string, string>>,
  request: ContentRequest,
): Promise<ContentOutcome<Completion>> {
  const { target } = ref;
  return settled(
    pipeline.invoke({
      kind: 'completion',
      name: ref.name,
      target,
      unmatched: ref.unmatched,
      // Keyed by the argument's name, as a get's arguments are, so that the audit log redacts
      // the value of a secret-looking one (`apiKey`) here too.
      args: { [argument]: value },
      request,
      check: () => (request.allowsPlugin?.(target!.plugin) === false ? ref.forbidden() : undefined),
      handler: (call) => (completer ? complete(completer, target!, value, completionContext(call, args)) : NO_COMPLETION),
      answer: contentAnswer,
    }),
  );
}

async function complete(completer: Completer, target: HandlerTarget, value: string, context: CompletionContext): Promise<Completion> {
  const values: unknown = await completer(value, context);
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new Error(`the completer of ${target.label} returned something other than a list of strings`);
  }
  const strings = values as string[];
  return { values: strings.slice(0, MAX_COMPLETION_VALUES), total: strings.length, hasMore: strings.length > MAX_COMPLETION_VALUES };
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
    listRoots: (options) => call.listRoots(options),
    logToClient: (level, data, options) => call.logToClient(level, data, options),
  };
}
