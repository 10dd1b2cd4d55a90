// Loading a URL in a tab for webview_navigate and webview_tabs new: what the policy proxy
// refused or could not reach becomes the plugin's codes (the page itself only sees a 403 or
// 502 page from the proxy), and a load cut short by the previous load's error page is retried.
import type { Page, Response } from 'playwright-core';
import type { BrowsingSession } from './browsing-session.js';
import type { RaiseError } from './declaration.js';
import type { UrlPolicy } from './url-policy.js';

export interface LoadOptions {
  readonly waitUntil: 'load' | 'domcontentloaded' | 'networkidle' | 'commit';
  readonly timeout: number;
}

/** The URL a caller asked to load, as the policy allows it; WEBVIEW_URL_REFUSED, checked before any tab is touched, otherwise. */
export function allowedUrl(policy: UrlPolicy, url: string, error: RaiseError): string {
  const verdict = policy.checkNavigation(url);
  if (!verdict.ok) throw error('WEBVIEW_URL_REFUSED', `Refused ${url.slice(0, 200)}: ${verdict.reason}.`, { url: url.slice(0, 2000), reason: verdict.reason });
  return verdict.url;
}

/**
 * After a failed load Chromium commits its error page (chrome-error://chromewebdata/) a moment
 * later; a goto started in between is reported as interrupted by it, though nothing is wrong.
 * So a failed load waits (briefly) for its error page, and an interrupted one is tried again.
 */
const INTERRUPTED_BY_ERROR_PAGE = /interrupted by another navigation to "?chrome-error:\/\/chromewebdata/;
const ERROR_PAGE = /^chrome-error:/;
const ERROR_PAGE_WAIT_MS = 1000;

/** Goes to `url`; throws WEBVIEW_URL_REFUSED for a hop the proxy refused, WEBVIEW_NAVIGATION_FAILED with the proxy's real cause. */
export async function load(page: Page, session: BrowsingSession, url: string, options: LoadOptions, error: RaiseError): Promise<Response | null> {
  let response: Response | null;
  try {
    response = await goto(page, url, options);
  } catch (err) {
    throw proxyError(session, url, url, error) ?? err;
  }
  // The proxy answers what it refused with 403 and what it could not reach with 502.
  if (response && (response.status() === 403 || response.status() === 502)) {
    const failure = proxyError(session, url, response.url(), error);
    if (failure) throw failure;
  }
  return response;
}

async function goto(page: Page, url: string, options: LoadOptions): Promise<Response | null> {
  try {
    return await page.goto(url, options);
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    if (/net::ERR_/.test(err.message)) {
      await page.waitForURL(ERROR_PAGE, { timeout: ERROR_PAGE_WAIT_MS }).catch(() => undefined);
      throw err;
    }
    if (!INTERRUPTED_BY_ERROR_PAGE.test(err.message)) throw err;
    return page.goto(url, options);
  }
}

function proxyError(session: BrowsingSession, asked: string, hop: string, error: RaiseError): Error | undefined {
  const trouble = session.takeProxyTrouble(hop);
  if (trouble?.blocked !== undefined) {
    const via = hop === asked ? '' : ` (on the way, at ${hop.slice(0, 200)})`;
    return error('WEBVIEW_URL_REFUSED', `Refused ${asked.slice(0, 200)}${via}: ${trouble.blocked}.`, { url: asked.slice(0, 2000), reason: trouble.blocked, hop: hop.slice(0, 2000) });
  }
  if (trouble?.error !== undefined) {
    return error('WEBVIEW_NAVIGATION_FAILED', `${trouble.error} while loading ${hop.slice(0, 200)}: check the URL and that its server is up.`, { error: trouble.error, url: hop.slice(0, 2000) });
  }
  return undefined;
}
