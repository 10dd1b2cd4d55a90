// Whether the browser the plugin would launch is there, checked once at start-up (in the
// background: setup does not wait for the disk). Without it every tool answers
// WEBVIEW_BROWSER_MISSING on first use; the operator should hear of it before that.
import { access, constants } from 'node:fs/promises';
import type { Logger } from '@mcp-gateway/core';

export interface BrowserCheck {
  /** True once the check found no executable at the path. */
  readonly missing: boolean;
}

export function checkBrowser(executablePath: string, log: Logger): BrowserCheck {
  const check = { missing: false };
  access(executablePath, constants.X_OK).catch(() => {
    check.missing = true;
    log.warn({ executablePath }, `webview: no browser at ${executablePath}: install Chromium (Debian/Ubuntu: apt-get install chromium), set plugins.webview.config.executablePath, or attach to a running browser with webview_connect`);
  });
  return check;
}
