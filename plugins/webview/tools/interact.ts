// Acting on elements with the mouse and the keyboard: webview_click, webview_press_key.
import type { Locator, Page } from 'playwright-core';
import type { ToolDefinition } from '@mcp-gateway/core';
import { callBudget, snapshotStep } from '../call-budget.js';
import { snapshotOf } from '../snapshot.js';
import { hasTarget, locate } from '../target.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, ref, selector, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';


const MODIFIERS = ['ControlOrMeta', 'Control', 'Shift', 'Alt', 'Meta'];
/**
 * The key names of Playwright's keyboard (its US layout), besides single printable characters.
 * Only these are accepted: Playwright retries an action with an unknown key until its timeout
 * instead of saying so.
 */
const NAMED_KEYS = [
  'Enter', 'Tab', 'Escape', 'Backspace', 'Delete', 'Insert', 'Space', 'Home', 'End', 'PageUp', 'PageDown',
  'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'F[1-9]', 'F1[0-2]', 'Key[A-Z]', 'Digit[0-9]',
  'Numpad[0-9]', 'Numpad(?:Add|Subtract|Multiply|Divide|Decimal|Enter)', '(?:Shift|Control|Alt|Meta)(?:Left|Right)?', 'ControlOrMeta', 'AltGraph',
  'Backquote', 'Minus', 'Equal', 'Backslash', 'BracketLeft', 'BracketRight', 'Semicolon', 'Quote', 'Comma', 'Period', 'Slash',
  'CapsLock', 'NumLock', 'ScrollLock', 'PrintScreen', 'Pause', 'ContextMenu',
  'AudioVolume(?:Mute|Down|Up)', 'MediaTrack(?:Next|Previous)', 'MediaPlayPause',
];
const KEY_PATTERN = `^(?:(?:${MODIFIERS.join('|')})\\+){0,4}(?:${NAMED_KEYS.join('|')}|[ -~])$`;

const click = {
  name: 'webview_click',
  title: 'Click an element',
  description: 'Clicks an element (by ref or selector) as a user would, once it is visible, stable and enabled.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ref,
      selector,
      button: { enum: ['left', 'right', 'middle'], default: 'left' },
      doubleClick: { type: 'boolean', default: false },
      timeoutMs,
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ selector: 'a' }, { ref: 'e6', snapshot: true }],
  },
  outputSchema: pageOutput(snapshotFields, []),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const pressKey = {
  name: 'webview_press_key',
  title: 'Press a key',
  description:
    'Presses a key or combination in the element named by ref or selector, else where the focus is: ' +
    'Enter to submit, Tab to move on, arrows in menus, Escape to close. A navigation it starts is waited for.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['key'],
    properties: {
      key: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        pattern: KEY_PATTERN,
        description: 'e.g. Enter, ArrowDown, Shift+Tab, Control+A, a',
      },
      ref,
      selector,
      timeoutMs,
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ key: 'Tab' }, { key: 'Enter', selector: 'input[name=q]' }],
  },
  outputSchema: pageOutput(snapshotFields, []),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerInteractTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(click, (args, call) => {
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    const plan = { doing: `clicking ${args.ref ?? args.selector}`, budgetMs: callBudget(timeout, timeout, snapshotStep(webview.limits, args.snapshot)) };
    return webview.inTab(call, args, plan, async (tab, session) => {
      const { locator } = await locate(tab.page, args, ctx.error, timeout);
      const options = { button: args.button, timeout };
      await (args.doubleClick ? locator.dblclick(options) : locator.click(options));
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), ...after };
    });
  });

  ctx.tool(pressKey, (args, call) => {
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    const plan = { doing: `pressing ${args.key}`, budgetMs: callBudget(timeout, timeout, snapshotStep(webview.limits, args.snapshot)) };
    return webview.inTab(call, args, plan, async (tab, session) => {
      const target = hasTarget(args) ? (await locate(tab.page, args, ctx.error, timeout)).locator : await focusedIn(tab.page);
      await (target ? target.press(args.key, { timeout }) : tab.page.keyboard.press(args.key));
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), ...after };
    });
  });
}

/**
 * The element that has the focus, if any. A key pressed through its locator rather than the
 * bare keyboard makes Playwright wait for the navigation the key starts (Enter in a form), so
 * the answer tells the new URL. The innermost match: a shadow host matches :focus too.
 */
async function focusedIn(page: Page): Promise<Locator | undefined> {
  const focused = page.locator(':focus').last();
  return (await focused.count()) > 0 ? focused : undefined;
}
