import type { SearchIndex, SearchIndexOptions } from '../../../../core/contract/search-types.js';
import type { SharedStore } from '../../../../core/storage/shared-store.js';
import { openStore, type BackendUnderTest } from '../../../support/store-backends.js';

/** A fresh store on `backend` and the index `name` of plugin `notes` in it. */
export async function freshIndex(
  t: { after(fn: () => unknown): void },
  backend: BackendUnderTest,
  options: SearchIndexOptions = {},
  name = 'docs',
): Promise<{ store: SharedStore; index: SearchIndex }> {
  const store = await openStore(t, backend);
  return { store, index: await store.forPlugin('notes').search(name, options) };
}

/** Every score of every hit is a number in [0, 1]. */
export function allScoresInUnitRange(hits: readonly { score: number; lexicalScore?: number; vectorScore?: number }[]): boolean {
  return hits.every((h) => [h.score, h.lexicalScore, h.vectorScore].every((s) => s === undefined || (Number.isFinite(s) && s >= 0 && s <= 1)));
}
