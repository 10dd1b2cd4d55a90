// Running a caller's JavaScript in a tab, for webview_eval: what it gives or throws in the
// page, and a bound on how long it may run.
import type { Tab } from './browsing-session.js';
import { closeHungTab, raceDeadline } from './call-deadline.js';

export type ScriptOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string }
  /** Still running when the time ran out or the call was cancelled: its tab was closed to stop it. */
  | { readonly stopped: 'timeout' | 'cancelled' };

/**
 * Runs in the page. Indirect eval takes an expression, statements (the last one's value) or a
 * function's text alike, in the page's global scope; a function is called, a promise awaited.
 * What the script throws is caught here, so that it comes back as an answer and every
 * rejection of page.evaluate itself is about the tab or the browser.
 */
async function inPage(source: string): Promise<ScriptOutcome> {
  try {
    const value: unknown = (0, eval)(source);
    return { ok: true, value: typeof value === 'function' ? await value() : await value };
  } catch (err) {
    let error: string;
    try {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    } catch {
      error = 'the script threw a value that cannot be shown as text';
    }
    return { ok: false, error: error.slice(0, 4000) };
  }
}

/** Playwright's words when the page navigated (or reloaded) under a running script. */
const CONTEXT_GONE = /Execution context was destroyed/;

/**
 * The script's outcome, or `stopped`: a script still running after `timeoutMs` (a
 * `while (true)`), or when `signal` aborts, holds the tab's only thread, and nothing but
 * closing the tab stops it; the tab is closed then, so that it cannot hang every later call.
 */
export async function runScript(tab: Tab, script: string, timeoutMs: number, signal: AbortSignal): Promise<ScriptOutcome> {
  const running = tab.page.evaluate(inPage, script).catch((err: unknown) => {
    if (err instanceof Error && CONTEXT_GONE.test(err.message)) {
      return { ok: false as const, error: 'The page navigated away while the script ran, so its value was lost.' };
    }
    throw err;
  });
  const raced = await raceDeadline(running, timeoutMs, signal);
  if (raced.done) return raced.value;
  await closeHungTab(tab);
  return { stopped: raced.why };
}
