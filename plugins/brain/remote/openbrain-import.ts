// Importing into OpenBrain, which chooses its own ids and keeps no tombstones: each live
// memory is remembered again, oldest first, under a new id; a later memory's supersedes is
// remapped to the new id of the one it replaces; tombstones and expired memories are skipped.
import type { Logger } from '@mcp-gateway/core';
import type { BrainCall } from '../brain.js';
import type { ImportSummary, Memory, RememberInput, RememberResult } from '../model.js';

/** Old id → new id of memories imported by this gateway, kept for supersedes across import calls (a CLI sends batches). */
const KEPT_IDS = 100_000;

type Remember = (input: RememberInput, agent: string, idempotencyKey: string, call: BrainCall) => Promise<RememberResult>;

/**
 * The import function. The Idempotency-Key of each memory is its exported id: importing the
 * same file again (within OpenBrain's idempotency window) is answered as duplicates, counted
 * skipped. The writer kept is the memory's own agent_id, not remote.agentId: an import moves
 * what others wrote.
 */
export function memoryImport(remember: Remember, log: Logger): (memories: readonly Memory[], call: BrainCall) => Promise<ImportSummary> {
  const newIds = new Map<string, string>();
  return async (memories, call) => {
    const summary = { imported: 0, skipped: 0, forgotten: 0 };
    const now = Date.now();
    const ordered = [...memories].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
    let unmapped = 0;
    for (const memory of ordered) {
      const expiresIn = memory.expires_at === null ? undefined : Math.ceil((Date.parse(memory.expires_at) - now) / 1000);
      // A tombstone has nothing to remember, and OpenBrain cannot store a memory already expired.
      if (memory.forgotten_at !== null || (expiresIn !== undefined && !(expiresIn > 0))) {
        summary.skipped++;
        continue;
      }
      const supersedes = memory.supersedes_id === null ? undefined : newIds.get(memory.supersedes_id);
      if (memory.supersedes_id !== null && supersedes === undefined) unmapped++;
      const input: RememberInput = {
        content: memory.content,
        type: memory.type,
        tags: memory.tags,
        confidence: memory.confidence,
        ...(memory.org === null ? {} : { org: memory.org }),
        ...(memory.project === null ? {} : { project: memory.project }),
        ...(supersedes === undefined ? {} : { supersedes }),
        ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
      };
      const result = await remember(input, memory.agent_id || call.agent, memory.id, call);
      keep(newIds, memory.id, result.memory.id);
      if (result.duplicate) summary.skipped++;
      else summary.imported++;
    }
    if (unmapped > 0) {
      log.warn({ unmapped }, 'brain import into OpenBrain: memories that supersede one not imported by this gateway were stored without supersedes (OpenBrain gives imported memories new ids)');
    }
    return summary;
  };
}

/** Records old → new, forgetting the oldest beyond KEPT_IDS (a Map iterates in insertion order). */
function keep(ids: Map<string, string>, oldId: string, newId: string): void {
  ids.delete(oldId);
  ids.set(oldId, newId);
  if (ids.size > KEPT_IDS) ids.delete(ids.keys().next().value!);
}
