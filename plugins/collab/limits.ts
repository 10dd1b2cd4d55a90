// What collab keeps of what callers write, at most. Every text field has a fixed maxLength in
// its tool's schema (or, for messages, a configured cap); what can still grow is a list that
// calls add to one entry at a time. Those are capped here or in the config, and every cap is
// refused the same way: a *_TOO_LARGE code with details {field, limit, length}.
import type { RaiseError } from './declaration.js';

/** Blockers an item of a plan holds at once (added one per collab_update_plan_item). */
export const MAX_ITEM_BLOCKERS = 50;
/** A task's relevant files, constraints and dependencies, however they were added. */
export const MAX_TASK_FILES = 100;
export const MAX_TASK_CONSTRAINTS = 50;
export const MAX_TASK_DEPENDENCIES = 50;

export type TooLargeCode = 'COLLAB_MESSAGE_TOO_LARGE' | 'COLLAB_PLAN_TOO_LARGE' | 'COLLAB_TASK_TOO_LARGE';

export interface Cap {
  /** The argument or list it bounds, as callers know it: `body`, `items`, `relevant_files`. */
  field: string;
  limit: number;
  /** What is counted: `characters`, `items`, `files`. */
  unit: string;
  /** Where a user changes it (`plugins.collab.config.plans.maxItems`); left out for a fixed cap. */
  setting?: string;
  /** What the caller can do instead. */
  advice: string;
}

/** Throws `code` when `length` passes the cap: `<what>: 250 characters, at most 200 (<setting>). <advice>` */
export function checkCap(error: RaiseError, code: TooLargeCode, what: string, length: number, cap: Cap): void {
  if (length <= cap.limit) return;
  const where = cap.setting === undefined ? '' : ` (${cap.setting})`;
  throw error(code, `${what}: ${length} ${cap.unit}, at most ${cap.limit}${where}. ${cap.advice}`, { field: cap.field, limit: cap.limit, length });
}
