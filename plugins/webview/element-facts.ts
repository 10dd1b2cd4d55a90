// What webview_query tells of each element it finds, read inside the page in one go.
import type { Locator } from 'playwright-core';
import type { Box } from './model.js';
import type { DomElement } from './page-dom.js';

export interface ElementFacts {
  readonly tag: string;
  readonly text: string;
  readonly attributes: Record<string, string>;
  /** Where it is in the viewport, in CSS pixels; null when it is not rendered (display: none, not in the page). */
  readonly box: Box | null;
  readonly visible: boolean;
}

export interface ElementsFound {
  /** Every match, however many are described. */
  readonly count: number;
  readonly elements: ElementFacts[];
}

/** How much of each element is told: a page can hold megabytes of text and attribute values. */
export const ELEMENT_CAPS = { textChars: 2000, attributes: 50, valueChars: 2000 } as const;

/** The matches of `locator` as they are now (no waiting), the first `max` described. */
export function elementsFound(locator: Locator, max: number): Promise<ElementsFound> {
  return locator.evaluateAll(
    (elements: DomElement[], caps: { max: number; textChars: number; attributes: number; valueChars: number }): ElementsFound => ({
      count: elements.length,
      elements: elements.slice(0, caps.max).map((el) => {
        const rendered = el.getClientRects().length > 0;
        const rect = el.getBoundingClientRect();
        const box = rendered ? { x: rect.x, y: rect.y, width: rect.width, height: rect.height } : null;
        // The same test as Playwright's visible state: rendered with a size, and not visibility: hidden.
        const visible = box !== null && box.width > 0 && box.height > 0 && (el.checkVisibility?.({ visibilityProperty: true }) ?? true);
        const text = (el.innerText ?? el.textContent ?? '').trim().slice(0, caps.textChars);
        const attributes: Record<string, string> = {};
        for (const attribute of Array.from(el.attributes).slice(0, caps.attributes)) attributes[attribute.name] = attribute.value.slice(0, caps.valueChars);
        return { tag: el.localName, text, attributes, box, visible };
      }),
    }),
    { max, ...ELEMENT_CAPS },
  );
}
