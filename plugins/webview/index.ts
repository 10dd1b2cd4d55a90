// The webview plugin: a real Chromium (launched on first use, or attached with webview_connect)
// in which every client browses in a context of its own — navigate, read the accessibility
// snapshot, act on its refs, query, console, network, eval, screenshots, tabs. README.md has
// the config, the tools and the risks of letting a model browse.
import { definePlugin } from '@mcp-gateway/core';
import { checkBrowser } from './browser-check.js';
import { BrowserHost, sandboxed } from './browser-host.js';
import { longestCallMs } from './call-budget.js';
import { declared } from './declaration.js';
import { isNotBrowserTrouble } from './failures.js';
import { pageReporter } from './reporter.js';
import { SessionTable } from './session-table.js';
import { registerBrowserTools } from './tools/browser.js';
import { registerCloseTools } from './tools/close.js';
import { registerConsoleNetworkTools } from './tools/console-network.js';
import { registerEvalTools } from './tools/eval.js';
import { registerFormTools } from './tools/forms.js';
import { registerInteractTools } from './tools/interact.js';
import { registerNavigateTools } from './tools/navigate.js';
import { registerQueryTools } from './tools/query.js';
import { registerScreenshotTools } from './tools/screenshot.js';
import { registerTabTools } from './tools/tabs.js';
import { registerWaitTools } from './tools/wait.js';
import { UrlPolicy } from './url-policy.js';
import { Webview } from './webview.js';

export type { WebviewConfig } from './config.js';

/**
 * Beyond the longest budget a call may have (each call ends at its own, see call-budget.ts),
 * a call still running means the browser itself hangs; the margin covers launching it.
 */
const BREAKER_MARGIN_MS = 30_000;

export default definePlugin({
  ...declared,
  setup(ctx) {
    const config = ctx.config;
    const { limits } = config;
    const policy = new UrlPolicy(config.urls);
    const breaker = ctx.breaker('browser', {
      timeoutMs: longestCallMs(limits) + BREAKER_MARGIN_MS,
      isCallerError: isNotBrowserTrouble,
    });
    const host = new BrowserHost({
      executablePath: config.executablePath,
      launchArgs: config.launchArgs,
      headless: config.headless,
      sandbox: sandboxed(config.sandbox),
      idleMs: config.browserIdleMs,
      log: ctx.log,
      error: ctx.error,
      lost: () => sessions.lost(),
    });
    const sessions = new SessionTable({
      host,
      limits,
      viewport: config.viewport,
      policy,
      reporter: pageReporter(ctx.events, ctx.notify, config.events),
      error: ctx.error,
      log: ctx.log,
      isOpen: (id) => ctx.sessions.isOpen(id),
    });
    const webview = new Webview(host, sessions, policy, breaker, config, ctx.error);
    ctx.sessions.onClose((id) => void sessions.closeMcpSession(id));

    registerNavigateTools(ctx, webview);
    registerInteractTools(ctx, webview);
    registerFormTools(ctx, webview);
    registerWaitTools(ctx, webview);
    registerQueryTools(ctx, webview);
    registerTabTools(ctx, webview);
    registerCloseTools(ctx, webview);
    registerConsoleNetworkTools(ctx, webview);
    registerEvalTools(ctx, webview);
    registerScreenshotTools(ctx, webview);
    registerBrowserTools(ctx, webview);

    const browser = checkBrowser(config.executablePath, ctx.log);
    ctx.reportStatus(() => {
      const tabs = sessions.all().reduce((sum, session) => sum + session.size, 0);
      const state = host.state();
      // A browser that is running (attached, or installed since) is not missing, whatever the start-up check found.
      const missing = browser.missing && !state.running;
      return {
        ok: !missing,
        detail: { browser: { ...state, ...(missing ? { missing: true } : {}) }, sessions: sessions.size, tabs },
        gauges: [
          { name: 'sessions', help: 'Browsing sessions (browser contexts) open.', value: sessions.size },
          { name: 'tabs', help: 'Tabs open in all browsing sessions.', value: tabs },
        ],
      };
    });
    ctx.onClose(async () => {
      await sessions.shutdown();
      await host.close();
    });
  },
});
