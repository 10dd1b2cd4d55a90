// Opening a tab. Chromium keeps a spare renderer process ready for the next page; when
// renderers are killed (the OOM killer, an operator) the spare can die with them before the
// browser notices, and the next new page lands on it: Playwright's newPage then rejects with
// "Target crashed" or never answers at all. A second attempt gets a live process.
import type { BrowserContext, Page } from 'playwright-core';
import type { RaiseError } from './declaration.js';
import { isCrash } from './failures.js';

/** A blank page opens in milliseconds, on a loaded machine in a second or two; one still opening after this will not. */
const OPEN_ATTEMPT_MS = 5000;

/**
 * A new page of `context`. A first attempt that has not opened within `firstMs`, or whose
 * renderer was dead, is given up (its page, should it come after all, is closed) and a second
 * one made, which may take `lastMs`. Throws WEBVIEW_TIMEOUT when that one does not open either;
 * a crash of it passes through.
 */
export async function openPage(context: BrowserContext, error: RaiseError, waits: { readonly firstMs?: number; readonly lastMs: number }): Promise<Page> {
  const { firstMs = OPEN_ATTEMPT_MS, lastMs } = waits;
  const first = await attempt(context, firstMs).catch((err: unknown) => {
    if (isCrash(err)) return undefined;
    throw err;
  });
  const page = first ?? (await attempt(context, lastMs));
  if (page) return page;
  throw error('WEBVIEW_TIMEOUT', `Timed out opening a tab: the browser did not open one within ${firstMs} ms, nor again within ${lastMs} ms (limits.actionTimeoutMs). Try again; if it keeps happening, webview_close closes this browsing session and the next call opens a new one.`, {
    budgetMs: firstMs + lastMs,
  });
}

/** The page, or undefined when it did not open within `ms` (a page that comes later is closed). */
async function attempt(context: BrowserContext, ms: number): Promise<Page | undefined> {
  const opening = context.newPage();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    const page = await Promise.race([opening, late]);
    if (!page) opening.then((orphan) => orphan.close(), () => undefined).catch(() => undefined);
    return page;
  } finally {
    clearTimeout(timer);
  }
}
