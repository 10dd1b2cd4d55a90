// Recall and list over the copies this gateway kept, for when the remote is down: words only,
// the same filters, newest first for list. Small by construction (remote.keepWritten).
import type { Memory, MemoryFilter, RecalledMemory } from '../model.js';

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

export function matchesFilter(memory: Memory, filter: MemoryFilter, now: string): boolean {
  if (memory.forgotten_at !== null) return false;
  if (filter.org !== undefined && memory.org !== filter.org) return false;
  if (filter.project !== undefined && memory.project !== filter.project) return false;
  if (filter.types?.length && !filter.types.includes(memory.type)) return false;
  if (filter.agent_id !== undefined && memory.agent_id !== filter.agent_id) return false;
  if (filter.min_confidence !== undefined && memory.confidence < filter.min_confidence) return false;
  if (filter.tags?.some((tag) => !memory.tags.includes(tag))) return false;
  if (!filter.include_superseded && memory.superseded_by !== null) return false;
  if (!filter.include_expired && memory.expires_at !== null && memory.expires_at <= now) return false;
  return true;
}

/** Memories holding at least one word of the query, by the share of its words they hold, best first. */
export function searchWritten(memories: Iterable<Memory>, query: string, filter: MemoryFilter, topK: number): RecalledMemory[] {
  const wanted = words(query);
  if (wanted.size === 0) return [];
  const now = new Date().toISOString();
  const scored: RecalledMemory[] = [];
  for (const memory of memories) {
    if (!matchesFilter(memory, filter, now)) continue;
    const have = words(`${memory.content} ${memory.tags.join(' ')}`);
    let hits = 0;
    for (const word of wanted) if (have.has(word)) hits++;
    if (hits > 0) scored.push({ ...memory, score: hits / wanted.size });
  }
  // Stable: among equal scores, the newer (earlier in the list) first.
  return scored.sort((a, b) => b.score - a.score).slice(0, topK);
}
