// The options of a <select>: reading them, and finding the ones a caller names by value or label.
import type { Locator } from 'playwright-core';
import type { DomSelect } from './page-dom.js';

export interface OptionFacts {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
  readonly disabled: boolean;
}

export interface SelectElement {
  readonly tag: 'select';
  readonly multiple: boolean;
  readonly disabled: boolean;
  readonly options: readonly OptionFacts[];
}

/** A <select> as it is now, or just the tag of an element that is not one. */
export type SelectFacts = SelectElement | { readonly tag: string; readonly options?: undefined };

export type Choice = { readonly ok: true; readonly indexes: number[] } | { readonly ok: false; readonly missing: string[]; readonly disabled: string[] };

export function selectFactsOf(locator: Locator): Promise<SelectFacts> {
  return locator.evaluate((el: DomSelect): SelectFacts => {
    if (el.localName !== 'select') return { tag: el.localName };
    const options = Array.from(el.options, (o) => ({ value: o.value, label: o.label, selected: o.selected, disabled: o.disabled }));
    return { tag: 'select', multiple: el.multiple, disabled: el.disabled, options };
  });
}

/** Each wanted string names the option with that value, else the one with that label. */
export function choose(options: readonly OptionFacts[], wanted: readonly string[]): Choice {
  const indexes = new Set<number>();
  const missing: string[] = [];
  const disabled: string[] = [];
  for (const want of wanted) {
    let index = options.findIndex((option) => option.value === want);
    if (index === -1) index = options.findIndex((option) => option.label === want);
    if (index === -1) missing.push(want);
    else if (options[index]!.disabled) disabled.push(want);
    else indexes.add(index);
  }
  return missing.length > 0 || disabled.length > 0 ? { ok: false, missing, disabled } : { ok: true, indexes: [...indexes] };
}

/** Why the choice failed, for a message: the values no option has, the options disabled. */
export function whyNot(choice: Extract<Choice, { ok: false }>): string {
  const problems = [
    ...(choice.missing.length > 0 ? [`it has no option with the value or label ${quoted(choice.missing)}`] : []),
    ...(choice.disabled.length > 0 ? [`the option ${quoted(choice.disabled)} is disabled`] : []),
  ];
  return problems.join('; ');
}

/** The options as a message lists them: `"a" (Apple), "b" (Banana)…`, the first `max` of them. */
export function listed(options: readonly OptionFacts[], max = 30): string {
  if (options.length === 0) return 'none';
  const shown = options.slice(0, max).map(({ value, label }) => (value === label ? JSON.stringify(clip(value)) : `${JSON.stringify(clip(value))} (${clip(label)})`));
  return `${shown.join(', ')}${options.length > max ? ` and ${options.length - max} more` : ''}`;
}

/** A value or label short enough for a message: a page may give an option kilobytes of text. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function quoted(values: readonly string[], max = 5): string {
  const shown = values.slice(0, max).map((value) => JSON.stringify(clip(value)));
  return `${shown.join(', ')}${values.length > max ? ` and ${values.length - max} more` : ''}`;
}
