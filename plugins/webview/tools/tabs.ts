// The tabs of a browsing session: webview_tabs (list, new, select, close).
import type { ToolDefinition } from '@mcp-gateway/core';
import type { BrowsingSession } from '../browsing-session.js';
import { allowedUrl, load } from '../navigation.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { session, tab } from './schemas.js';

const tabs = {
  name: 'webview_tabs',
  title: 'List, open, select or close tabs',
  description:
    'Lists, opens, selects or closes the tabs of your browsing session, and answers them. Tools act on the selected tab unless they name one; ' +
    'new selects the tab it opens. Tabs that pages open themselves are listed, not selected.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['action'],
    properties: {
      action: { enum: ['list', 'new', 'select', 'close'] },
      tab: { ...tab, description: 'For select (required) and close (default: the selected tab).' },
      url: { type: 'string', minLength: 1, maxLength: 8192, description: 'For new: the page to load in it.' },
      session,
    },
    examples: [{ action: 'list' }, { action: 'new', url: 'https://example.com/' }, { action: 'select', tab: 't1' }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['tabs', 'selected'],
    properties: {
      tabs: {
        type: 'array',
        description: 'Every tab of the browsing session, oldest first.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['tab', 'url', 'title', 'selected'],
          properties: { tab: { type: 'string' }, url: { type: 'string' }, title: { type: 'string' }, selected: { type: 'boolean' } },
        },
      },
      selected: { type: ['string', 'null'], description: 'The selected tab; null when none is open (the next page tool opens one).' },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

interface TabsArgs {
  readonly action: 'list' | 'new' | 'select' | 'close';
  readonly tab?: string;
  readonly url?: string;
}

export function registerTabTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(tabs, (args, call) => {
    const misuse = misused(args);
    if (misuse) throw ctx.error('INVALID_ARGUMENTS', misuse);
    // Checked before any tab is opened: a refused URL leaves the session as it was.
    const url = args.url === undefined ? undefined : allowedUrl(webview.policy, args.url, ctx.error);
    const doing = {
      list: 'listing the tabs',
      new: url === undefined ? 'opening a tab' : `opening a tab at ${url.slice(0, 200)}`,
      select: `selecting tab ${args.tab}`,
      close: `closing tab ${args.tab ?? '(the selected one)'}`,
    }[args.action];
    // Listing, or closing with no session open, opens nothing (no browser launch, no context).
    if (args.action === 'list' || args.action === 'close') {
      const open = webview.sessions.find(call.caller, args.session);
      if (!open && args.action === 'list') return { tabs: [], selected: null };
      if (!open) throw ctx.error('WEBVIEW_TAB_NOT_FOUND', 'No tab is open in this browsing session: nothing to close.');
    }
    return webview.inSession(call, args, doing, async (session) => {
      if (args.action === 'new') await openTab(webview, session, url);
      if (args.action === 'select') {
        const chosen = await webview.pick(session, args.tab);
        session.select(chosen.id);
        await chosen.page.bringToFront();
      }
      if (args.action === 'close') {
        const closing = args.tab !== undefined ? await webview.pick(session, args.tab) : session.selected();
        if (!closing) throw ctx.error('WEBVIEW_TAB_NOT_FOUND', 'No tab is open in this browsing session: nothing to close.');
        await closing.page.close();
        session.remove(closing.id);
      }
      return listing(session);
    });
  });
}

/** Arguments that do not go with the action: refused rather than ignored, so a mistake shows. */
function misused(args: TabsArgs): string | undefined {
  if (args.url !== undefined && args.action !== 'new') return `url goes with action new only, not ${args.action}.`;
  if (args.tab !== undefined && (args.action === 'list' || args.action === 'new')) return `tab goes with select and close, not ${args.action}.`;
  if (args.tab === undefined && args.action === 'select') return 'select needs the tab to select (webview_tabs with action list shows them).';
  return undefined;
}

/** A new tab, selected, at `url` when given; a tab whose page fails to load is closed again. */
async function openTab(webview: Webview, session: BrowsingSession, url: string | undefined): Promise<void> {
  const opened = await webview.newTab(session);
  if (url === undefined) return;
  try {
    await load(opened.page, session, url, { waitUntil: 'load', timeout: webview.limits.navigationTimeoutMs }, webview.error);
  } catch (err) {
    await opened.page.close().catch(() => undefined);
    session.remove(opened.id);
    throw err;
  }
}

async function listing(session: BrowsingSession) {
  const described = session.tabs().map(async (open) => ({
    tab: open.id,
    url: open.page.url(),
    title: await open.page.title().catch(() => ''),
    selected: open.id === session.selectedId,
  }));
  return { tabs: await Promise.all(described), selected: session.selectedId ?? null };
}
