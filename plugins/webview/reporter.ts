// What the pages do, told to the gateway: events on /events for everyone watching
// (webview.console, webview.navigated, webview.dialog), and errors and dialogs as log
// notifications to the MCP session whose page it was.
import type { PluginEvents, PluginNotify } from '../../core/index.js';
import type { BrowsingSession } from './browsing-session.js';
import type { PageReporter } from './page-events.js';

/** Console types worth a notification to the session: the rest stay in webview_console. */
const LOUD = new Set(['error', 'pageerror']);

export function pageReporter(events: PluginEvents, notify: PluginNotify): PageReporter {
  const notifySession = (session: BrowsingSession, level: 'error' | 'warning', data: unknown) => {
    if (session.mcpSession !== undefined) notify.log({ session: session.mcpSession }, level, data);
  };
  return {
    console(session, entry) {
      events.publish('webview.console', { session: session.name, ...entry });
      if (LOUD.has(entry.type)) notifySession(session, 'error', { event: 'webview.console', session: session.name, ...entry });
    },
    navigated(session, tab, url) {
      events.publish('webview.navigated', { session: session.name, tab, url: url.slice(0, 2000), time: new Date().toISOString() });
    },
    dialog(session, entry) {
      events.publish('webview.dialog', { session: session.name, ...entry });
      notifySession(session, 'warning', { event: 'webview.dialog', session: session.name, ...entry });
    },
  };
}
