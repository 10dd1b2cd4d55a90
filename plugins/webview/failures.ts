// Playwright's errors as the plugin's codes: the caller learns what happened and what to do,
// and the breaker counts only what says the browser itself is in trouble.
import { isGatewayError } from '@mcp-gateway/core';
import { firstLine } from './browser-host.js';
import type { RaiseError } from './declaration.js';
import { notActionable } from './not-actionable.js';

/**
 * Codes that say the browser is in trouble: the breaker webview:browser counts these. Not
 * WEBVIEW_CONNECT_FAILED: a wrong endpoint says nothing about the browser everyone uses.
 */
const BROWSER_TROUBLE = new Set(['WEBVIEW_BROWSER_FAILED', 'BREAKER_TIMEOUT']);

/** For ctx.breaker: everything else is about the page or the call (a missing element, a slow site). */
export function isNotBrowserTrouble(err: unknown): boolean {
  if (isGatewayError(err)) return !BROWSER_TROUBLE.has(err.code);
  return err instanceof Error && err.name === 'AbortError';
}

const CLOSED = /Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed|Page closed|has been closed|Session closed/i;
const INVALID_SELECTOR = /is not a valid selector|Unexpected token|Unknown engine|Malformed|while parsing (css )?selector/i;
const CRASHED = /Target crashed|Page crashed/;
/** A navigation whose answer is an attachment: contexts are made with acceptDownloads false. */
const DOWNLOAD = /Download is starting/;
const WRONG_ELEMENT = /Element is not an <input>|is not a <select> element|Not a select element|Element is not a|Cannot type text into|did not find some options|Node is not an HTMLElement/i;

/** Whether Playwright threw because the page's renderer process ended. */
export function isCrash(err: unknown): boolean {
  return err instanceof Error && CRASHED.test(err.message);
}

export interface FailureContext {
  readonly error: RaiseError;
  /** Whether the browser is still there: a "closed" error is then about the tab. */
  readonly browserAlive: () => boolean;
  /** What the call was doing, for the message: "clicking e4", "loading https://…". */
  readonly doing: string;
}

/**
 * A GatewayError for whatever a Playwright call threw; gateway errors and aborts pass through.
 * What is not recognised is WEBVIEW_PAGE_ERROR with Playwright's words (not counted by the
 * breaker), unless the browser is gone: only then is it the browser's trouble.
 */
export function asWebviewError(err: unknown, context: FailureContext): unknown {
  if (isGatewayError(err)) return err;
  if (!(err instanceof Error)) return err;
  if (err.name === 'AbortError') return err;
  const { error, doing } = context;
  const line = firstLine(err);
  const browserGone = () =>
    error('WEBVIEW_BROWSER_FAILED', `The browser went away while ${doing}; the next call starts a new one (this session's tabs, cookies and storage are gone).`);
  if (err.name === 'TimeoutError') return timedOut(err.message, context);
  if (isCrash(err)) {
    if (!context.browserAlive()) return browserGone();
    return error('WEBVIEW_TAB_CRASHED', `The tab crashed while ${doing} (its page's process ended: out of memory, or killed) and was closed: the next call without tab opens a new one.`);
  }
  if (CLOSED.test(err.message)) {
    return context.browserAlive()
      ? error('WEBVIEW_TAB_NOT_FOUND', `The tab closed while ${doing} (the page closed itself, or another call closed it): webview_tabs lists the open ones.`)
      : browserGone();
  }
  if (DOWNLOAD.test(err.message)) {
    return error('WEBVIEW_NAVIGATION_FAILED', `The page answered with a file to download (${doing}), and downloads are off in this gateway: open the page that links to it instead.`, { error: 'download' });
  }
  const net = /net::ERR_[A-Z_]+/.exec(err.message);
  if (net) return error('WEBVIEW_NAVIGATION_FAILED', `${net[0]} while ${doing}: check the URL and that its server is up.`, { error: net[0] });
  if (INVALID_SELECTOR.test(err.message)) return error('WEBVIEW_ELEMENT_INVALID', `The selector is not valid while ${doing}: ${line}`);
  if (WRONG_ELEMENT.test(err.message)) return error('WEBVIEW_ELEMENT_INVALID', `The element cannot do that (${doing}): ${line}`);
  if (!context.browserAlive()) return browserGone();
  return error('WEBVIEW_PAGE_ERROR', `Playwright failed ${doing}: ${line}. Take webview_snapshot to see where the page is, then try again.`, { error: line });
}

/** A Playwright timeout, with the reason its call log gives when the element was there but could not be acted on. */
function timedOut(message: string, { error, doing }: FailureContext) {
  const line = message.split('\n')[0]!.slice(0, 500);
  const blocked = notActionable(message);
  if (!blocked) return error('WEBVIEW_TIMEOUT', `Timed out ${doing}: ${line}`);
  return error('WEBVIEW_TIMEOUT', `Timed out ${doing}: the element ${blocked.says}. ${blocked.advice}`, { state: blocked.state });
}

