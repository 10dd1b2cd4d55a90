// The element a call acts on: a ref from the tab's latest snapshot, or a CSS selector.
import type { Locator, Page } from 'playwright-core';
import type { RaiseError } from './declaration.js';

export interface TargetArgs {
  readonly ref?: string;
  readonly selector?: string;
}

export interface Target {
  readonly locator: Locator;
  /** "ref e4" or "selector #name", for messages. */
  readonly described: string;
}

/** Whether the call names an element at all (press_key may act on the page itself). */
export function hasTarget(args: TargetArgs): boolean {
  return args.ref !== undefined || args.selector !== undefined;
}

/**
 * The element, once it is in the page: a ref must be in the latest snapshot now; a selector
 * may appear within `timeoutMs` (its first match is used). Either miss is WEBVIEW_ELEMENT_NOT_FOUND.
 */
export async function locate(page: Page, args: TargetArgs, error: RaiseError, timeoutMs: number): Promise<Target> {
  if ((args.ref === undefined) === (args.selector === undefined)) {
    throw error('INVALID_ARGUMENTS', 'Name the element with exactly one of ref (from webview_snapshot) or selector (CSS).');
  }
  if (args.ref !== undefined) {
    const locator = page.getByRef(args.ref);
    if ((await refCount(locator)) === 0) {
      throw error('WEBVIEW_ELEMENT_NOT_FOUND', `No element has ref ${args.ref} in this tab's latest snapshot: take webview_snapshot again (refs change when the page does).`, { ref: args.ref });
    }
    return { locator, described: `ref ${args.ref}` };
  }
  const selector = args.selector!;
  const locator = page.locator(selector).first();
  try {
    await locator.waitFor({ state: 'attached', timeout: timeoutMs });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') {
      throw error('WEBVIEW_ELEMENT_NOT_FOUND', `No element matches the selector ${selector} (waited ${timeoutMs} ms): check it with webview_query or webview_snapshot.`, { selector });
    }
    throw err;
  }
  return { locator, described: `selector ${selector}` };
}

/** Playwright throws for a ref of a frame the latest snapshot does not have (`f5e4`, a ref of another tab): as good as no match. */
async function refCount(locator: Locator): Promise<number> {
  try {
    return await locator.count();
  } catch (err) {
    if (err instanceof Error && /Invalid frame in aria-ref selector/.test(err.message)) return 0;
    throw err;
  }
}
