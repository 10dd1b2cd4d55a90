// What the pages of a browsing session do on their own — log, request, navigate, open tabs,
// raise dialogs — recorded in the session and told to the reporter (events, notifications).
import type { Page, Request } from 'playwright-core';
import type { BrowsingSession } from './browsing-session.js';
import type { ConsoleEntry, DialogEntry, NetworkEntry } from './model.js';

export interface PageReporter {
  console(session: BrowsingSession, entry: ConsoleEntry): void;
  navigated(session: BrowsingSession, tab: string, url: string): void;
  dialog(session: BrowsingSession, entry: DialogEntry): void;
}

/** Longest console text kept: a page logging megabytes must not fill the gateway's memory. */
const MAX_TEXT = 4000;

/** A tab raising more dialogs than this within DIALOG_WINDOW_MS is closed: an alert() loop never ends by itself. */
const MAX_DIALOGS = 20;
const DIALOG_WINDOW_MS = 10_000;

export function wireContext(session: BrowsingSession, maxTabs: number, reporter: PageReporter): void {
  const { context } = session;
  context.on('page', (page) => {
    if (session.tabOf(page)) return;
    if (session.size >= maxTabs) {
      // A page that opens windows beyond the limit gets them closed, and the caller is told.
      const opener = session.selectedId ?? 't?';
      record(session, reporter, { tab: opener, type: 'warning', text: `a tab the page opened was closed: ${maxTabs} tabs are open (limits.tabsPerSession)`, time: now() });
      void page.close().catch(() => undefined);
      return;
    }
    wirePage(session, session.add(page, 'page').id, page, reporter);
  });
  const requests = new WeakMap<Request, NetworkEntry>();
  context.on('request', (request) => {
    const page = pageOf(request);
    const entry: NetworkEntry = {
      tab: (page && session.tabOf(page)?.id) ?? null,
      method: request.method(),
      url: request.url().slice(0, 2000),
      resourceType: request.resourceType(),
      status: null,
      failure: null,
      time: now(),
    };
    requests.set(request, entry);
    session.network.push(entry);
  });
  context.on('response', (response) => {
    const entry = requests.get(response.request());
    if (entry) entry.status = response.status();
  });
  context.on('requestfailed', (request) => {
    const entry = requests.get(request);
    if (entry) entry.failure = request.failure()?.errorText ?? 'failed';
  });
}

/** A new tab's page: its console, errors, dialogs and navigations. */
function wirePage(session: BrowsingSession, tab: string, page: Page, reporter: PageReporter): void {
  page.on('console', (message) => {
    const { url, lineNumber, columnNumber } = message.location();
    record(session, reporter, { tab, type: message.type(), text: clip(message.text()), ...(url ? { url, line: lineNumber, column: columnNumber } : {}), time: now() });
  });
  page.on('pageerror', (error) => record(session, reporter, { tab, type: 'pageerror', text: clip(`${error.name}: ${error.message}`), time: now() }));
  const recent: number[] = [];
  let closing = false;
  page.on('dialog', (dialog) => {
    if (closing || tooManyDialogs(recent)) {
      if (!closing) {
        closing = true;
        record(session, reporter, { tab, type: 'warning', text: `tab ${tab} was closed: its page raised more than ${MAX_DIALOGS} dialogs within ${DIALOG_WINDOW_MS / 1000} s`, time: now() });
        void page.close().catch(() => undefined);
      }
      void dialog.dismiss().catch(() => undefined);
      return;
    }
    const entry: DialogEntry = { tab, type: dialog.type(), message: clip(dialog.message()), time: now() };
    session.dialogSeen(entry);
    record(session, reporter, { tab, type: 'dialog', text: `${entry.type}: ${entry.message}`, time: entry.time });
    reporter.dialog(session, entry);
    // Leaving a page is what the caller asked for; every other dialog is answered "no".
    void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reporter.navigated(session, tab, frame.url());
  });
  page.on('close', () => session.remove(tab));
  // A crashed page answers nothing but "Page crashed" from then on: the tab goes, and the caller is told why.
  page.on('crash', () => {
    record(session, reporter, { tab, type: 'error', text: `tab ${tab} crashed (its page's process ended: out of memory, or killed) and was closed`, time: now() });
    session.remove(tab);
    void page.close().catch(() => undefined);
  });
}

/** Counts one more dialog in `recent` (the times within the window, at most MAX_DIALOGS + 1); true when there were too many. */
function tooManyDialogs(recent: number[]): boolean {
  const at = Date.now();
  while (recent.length > 0 && recent[0]! < at - DIALOG_WINDOW_MS) recent.shift();
  recent.push(at);
  return recent.length > MAX_DIALOGS;
}

/**
 * The page a request comes from. Playwright throws (from inside an event listener, so the
 * whole process would go) for a navigation issued before its frame exists — a popup's first
 * load — and for a service worker's request: those have no tab.
 */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

function record(session: BrowsingSession, reporter: PageReporter, entry: ConsoleEntry): void {
  session.console.push(entry);
  reporter.console(session, entry);
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function now(): string {
  return new Date().toISOString();
}
