// Loading pages and reading them: webview_navigate, webview_snapshot.
import type { ToolDefinition } from '../../../core/index.js';
import { allowedUrl, load } from '../navigation.js';
import { snapshotOf } from '../snapshot.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';

const navigate = {
  name: 'webview_navigate',
  title: 'Open a URL',
  description:
    'Loads a URL in a tab of your browsing session (opened, with the browser, on first use) and waits until the page has loaded (waitUntil). Only the schemes and hosts the gateway allows (http and https by default). Errors: WEBVIEW_URL_REFUSED, WEBVIEW_NAVIGATION_FAILED, WEBVIEW_TIMEOUT, WEBVIEW_BROWSER_MISSING.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 8192, description: 'An absolute URL, e.g. https://example.com/.' },
      waitUntil: {
        enum: ['load', 'domcontentloaded', 'networkidle', 'commit'],
        default: 'load',
        description: 'When the navigation counts as done: the load event, DOMContentLoaded, no network for 500 ms, or the first bytes.',
      },
      timeoutMs: timeoutMs('How long to wait at most; default and upper bound limits.navigationTimeoutMs.'),
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ url: 'https://example.com/' }, { url: 'https://example.com/', waitUntil: 'domcontentloaded', snapshot: true }],
  },
  outputSchema: pageOutput({ status: { type: ['integer', 'null'], description: "The main document's HTTP status; null when there was none (about:blank, a same-page anchor)." }, ...snapshotFields }, ['status']),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const snapshot = {
  name: 'webview_snapshot',
  title: 'Read the page (accessibility snapshot)',
  description:
    "The page's accessibility tree as text: roles, names, values and states, with [ref=eN] on elements to pass to webview_click, webview_type, webview_select_option. Take it again after the page changed: refs resolve against the latest snapshot. Cheaper and more exact than a screenshot for acting on a page.",
  inputSchema: { type: 'object', additionalProperties: false, properties: { session, tab }, examples: [{}] },
  outputSchema: pageOutput(snapshotFields, ['snapshot', 'truncated']),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerNavigateTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(navigate, (args, call) => {
    const url = allowedUrl(webview.policy, args.url, ctx.error);
    return webview.inTab(call, args, `loading ${url.slice(0, 200)}`, async (tab, session) => {
      const timeout = webview.within(args.timeoutMs, webview.limits.navigationTimeoutMs);
      const response = await load(tab.page, session, url, { waitUntil: args.waitUntil, timeout }, ctx.error);
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), status: response?.status() ?? null, ...after };
    });
  });

  ctx.tool(snapshot, (args, call) =>
    webview.inTab(call, args, 'taking a snapshot', async (tab, session) => {
      const text = await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs);
      return { ...(await webview.facts(tab, session)), ...text };
    }),
  );
}
