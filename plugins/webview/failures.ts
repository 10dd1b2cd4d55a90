// Playwright's errors as the plugin's codes: the caller learns what happened and what to do,
// and the breaker counts only what says the browser itself is in trouble.
import { isGatewayError } from '../../core/index.js';
import { firstLine } from './browser-host.js';
import type { RaiseError } from './errors.js';

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
const WRONG_ELEMENT = /Element is not an <input>|is not a <select> element|Not a select element|Element is not a|Cannot type text into|did not find some options|Node is not an HTMLElement/i;

export interface FailureContext {
  readonly error: RaiseError;
  /** Whether the browser is still there: a "closed" error is then about the tab. */
  readonly browserAlive: () => boolean;
  /** What the call was doing, for the message: "clicking e4", "loading https://…". */
  readonly doing: string;
}

/** A GatewayError for whatever a Playwright call threw; gateway errors and aborts pass through. */
export function asWebviewError(err: unknown, context: FailureContext): unknown {
  if (isGatewayError(err)) return err;
  if (!(err instanceof Error)) return err;
  if (err.name === 'AbortError') return err;
  const { error, doing } = context;
  const line = firstLine(err);
  if (err.name === 'TimeoutError') return error('WEBVIEW_TIMEOUT', `Timed out ${doing}: ${line}`);
  if (CLOSED.test(err.message)) {
    return context.browserAlive()
      ? error('WEBVIEW_TAB_NOT_FOUND', `The tab closed while ${doing} (the page closed itself, or another call closed it): webview_tabs lists the open ones.`)
      : error('WEBVIEW_BROWSER_FAILED', `The browser went away while ${doing}; the next call starts a new one (this session's tabs, cookies and storage are gone).`);
  }
  const net = /net::ERR_[A-Z_]+/.exec(err.message);
  if (net) return error('WEBVIEW_NAVIGATION_FAILED', `${net[0]} while ${doing}: check the URL and that its server is up.`, { error: net[0] });
  if (INVALID_SELECTOR.test(err.message)) return error('WEBVIEW_ELEMENT_INVALID', `The selector is not valid while ${doing}: ${line}`);
  if (WRONG_ELEMENT.test(err.message)) return error('WEBVIEW_ELEMENT_INVALID', `The element cannot do that (${doing}): ${line}`);
  return err;
}
