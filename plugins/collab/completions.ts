// Values for completion/complete of resource variables and prompt arguments.
import type { CollabStore } from './context.js';
import { agentNames as firstAgentNames } from './store/agent-store.js';

/** Agent names starting with `prefix` (filtered here, not by LIKE, whose escapes differ by engine). */
export async function agentNames(store: CollabStore, prefix: string): Promise<string[]> {
  const names = await firstAgentNames(store.db, 1000);
  return names.filter((name) => name.startsWith(prefix));
}
