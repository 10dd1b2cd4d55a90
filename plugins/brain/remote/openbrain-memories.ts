// OpenBrain's memories as this gateway's `Memory`, and the filters OpenBrain does not apply
// (tags, confidence on list, superseded, expired), applied here to what it answered.
import { MEMORY_TYPES, type Memory, type MemoryFilter, type MemoryType } from '../model.js';
import { ShapeProblem } from './gateway-answers.js';

/** What brain_remember assumes when no confidence is given: used when OpenBrain gives neither confidence nor score. */
export const DEFAULT_CONFIDENCE = 0.8;

export type OpenBrainMemory = Memory & { readonly score?: number };

/**
 * One memory of an OpenBrain answer: missing fields null (or empty), `source` as the tag
 * `source:<x>`, `score` kept as the score and used as the confidence only when OpenBrain gives
 * no confidence. Times are normalised to ISO 8601; one OpenBrain leaves out is `fallbackTime`
 * (the answer's time). Returns undefined for a type this gateway does not know (the caller
 * leaves it out and logs it); throws ShapeProblem when it is not a memory at all.
 */
export function memoryFromOpenBrain(raw: unknown, where: string, fallbackTime: string): OpenBrainMemory | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ShapeProblem(`${where} is not an object`);
  const m = raw as Record<string, unknown>;
  const id = typeof m.id === 'number' && Number.isFinite(m.id) ? String(m.id) : m.id;
  if (typeof id !== 'string' || id === '') throw new ShapeProblem(`${where}.id is not a string`);
  if (typeof m.content !== 'string') throw new ShapeProblem(`${where}.content is not a string`);
  if (!(MEMORY_TYPES as readonly unknown[]).includes(m.type)) return undefined;
  const tags = Array.isArray(m.tags) ? m.tags.filter((t): t is string => typeof t === 'string') : [];
  if (typeof m.source === 'string' && m.source !== '' && !tags.includes(`source:${m.source}`)) tags.push(`source:${m.source}`);
  const score = unit(m.score);
  const created = isoOr(m.created_at, isoOr(m.updated_at, fallbackTime));
  const memory: Memory = {
    id,
    agent_id: text(m.agent_id) ?? '',
    type: m.type as MemoryType,
    content: m.content,
    tags,
    org: text(m.org) ?? null,
    project: text(m.project) ?? null,
    confidence: unit(m.confidence) ?? score ?? DEFAULT_CONFIDENCE,
    supersedes_id: text(m.supersedes_id) ?? text(m.supersedes) ?? null,
    superseded_by: text(m.superseded_by) ?? null,
    expires_at: m.expires_at == null ? null : isoOr(m.expires_at, null),
    created_at: created,
    updated_at: isoOr(m.updated_at, created),
    forgotten_at: null,
    forget_reason: null,
  };
  return score === undefined ? memory : { ...memory, score };
}

/**
 * Keeps the memories that pass `filter`, in their order. Superseded is known only within the
 * answer: a memory is superseded when another memory of the same answer names it in supersedes_id.
 */
export function filtered<T extends Memory>(memories: readonly T[], filter: MemoryFilter, now: number): T[] {
  const supersededBy = new Map<string, string>();
  for (const m of memories) if (m.supersedes_id !== null) supersededBy.set(m.supersedes_id, m.id);
  const withLinks = memories.map((m) => (m.superseded_by === null && supersededBy.has(m.id) ? { ...m, superseded_by: supersededBy.get(m.id)! } : m));
  return withLinks.filter(
    (m) =>
      (filter.org === undefined || m.org === filter.org) &&
      (filter.project === undefined || m.project === filter.project) &&
      (filter.types === undefined || filter.types.length === 0 || filter.types.includes(m.type)) &&
      (filter.agent_id === undefined || m.agent_id === filter.agent_id) &&
      (filter.min_confidence === undefined || m.confidence >= filter.min_confidence) &&
      (filter.tags === undefined || filter.tags.every((tag) => m.tags.includes(tag))) &&
      (filter.include_superseded === true || m.superseded_by === null) &&
      (filter.include_expired === true || m.expires_at === null || Date.parse(m.expires_at) > now),
  );
}

/** Newest first, as brain_list answers (ties by id, descending). */
export function newestFirst<T extends Memory>(memories: T[]): T[] {
  return memories.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A number in [0, 1], clamped (a cosine similarity may be slightly out of range), or undefined. */
function unit(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined;
}

/** Laravel's `2026-03-01 00:00:00`: a time without a zone, in UTC as Laravel stores it. */
const ZONELESS = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/** ISO 8601 in UTC, or `fallback` when unreadable. Numbers are Unix seconds. */
function isoOr<F extends string | null>(value: unknown, fallback: F): string | F {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string') ms = Date.parse(ZONELESS.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  else return fallback;
  // 8.64e15 ms: the largest time a Date holds (toISOString throws beyond).
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : fallback;
}
