import type { Database } from 'better-sqlite3';
import { load } from 'sqlite-vec';
import type { VectorEngine } from '../contract/search-types.js';

/**
 * Loads sqlite-vec into the shared store's SQLite connection, for search's cosine distance
 * in SQL. The extension is a binary for each platform (an optional dependency of the
 * package): where none fits or it fails to load, search still works, scoring vectors
 * exactly in the gateway, and the reason is kept for the boot log and gateway_status.
 */
export function loadSqliteVec(sqlite: Database): { engine: VectorEngine; reason?: string } {
  try {
    load(sqlite);
    return { engine: 'sqlite-vec' };
  } catch (err) {
    return { engine: 'exact', reason: `sqlite-vec did not load: ${(err as Error)?.message ?? String(err)}` };
  }
}
