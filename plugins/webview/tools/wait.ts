// Waiting for the page: webview_wait (an element, a text, or a plain pause).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import type { ToolDefinition } from '@mcp-gateway/core';
import { callBudget, MAX_PAUSE_MS } from '../call-budget.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, session, tab, timeoutMs } from './schemas.js';

const wait = {
  name: 'webview_wait',
  title: 'Wait for an element, a text or a while',
  description:
    'Waits for exactly one of: an element (selector) to reach state, a text to become visible, or timeMs to pass. ' +
    'Use it after an action whose effect comes later (a message, content loaded by script) instead of polling with snapshots.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      selector: { type: 'string', minLength: 1, maxLength: 2000, description: 'CSS; its first match.' },
      state: {
        enum: ['attached', 'detached', 'visible', 'hidden'],
        default: 'visible',
        description: 'With selector.',
      },
      text: { type: 'string', minLength: 1, maxLength: 2000, description: 'Contained in a visible element; case and extra spaces ignored.' },
      timeMs: { type: 'integer', minimum: 0, maximum: MAX_PAUSE_MS, description: 'A plain pause.' },
      timeoutMs: { ...timeoutMs, description: 'For selector or text.' },
      session,
      tab,
    },
    examples: [{ selector: 'h1' }, { text: 'Example Domain' }, { timeMs: 500 }],
  },
  outputSchema: pageOutput(
    {
      waitedFor: { type: 'string', description: 'What was waited for, e.g. "selector h1 visible", "text \\"Saved\\"", "500 ms".' },
      waitedMs: { type: 'integer', minimum: 0, description: 'How long the wait took, in milliseconds.' },
    },
    ['waitedFor', 'waitedMs'],
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

interface WaitArgs {
  readonly selector?: string;
  readonly state: 'attached' | 'detached' | 'visible' | 'hidden';
  readonly text?: string;
  readonly timeMs?: number;
}

export function registerWaitTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(wait, (args, call) => {
    const asked = [args.selector, args.text, args.timeMs].filter((value) => value !== undefined).length;
    if (asked !== 1) throw ctx.error('INVALID_ARGUMENTS', 'Give exactly one of selector (with state), text or timeMs.');
    const waitedFor = named(args);
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    const plan = { doing: `waiting for ${waitedFor}`, budgetMs: callBudget(args.timeMs ?? timeout) };
    return webview.inTab(call, args, plan, async (tab, session) => {
      const started = performance.now();
      await (args.timeMs !== undefined ? sleep(args.timeMs, undefined, { signal: call.signal }) : waitOn(tab.page, args, timeout));
      const waitedMs = Math.round(performance.now() - started);
      return { ...(await webview.facts(tab, session)), waitedFor, waitedMs };
    });
  });
}

function waitOn(page: Page, args: WaitArgs, timeout: number): Promise<void> {
  if (args.selector !== undefined) return page.locator(args.selector).first().waitFor({ state: args.state, timeout });
  return page.getByText(args.text!).first().waitFor({ state: 'visible', timeout });
}

/** What the wait is for, in the answer and in a timeout's message. */
function named(args: WaitArgs): string {
  if (args.selector !== undefined) return `selector ${args.selector} ${args.state}`;
  if (args.text !== undefined) return `text ${JSON.stringify(args.text)}`;
  return `${args.timeMs} ms`;
}
