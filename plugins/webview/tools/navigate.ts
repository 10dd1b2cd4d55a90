// Loading pages and reading them: webview_navigate, webview_snapshot.
import type { ToolDefinition } from '@mcp-gateway/core';
import { allowedUrl, load } from '../navigation.js';
import { snapshotOf } from '../snapshot.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';

const navigate = {
  name: 'webview_navigate',
  title: 'Open a URL',
  description:
    'Loads a URL in a tab (the browser starts on first use) and waits until the page has loaded. ' +
    'Start here; then read the page with webview_snapshot, or pass snapshot: true.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Absolute, e.g. http://localhost:5173/.' },
      waitUntil: {
        enum: ['load', 'domcontentloaded', 'networkidle', 'commit'],
        default: 'load',
        description: 'networkidle: no requests for 500 ms; commit: the first bytes.',
      },
      timeoutMs,
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
    'Reads the page as text: its accessibility tree, with [ref=eN] on elements to pass to webview_click, webview_type and the others. ' +
    'Take it again after the page changes (refs go stale). Cheaper and more exact than a screenshot.',
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
