// Acting on elements with the mouse and the keyboard: webview_click, webview_press_key.
import type { Locator, Page } from 'playwright-core';
import type { ToolDefinition } from '../../../core/index.js';
import { callBudget, snapshotStep } from '../call-budget.js';
import { snapshotOf } from '../snapshot.js';
import { hasTarget, locate } from '../target.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, ref, selector, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';

const actionTimeout = timeoutMs('How long the element may take to appear and become actionable; default and upper bound limits.actionTimeoutMs.');
const ACTING = 'Name the element by ref (from webview_snapshot) or by CSS selector.';
const ERRORS = 'Errors: WEBVIEW_ELEMENT_NOT_FOUND, WEBVIEW_ELEMENT_INVALID, WEBVIEW_TIMEOUT.';

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

const pressKey = {
  name: 'webview_press_key',
  title: 'Press a key',
  description: `Presses a key or a combination (Enter, Tab, Escape, ArrowDown, Control+A, Shift+Tab, a…) as a user would, with its key events: in the element named by ref or selector (focused first), else in whatever has the focus. Use it to submit with Enter, move between fields, choose in a menu with the arrows, or close with Escape. A key that starts a navigation is waited for until the new page commits. ${ERRORS}`,
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
        description: "A key name of Playwright's keyboard (Enter, Tab, Escape, Backspace, ArrowDown, PageUp, F5, KeyA, Digit1…) or one printable character, after up to four modifiers joined with + (Control, Shift, Alt, Meta, ControlOrMeta): e.g. Control+A, Shift+Tab.",
      },
      ref: { ...ref, description: `${ref.description} Focused before the key is pressed; without ref or selector the key goes to what has the focus.` },
      selector,
      timeoutMs: actionTimeout,
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
