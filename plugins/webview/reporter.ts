// What the pages do, told to the gateway: events on /events for everyone watching
// (webview.console, webview.navigated, webview.dialog), and errors and dialogs as log
// notifications to the MCP session whose page it was. Both go through a NoticeGate per
// browsing session, so a page in a loop cannot flood them; webview_console keeps everything.
import type { PluginEvents, PluginNotify } from '@mcp-gateway/core';
import type { BrowsingSession } from './browsing-session.js';
import type { ConsoleEntry } from './model.js';
import { NoticeGate } from './notice-gate.js';
import type { PageReporter } from './page-events.js';

/** Console types worth a notification to the session: the rest stay in webview_console. */
const LOUD = new Set(['error', 'pageerror']);

/**
 * How much an /events watcher learns. `metadata`: who, which tab, what kind, when (and a
 * navigation's origin) — every subscriber sees every client's events, and console text, URLs
 * with tokens and dialog texts are the client's own. `full`: the text, URL and message too.
 */
export type EventDetail = 'metadata' | 'full';

export function pageReporter(events: PluginEvents, notify: PluginNotify, detail: EventDetail): PageReporter {
  const notifySession = (session: BrowsingSession, level: 'error' | 'warning', data: unknown) => {
    if (session.mcpSession !== undefined) notify.log({ session: session.mcpSession }, level, data);
  };
  const who = (session: BrowsingSession) => ({ session: session.name, owner: session.owner });
  const publishConsole = (session: BrowsingSession, entry: ConsoleEntry) => {
    const { tab, type, time } = entry;
    events.publish('webview.console', detail === 'full' ? { ...who(session), ...entry } : { ...who(session), tab, type, time });
  };
  const gates = new WeakMap<BrowsingSession, NoticeGate>();
  const gateOf = (session: BrowsingSession): NoticeGate => {
    let gate = gates.get(session);
    if (!gate) {
      gate = new NoticeGate((held) => {
        const entry = { tab: session.selectedId ?? 't?', type: 'warning', text: `${held} more console messages and page events were not sent (too many at once); webview_console has the messages`, time: new Date().toISOString() };
        publishConsole(session, entry);
        notifySession(session, 'warning', { event: 'webview.console', session: session.name, ...entry });
      });
      gates.set(session, gate);
    }
    return gate;
  };
  return {
    console(session, entry) {
      if (isFaviconMiss(entry) || !gateOf(session).take()) return;
      publishConsole(session, entry);
      if (LOUD.has(entry.type)) notifySession(session, 'error', { event: 'webview.console', session: session.name, ...entry });
    },
    navigated(session, tab, url) {
      if (!gateOf(session).take()) return;
      const time = new Date().toISOString();
      events.publish('webview.navigated', detail === 'full' ? { ...who(session), tab, url: url.slice(0, 2000), time } : { ...who(session), tab, origin: originOf(url), time });
    },
    dialog(session, entry) {
      if (!gateOf(session).take()) return;
      const { tab, type, time } = entry;
      events.publish('webview.dialog', detail === 'full' ? { ...who(session), ...entry } : { ...who(session), tab, type, time });
      notifySession(session, 'warning', { event: 'webview.dialog', session: session.name, ...entry });
    },
  };
}

/**
 * Chromium logs "Failed to load resource" when a page has no /favicon.ico, which most test
 * pages lack: kept in webview_console, but not worth an event or a notification.
 */
function isFaviconMiss(entry: ConsoleEntry): boolean {
  return entry.type === 'error' && entry.text.startsWith('Failed to load resource') && /\/favicon\.ico([?#]|$)/.test(entry.url ?? '');
}

/** `https://host:port` of a URL; `about:blank` and other opaque URLs as their scheme. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  } catch {
    return '';
  }
}
