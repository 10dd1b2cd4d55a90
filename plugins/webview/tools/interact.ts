// Acting on elements: webview_click (webview_type, webview_press_key, webview_select_option join here).
import type { ToolDefinition } from '../../../core/index.js';
import { snapshotOf } from '../snapshot.js';
import { locate } from '../target.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, ref, selector, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';

const actionTimeout = timeoutMs('How long the element may take to appear and become actionable; default and upper bound limits.actionTimeoutMs.');
const ACTING = 'Name the element by ref (from webview_snapshot) or by CSS selector.';
const ERRORS = 'Errors: WEBVIEW_ELEMENT_NOT_FOUND, WEBVIEW_ELEMENT_INVALID, WEBVIEW_TIMEOUT.';

const click = {
  name: 'webview_click',
  title: 'Click an element',
  description: `Clicks an element once it is visible, stable and enabled, as a user would (scrolling it into view). ${ACTING} ${ERRORS}`,
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ref,
      selector,
      button: { enum: ['left', 'right', 'middle'], default: 'left', description: 'Which mouse button.' },
      doubleClick: { type: 'boolean', default: false, description: 'true: a double click.' },
      timeoutMs: actionTimeout,
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ selector: 'a' }, { ref: 'e6', snapshot: true }],
  },
  outputSchema: pageOutput(snapshotFields, []),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerInteractTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(click, (args, call) =>
    webview.inTab(call, args, `clicking ${args.ref ?? args.selector}`, async (tab, session) => {
      const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
      const { locator } = await locate(tab.page, args, ctx.error, timeout);
      const options = { button: args.button, timeout };
      await (args.doubleClick ? locator.dblclick(options) : locator.click(options));
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), ...after };
    }),
  );
}
