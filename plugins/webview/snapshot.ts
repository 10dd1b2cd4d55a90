import type { Page } from 'playwright-core';

export interface SnapshotText {
  snapshot: string;
  truncated: boolean;
}

/**
 * The page's accessibility tree as Playwright's AI snapshot: roles, names and states, with
 * [ref=eN] on the elements a model can act on (refs resolve against this latest snapshot).
 */
export async function snapshotOf(page: Page, maxChars: number, timeoutMs: number): Promise<SnapshotText> {
  const text = await page.ariaSnapshot({ mode: 'ai', timeout: timeoutMs });
  return text.length > maxChars ? { snapshot: text.slice(0, maxChars), truncated: true } : { snapshot: text, truncated: false };
}
