// What every webview tool runs through: the breaker webview:browser, the caller's browsing
// session and tab, one deadline per call, Playwright's errors as the plugin's codes, and
// dialogs reported.
import type { Breaker, CallContext } from '@mcp-gateway/core';
import type { BrowserHost } from './browser-host.js';
import type { BrowsingSession, Tab } from './browsing-session.js';
import { callBudget } from './call-budget.js';
import { closeHungTab, raceDeadline } from './call-deadline.js';
import type { WebviewConfig } from './config.js';
import type { RaiseError } from './declaration.js';
import { asWebviewError } from './failures.js';
import type { DialogEntry } from './model.js';
import { openPage } from './open-page.js';
import type { SessionTable } from './session-table.js';
import type { UrlPolicy } from './url-policy.js';

export interface SessionArgs {
  readonly session?: string;
}

export interface TabArgs extends SessionArgs {
  readonly tab?: string;
}

/** What a call is doing, for messages ("clicking e4"), and how long it may take (callBudget). */
export interface CallPlan {
  readonly doing: string;
  readonly budgetMs: number;
}

/** A plan, or only what the call is doing: its budget is then a navigation's and a snapshot's. */
export type Doing = string | CallPlan;

/** Where a tab is now: part of every answer about a page. */
export interface PageFacts {
  tab: string;
  url: string;
  title: string;
  /** Dialogs the page raised (and the gateway dismissed) since the caller was last told. */
  dialogs?: DialogEntry[];
  /** Tabs the pages opened themselves since the caller was last told (not selected). */
  opened?: string[];
}

export class Webview {
  constructor(
    readonly host: BrowserHost,
    readonly sessions: SessionTable,
    readonly policy: UrlPolicy,
    readonly breaker: Breaker,
    readonly config: Readonly<WebviewConfig>,
    readonly error: RaiseError,
  ) {}

  get limits(): WebviewConfig['limits'] {
    return this.config.limits;
  }

  /**
   * Runs `work` in the caller's browsing session (opened, with the browser, when needed),
   * within the call's budget: past it, or when the call is cancelled, the call answers
   * WEBVIEW_TIMEOUT (or the cancellation) and the session is free again.
   */
  inSession<T>(call: CallContext, args: SessionArgs, doing: Doing, work: (session: BrowsingSession) => Promise<T>): Promise<T> {
    const plan = this.#plan(doing);
    return this.#inOpenSession(call, args, plan.doing, (session, signal) => this.#bounded(plan, signal, undefined, () => work(session)));
  }

  /**
   * Runs `work` on the tab the call names, else the selected one (a first tab is opened when
   * there is none), within the call's budget: past it the tab is closed, since a page that
   * does not answer holds every later call on it too.
   */
  inTab<T>(call: CallContext, args: TabArgs, doing: Doing, work: (tab: Tab, session: BrowsingSession) => Promise<T>): Promise<T> {
    const plan = this.#plan(doing);
    return this.#inOpenSession(call, args, plan.doing, async (session, signal) => {
      const tab = await this.pick(session, args.tab);
      return this.#bounded(plan, signal, tab, () => work(tab, session));
    });
  }

  /** Runs `work` through the breaker only (connect, disconnect: no session involved). */
  guarded<T>(call: CallContext, doing: string, work: () => Promise<T>): Promise<T> {
    return this.#guarded(call, doing, () => work());
  }

  async pick(session: BrowsingSession, id: string | undefined): Promise<Tab> {
    if (id !== undefined) {
      const tab = session.get(id);
      if (!tab) throw this.error('WEBVIEW_TAB_NOT_FOUND', `This browsing session has no tab ${id}: webview_tabs with action list shows the open ones.`, { tab: id });
      return tab;
    }
    return session.selectedOr(() => this.newTab(session));
  }

  async newTab(session: BrowsingSession): Promise<Tab> {
    const max = this.limits.tabsPerSession;
    if (session.size >= max) {
      throw this.error('WEBVIEW_LIMIT', `This browsing session has ${max} tabs open (limits.tabsPerSession): close one with webview_tabs (action close).`, { limit: 'tabsPerSession', max });
    }
    const page = await openPage(session.context, this.error, { lastMs: this.limits.actionTimeoutMs });
    return session.add(page);
  }

  /** The tab's id, URL and title, and the dialogs and opened tabs not reported yet. */
  async facts(tab: Tab, session: BrowsingSession): Promise<PageFacts> {
    const title = await tab.page.title().catch(() => '');
    const dialogs = session.takeDialogs();
    const opened = session.takeOpened();
    return { tab: tab.id, url: tab.page.url(), title, ...(dialogs.length > 0 ? { dialogs } : {}), ...(opened.length > 0 ? { opened } : {}) };
  }

  /** The timeout a call asked for (at least 1 ms by every schema: Playwright reads 0 as "wait for ever"), never above the configured limit. */
  within(asked: number | undefined, limit: number): number {
    return Math.min(asked ?? limit, limit);
  }

  /** A call's budget: the one it names, else a navigation's and a snapshot's. */
  #plan(doing: Doing): CallPlan {
    return typeof doing === 'string' ? { doing, budgetMs: callBudget(this.limits.navigationTimeoutMs, this.limits.actionTimeoutMs) } : doing;
  }

  #inOpenSession<T>(call: CallContext, args: SessionArgs, doing: string, work: (session: BrowsingSession, signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#guarded(call, doing, async (signal) => {
      const session = await this.sessions.open(call.caller, args.session);
      session.enter();
      try {
        return await work(session, signal);
      } finally {
        session.leave();
      }
    });
  }

  /** `work` within the plan's budget; `signal` aborts with the call, or on the breaker's own timeout. */
  async #bounded<T>(plan: CallPlan, signal: AbortSignal, tab: Tab | undefined, work: () => Promise<T>): Promise<T> {
    const raced = await raceDeadline(work(), plan.budgetMs, signal);
    if (raced.done) return raced.value;
    if (tab) await closeHungTab(tab);
    if (raced.why === 'cancelled') throw signal.reason;
    const { doing, budgetMs } = plan;
    if (!tab) {
      throw this.error('WEBVIEW_TIMEOUT', `Timed out ${doing} after ${budgetMs} ms: a page of this browsing session does not answer (a script that never ends?). Close its tab (webview_tabs, action close), or browse in another session.`, { budgetMs });
    }
    throw this.error(
      'WEBVIEW_TIMEOUT',
      `Timed out ${doing} after ${budgetMs} ms: the page in tab ${tab.id} does not answer (a script that never ends?), so the tab was closed to stop it; its page and state are gone, and the next call without tab opens a new one.`,
      { tab: tab.id, budgetMs },
    );
  }

  #guarded<T>(call: CallContext, doing: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const context = { error: this.error, browserAlive: () => this.host.connected, doing };
    return this.breaker.call(async (signal) => {
      try {
        return await work(signal);
      } catch (err) {
        throw asWebviewError(err, context);
      }
    }, { signal: call.signal });
  }
}
