// The brain tools' results as another gateway's REST bridge sends them, checked field by field:
// a remote that answers something else (another service at that address, another version)
// is reported as such instead of handing the caller a half-formed memory. Fields a newer
// remote adds are dropped, so that the answer still fits this gateway's output schemas.
import type { BrainErrorCode } from '../errors.js';
import { MEMORY_TYPES, type ForgetResult, type ImportSummary, type ListResult, type Memory, type RecalledMemory, type RecallResult, type RememberResult } from '../model.js';

/** What is wrong with an answer, in words for BRAIN_REMOTE_FAILED's message. */
export class ShapeProblem extends Error {}

type Check = (value: unknown) => boolean;
type Fields<T> = { readonly [K in keyof T]-?: Check };

const isString: Check = (v) => typeof v === 'string';
const isNullableString: Check = (v) => v === null || typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const isCount: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const isUnit: Check = (v) => typeof v === 'number' && v >= 0 && v <= 1;
const isType: Check = (v) => (MEMORY_TYPES as readonly unknown[]).includes(v);
const isTags: Check = (v) => Array.isArray(v) && v.every((t) => typeof t === 'string');

const MEMORY_FIELDS: Fields<Memory> = {
  id: isString,
  agent_id: isString,
  type: isType,
  content: isString,
  tags: isTags,
  org: isNullableString,
  project: isNullableString,
  confidence: isUnit,
  supersedes_id: isNullableString,
  superseded_by: isNullableString,
  expires_at: isNullableString,
  created_at: isString,
  updated_at: isString,
  forgotten_at: isNullableString,
  forget_reason: isNullableString,
};
const RECALLED_FIELDS: Fields<RecalledMemory> = { ...MEMORY_FIELDS, score: isUnit };

/** `value`'s own copy with only `fields`, each checked; throws ShapeProblem naming the first wrong one. */
function picked<T>(value: unknown, fields: Fields<T>, where: string): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ShapeProblem(`${where} is ${describe(value)}, not an object`);
  const copy: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(fields) as [string, Check][]) {
    const field = (value as Record<string, unknown>)[key];
    if (!check(field)) throw new ShapeProblem(`${where}.${key} is ${describe(field)}`);
    copy[key] = field;
  }
  return copy as T;
}

function optionalString(value: unknown, key: string, where: string): string | undefined {
  const field = (value as Record<string, unknown>)[key];
  if (field === undefined) return undefined;
  if (typeof field !== 'string') throw new ShapeProblem(`${where}.${key} is ${describe(field)}`);
  return field;
}

function memories<T>(value: unknown, fields: Fields<T>): T[] {
  const list = (value as { memories?: unknown }).memories;
  if (!Array.isArray(list)) throw new ShapeProblem(`data.memories is ${describe(list)}, not a list`);
  return list.map((memory, i) => picked(memory, fields, `data.memories[${i}]`));
}

export function rememberResult(data: unknown): RememberResult {
  const top = picked<{ memory: unknown; duplicate: boolean; queued: boolean }>(data, { memory: () => true, duplicate: isBoolean, queued: isBoolean }, 'data');
  return { memory: picked(top.memory, MEMORY_FIELDS, 'data.memory'), duplicate: top.duplicate, queued: top.queued };
}

export function recallResult(data: unknown): RecallResult {
  const { mode } = picked<{ mode: RecallResult['mode'] }>(data, { mode: (v) => v === 'hybrid' || v === 'lexical' || v === 'vector' }, 'data');
  const partial = optionalString(data, 'partial', 'data');
  const degraded = optionalString(data, 'degraded', 'data');
  return { memories: memories(data, RECALLED_FIELDS), mode, ...(partial === undefined ? {} : { partial }), ...(degraded === undefined ? {} : { degraded }) };
}

export function listResult(data: unknown): ListResult {
  picked(data, {}, 'data');
  const next = optionalString(data, 'next_cursor', 'data');
  const partial = optionalString(data, 'partial', 'data');
  return { memories: memories(data, MEMORY_FIELDS), ...(next === undefined ? {} : { next_cursor: next }), ...(partial === undefined ? {} : { partial }) };
}

export function forgetResult(data: unknown): ForgetResult {
  return picked<ForgetResult>(data, { id: isString, forgotten: isBoolean, forgotten_at: isString }, 'data');
}

export function importSummary(data: unknown): ImportSummary {
  return picked<ImportSummary>(data, { imported: isCount, skipped: isCount, forgotten: isCount }, 'data');
}

/**
 * The codes a remote gateway's 4xx may carry that mean the same here, raised again as they
 * came: the caller's own mistakes (an unknown id, content too long, arguments this gateway let
 * through but the remote refused). Anything else is the remote's business: BRAIN_REMOTE_FAILED.
 */
export const PASSED_CODES: ReadonlySet<string> = new Set<BrainErrorCode | 'INVALID_ARGUMENTS' | 'INVALID_PARAMS' | 'MESSAGE_TOO_LARGE'>([
  'BRAIN_CONTENT_TOO_LARGE',
  'BRAIN_MEMORY_NOT_FOUND',
  'BRAIN_ID_CONFLICT',
  'INVALID_ARGUMENTS',
  'INVALID_PARAMS',
  'MESSAGE_TOO_LARGE',
]);

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
