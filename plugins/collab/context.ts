// What every part of collab is handed: the plugin context read from collab's declaration,
// and the shared store typed with collab's tables.
import type { PluginStore } from '@mcp-gateway/core';
import type { CollabTables } from './store/schema.js';

export type { CollabContext } from './declaration.js';
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
