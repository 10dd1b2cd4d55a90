import type { CallerRequest, Failure } from './call-pipeline.js';
import { isThenable } from './running-call.js';

/** One resources/read, prompts/get or completion/complete request, whichever face it came from. */
export interface ContentRequest extends CallerRequest {
  /** Whether this caller may use the entries of `plugin` (API-key scopes `*`, `plugin:<name>`); all when absent. */
  readonly allowsPlugin?: (plugin: string) => boolean;
}

export type ContentOutcome<T> = { readonly ok: true; readonly value: T } | Failure;

/** The answer of a read, get or completion whose value needs no more than to be handed on. */
export function contentAnswer<T>(value: T): ContentOutcome<T> {
  return { ok: true, value };
}

/** The pipeline's answer as the promise the content faces await. */
export function settled<O>(outcome: O | Promise<O>): Promise<O> {
  return isThenable(outcome) ? outcome : Promise.resolve(outcome);
}
