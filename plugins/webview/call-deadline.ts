// One deadline for a call's page work. A page whose script never ends holds its tab's only
// thread: every Playwright call on it (even page.title) waits for ever, and nothing but closing
// the tab stops that, so a call past its deadline closes the tab it was working on.
import type { Tab } from './browsing-session.js';

export type Raced<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly why: 'timeout' | 'cancelled' };

/**
 * `work`'s value, unless `ms` pass or `signal` aborts first (a rejection of `work` passes
 * through). Work still running then is the caller's to stop (closeHungTab).
 */
export async function raceDeadline<T>(work: Promise<T>, ms: number, signal: AbortSignal): Promise<Raced<T>> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<Raced<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false, why: 'timeout' }), ms);
    onAbort = () => resolve({ done: false, why: 'cancelled' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const raced = await Promise.race([work.then((value): Raced<T> => ({ done: true, value })), stop]);
    // It rejects once its tab is closed: nobody waits for it any more.
    if (!raced.done) work.catch(() => undefined);
    return raced;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort!);
  }
}

/** Closes a tab whose page does not answer; beforeunload handlers would run in that same stuck thread. */
export async function closeHungTab(tab: Tab): Promise<void> {
  await tab.page.close({ runBeforeUnload: false }).catch(() => undefined);
}
