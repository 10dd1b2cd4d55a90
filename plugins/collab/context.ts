// What every part of collab is handed: the plugin context with collab's config and codes,
// and the shared store typed with collab's tables.
import type { PluginContext, PluginStore } from '../../core/index.js';
import type { CollabConfig } from './config.js';
import type { CollabErrorCode } from './errors.js';
import type { CollabTables } from './store/schema.js';

export type CollabContext = PluginContext<CollabConfig, CollabErrorCode>;
export type CollabStore = PluginStore<CollabTables>;

/** JSON text of a column, back to its value; a damaged cell reads as `fallback`, never throws. */
export function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
