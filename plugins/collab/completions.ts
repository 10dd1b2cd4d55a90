// Values for completion/complete of resource variables and prompt arguments.
import type { CollabStore } from './context.js';

/** Agent names starting with `prefix` (filtered here, not by LIKE, whose escapes differ by engine). */
export async function agentNames(store: CollabStore, prefix: string): Promise<string[]> {
  const rows = await store.db.selectFrom('collab_agents').select('name').orderBy('name').limit(1000).execute();
  return rows.map((r) => r.name).filter((name) => name.startsWith(prefix));
}
