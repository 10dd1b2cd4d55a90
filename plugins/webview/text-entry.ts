// Typing into an element: whether it takes text at all, and how the text goes in — filled at
// once or key by key, replacing the value or after it.
import type { Locator, Page } from 'playwright-core';
import type { DomField } from './page-dom.js';

/** Inputs whose value is typed text. */
const TYPED_INPUTS = ['text', 'search', 'email', 'url', 'tel', 'password', 'number'];
/** Inputs whose value is set whole (a date, a colour): they can be filled, not typed into key by key. */
const WHOLE_INPUTS = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'];

/** What an element does with text: `typed` any way, `whole` filled at once only, or refused (and why). */
export type TextEntry = { readonly kind: 'typed' | 'whole' } | { readonly kind: 'refused'; readonly tag: string; readonly element: string; readonly reason: string };

export interface TypeOptions {
  readonly text: string;
  /** Replace the value (true) or add to its end. */
  readonly clear: boolean;
  /** Key by key, with key events, instead of all at once. */
  readonly slowly: boolean;
  readonly timeout: number;
}

export function textEntryOf(locator: Locator): Promise<TextEntry> {
  return locator.evaluate(
    (el: DomField, inputs: { typed: string[]; whole: string[] }): TextEntry => {
      const tag = el.localName;
      const element = tag === 'input' ? `an <input type="${el.type}">` : `a <${tag}>`;
      if (tag === 'input' || tag === 'textarea') {
        if (el.disabled) return { kind: 'refused', tag, element, reason: 'is disabled' };
        if (el.readOnly) return { kind: 'refused', tag, element, reason: 'is read-only' };
        if (tag === 'textarea' || inputs.typed.includes(el.type ?? '')) return { kind: 'typed' };
        if (inputs.whole.includes(el.type ?? '')) return { kind: 'whole' };
      } else if (el.isContentEditable) {
        return { kind: 'typed' };
      }
      return { kind: 'refused', tag, element, reason: 'takes no text' };
    },
    { typed: TYPED_INPUTS, whole: WHOLE_INPUTS },
  );
}

/**
 * Puts the text in. Filling (the default) sets the value in one input event, as a paste
 * would; `slowly` presses each key, for pages that react to keys (autocomplete, shortcuts).
 */
export async function typeInto(page: Page, locator: Locator, options: TypeOptions): Promise<void> {
  const { text, timeout } = options;
  if (options.clear && !options.slowly) return locator.fill(text, { timeout });
  if (options.clear) await locator.fill('', { timeout });
  else await caretToEnd(page, locator, timeout);
  // The element has the focus now, so neither of these moves the caret back to the start.
  await (options.slowly ? locator.pressSequentially(text, { timeout }) : page.keyboard.insertText(text));
}

async function caretToEnd(page: Page, locator: Locator, timeout: number): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
  const placed = await locator.evaluate((el: DomField) => {
    el.focus?.();
    if (el.localName !== 'input' && el.localName !== 'textarea') return false;
    try {
      el.setSelectionRange(el.value.length, el.value.length);
      return true;
    } catch {
      return false;
    }
  });
  // Email and number inputs have no selection to set, an editable element no value: the keyboard moves the caret there.
  if (!placed) await page.keyboard.press('ControlOrMeta+End');
}
