// How long one webview call may run: the timeouts of the Playwright steps it takes one after
// another, and a margin for the page calls that have no timeout of their own (a title, an
// evaluate, a count), which a page whose script never ends would otherwise hold for ever.
import type { WebviewLimits } from './config.js';

/** What the steps without a timeout of their own may take on a page that answers. */
export const CALL_MARGIN_MS = 2000;

/** The most steps with a timeout one call chains: webview_type's locate, clear, keys, Enter and snapshot. */
const MAX_CALL_STEPS = 5;

/** webview_wait's longest plain pause: a model that wants longer should wait for something it can name. */
export const MAX_PAUSE_MS = 30_000;

/** A call's budget: its steps' timeouts (at most MAX_CALL_STEPS of them) and the margin. */
export function callBudget(...stepsMs: number[]): number {
  return stepsMs.reduce((sum, ms) => sum + ms, CALL_MARGIN_MS);
}

/** The step `snapshot: true` adds after an action: the snapshot may take limits.actionTimeoutMs. */
export function snapshotStep(limits: WebviewLimits, wanted: boolean | undefined): number {
  return wanted ? limits.actionTimeoutMs : 0;
}

/** The largest budget any call can have with these limits: the breaker's timeout must be beyond it. */
export function longestCallMs(limits: WebviewLimits): number {
  return MAX_CALL_STEPS * Math.max(limits.navigationTimeoutMs, limits.actionTimeoutMs, limits.evalTimeoutMs, MAX_PAUSE_MS) + CALL_MARGIN_MS;
}
