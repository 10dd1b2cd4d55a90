import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const webviewErrors = {
  WEBVIEW_BROWSER_MISSING: {
    status: 503,
    mcp: 'result',
    description: 'No browser at plugins.webview.config.executablePath: install Chromium (Debian/Ubuntu: apt-get install chromium), set executablePath to a Chromium or Chrome binary, or attach to a running browser with webview_connect.',
  },
  WEBVIEW_BROWSER_FAILED: {
    status: 502,
    mcp: 'result',
    description: 'The browser failed to start, crashed or was closed during the call; its browsing sessions are gone. The next call starts a new browser (unless the breaker webview:browser is open: wait for it).',
  },
  WEBVIEW_CONNECT_FAILED: {
    status: 502,
    mcp: 'result',
    description: 'No browser answered at the DevTools endpoint: start it with --remote-debugging-port=9222 and check the address (http://127.0.0.1:9222).',
  },
  WEBVIEW_CONNECT_REFUSED: {
    status: 403,
    mcp: 'result',
    description: 'webview_connect is switched off (connect.enabled), or the endpoint is not on this machine and connect.allowRemote is false.',
  },
  WEBVIEW_URL_REFUSED: {
    status: 400,
    mcp: 'result',
    description: "The URL's scheme or host is not allowed by plugins.webview.config.urls (by default http and https only); details.reason says which rule.",
  },
  WEBVIEW_NAVIGATION_FAILED: {
    status: 502,
    mcp: 'result',
    description: 'The page could not be loaded (details.error, e.g. net::ERR_CONNECTION_REFUSED): check the URL and that the server is up.',
  },
  WEBVIEW_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'The page did not get there in time (a navigation, an element to act on, a wait, a script, a new tab that did not open). Ask for a longer timeout (up to the configured limit) or check the page with webview_snapshot.',
  },
  WEBVIEW_ELEMENT_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'No element matches the ref or selector: refs come from the latest webview_snapshot of that tab (take a new one after the page changed); check a selector with webview_query.',
  },
  WEBVIEW_ELEMENT_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'The element cannot take this action (typing into a button, choosing an option of something that is not a <select>, an option it does not have), or the selector is not valid CSS.',
  },
  WEBVIEW_TAB_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'The browsing session has no tab with this id (closed, or never opened): webview_tabs with action list shows the open ones.',
  },
  WEBVIEW_TAB_CRASHED: {
    status: 502,
    mcp: 'result',
    description: "The tab's page crashed (its renderer process ended: out of memory, or killed) and the tab was closed: the next call without tab opens a new one. The session's other tabs, cookies and storage remain.",
  },
  WEBVIEW_PAGE_ERROR: {
    status: 502,
    mcp: 'result',
    description: 'Playwright failed on the page in a way the gateway does not recognise; the message gives its words. Take webview_snapshot to see where the page is, then try again.',
  },
  WEBVIEW_LIMIT: {
    status: 429,
    mcp: 'result',
    description: 'Too many browsing sessions (limits.sessions across all clients, limits.sessionsPerClient for one) or tabs in this session (limits.tabsPerSession): close a session you no longer need with webview_close, a tab with webview_tabs, or wait for idle sessions to close.',
  },
  WEBVIEW_EVAL_DISABLED: {
    status: 403,
    mcp: 'result',
    description: 'webview_eval is switched off in this gateway (plugins.webview.config.eval.enabled: false).',
  },
  WEBVIEW_SCREENSHOT_TOO_LARGE: {
    status: 413,
    mcp: 'result',
    description: 'The screenshot is larger than limits.screenshotBytes: take JPEG with a lower quality, the viewport instead of the full page, or one element.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type WebviewErrorCode = keyof typeof webviewErrors;
