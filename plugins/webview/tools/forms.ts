// Filling in forms: webview_type, webview_select_option.
import type { ToolDefinition } from '@mcp-gateway/core';
import { callBudget, snapshotStep } from '../call-budget.js';
import { choose, clip, listed, selectFactsOf, whyNot } from '../select-options.js';
import { snapshotOf } from '../snapshot.js';
import { locate } from '../target.js';
import { textEntryOf, typeInto } from '../text-entry.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, ref, selector, session, snapshotFields, snapshotFlag, tab, timeoutMs } from './schemas.js';


const type = {
  name: 'webview_type',
  title: 'Type into a field',
  description:
    'Types into a textbox, textarea or editable element (by ref or selector), replacing its value at once as a paste would. ' +
    'For a <select>, use webview_select_option.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      ref,
      selector,
      text: { type: 'string', maxLength: 100_000, description: 'Empty (with clear) empties the field.' },
      submit: { type: 'boolean', default: false, description: 'Press Enter after typing.' },
      slowly: { type: 'boolean', default: false, description: 'Key by key, for pages that react to keys (autocomplete); keep the text short.' },
      clear: { type: 'boolean', default: true, description: 'false: append.' },
      timeoutMs,
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ selector: 'input[name=q]', text: 'hello' }, { selector: 'input[name=q]', text: ' world', clear: false, slowly: true, submit: true }],
  },
  outputSchema: pageOutput(snapshotFields, []),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const option = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'label'],
  properties: { value: { type: 'string' }, label: { type: 'string', description: 'The text shown for it.' } },
} as const;

const selectOption = {
  name: 'webview_select_option',
  title: 'Choose options of a <select>',
  description:
    'Chooses options of a native <select> (by ref or selector) as a user would, firing input and change, and answers the options chosen now. ' +
    'For a custom dropdown, click it and then its option.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['values'],
    properties: {
      ref,
      selector,
      values: { type: 'array', items: { type: 'string', maxLength: 2000 }, minItems: 1, maxItems: 100, description: "Each an option's value, else its label; several only for a multiple select." },
      timeoutMs,
      snapshot: snapshotFlag,
      session,
      tab,
    },
    examples: [{ selector: 'select[name=lang]', values: ['fr'] }, { selector: 'select[name=lang]', values: ['English'] }],
  },
  outputSchema: pageOutput({ selected: { type: 'array', items: option, description: 'The options chosen now, in their order in the list.' }, ...snapshotFields }, ['selected']),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerFormTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(type, (args, call) => {
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    // Finding it, clearing it, the keys, Enter: each may take the timeout.
    const budgetMs = callBudget(timeout, timeout, timeout, args.submit ? timeout : 0, snapshotStep(webview.limits, args.snapshot));
    return webview.inTab(call, args, { doing: `typing into ${args.ref ?? args.selector}`, budgetMs }, async (tab, session) => {
      const { locator, described } = await locate(tab.page, args, ctx.error, timeout);
      const entry = await textEntryOf(locator);
      if (entry.kind === 'refused') {
        const hint = entry.tag === 'select' ? 'choose its option with webview_select_option' : 'type into a textbox or an editable element (webview_snapshot lists them)';
        throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The element at ${described} is ${entry.element} that ${entry.reason}: ${hint}.`, { element: entry.element, reason: entry.reason });
      }
      if (entry.kind === 'whole' && (args.slowly || !args.clear)) {
        throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The element at ${described} takes a whole value (a date, a time, a colour, a number on a slider): give all of it with clear true and slowly false.`);
      }
      await typeInto(tab.page, locator, { text: args.text, clear: args.clear, slowly: args.slowly, timeout });
      if (args.submit) await locator.press('Enter', { timeout });
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), ...after };
    });
  });

  ctx.tool(selectOption, (args, call) => {
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    const budgetMs = callBudget(timeout, timeout, snapshotStep(webview.limits, args.snapshot));
    return webview.inTab(call, args, { doing: `choosing options of ${args.ref ?? args.selector}`, budgetMs }, async (tab, session) => {
      const { locator, described } = await locate(tab.page, args, ctx.error, timeout);
      const select = await selectFactsOf(locator);
      if (select.options === undefined) {
        throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The element at ${described} is ${withArticle(select.tag)}, not a <select>: for a custom dropdown, click it and then its option (webview_click).`, { element: select.tag });
      }
      if (select.disabled) throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The <select> at ${described} is disabled: nothing can be chosen in it now.`);
      if (args.values.length > 1 && !select.multiple) {
        throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The <select> at ${described} takes one option, not ${args.values.length}: give one value.`);
      }
      const choice = choose(select.options, args.values);
      if (!choice.ok) {
        throw ctx.error('WEBVIEW_ELEMENT_INVALID', `The <select> at ${described}: ${whyNot(choice)}. Its options (value, label): ${listed(select.options)}.`, {
          missing: choice.missing.slice(0, 100),
          disabled: choice.disabled.slice(0, 100),
          options: select.options.slice(0, 100).map(({ value, label }) => ({ value: clip(value), label: clip(label) })),
        });
      }
      await locator.selectOption(choice.indexes.map((index) => ({ index })), { timeout });
      // Read back rather than assumed: the page's own change handler may choose otherwise.
      const now = await selectFactsOf(locator);
      const selected = (now.options ?? []).filter((o) => o.selected).map(({ value, label }) => ({ value, label }));
      const after = args.snapshot ? await snapshotOf(tab.page, webview.limits.snapshotChars, webview.limits.actionTimeoutMs) : {};
      return { ...(await webview.facts(tab, session)), selected, ...after };
    });
  });
}

/** "an <input>", "a <button>". */
function withArticle(tag: string): string {
  return `${/^[aeiou]/.test(tag) ? 'an' : 'a'} <${tag}>`;
}
