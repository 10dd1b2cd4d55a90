// Memories as rows: the conversion both ways, the filters recall and list share, and list's cursor.
import type { Expression, ExpressionBuilder, Insertable, Selectable, SqlBool } from '@mcp-gateway/core';
import type { Memory, MemoryFilter, MemoryType } from '../model.js';
import type { BrainTables } from './schema.js';

export type MemoryRow = Selectable<BrainTables['brain_memories']>;
export type NewMemoryRow = Insertable<BrainTables['brain_memories']>;

export function memoryFromRow(row: MemoryRow): Memory {
  return {
    id: row.id,
    agent_id: row.agent_id,
    type: row.type as MemoryType,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    org: row.org,
    project: row.project,
    confidence: row.confidence,
    supersedes_id: row.supersedes_id,
    superseded_by: row.superseded_by,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    forgotten_at: row.forgotten_at,
    forget_reason: row.forget_reason,
  };
}

/** A memory as it is stored, `vector_space` left for the index to set. */
export function rowFromMemory(memory: Memory): NewMemoryRow {
  return { ...memory, tags: JSON.stringify(memory.tags), vector_space: null };
}

/** Times as stored: ISO 8601 UTC with milliseconds, whose text order is their order. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The filter as one SQL condition. `now` decides expiry; tombstones are left out unless
 * `withForgotten` (only list and export show them).
 */
export function matching(
  eb: ExpressionBuilder<BrainTables, 'brain_memories'>,
  filter: MemoryFilter,
  now: string,
  withForgotten = false,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (!withForgotten) conditions.push(eb('forgotten_at', 'is', null));
  if (filter.org !== undefined) conditions.push(eb('org', '=', filter.org));
  if (filter.project !== undefined) conditions.push(eb('project', '=', filter.project));
  if (filter.types?.length) conditions.push(eb('type', 'in', [...filter.types]));
  if (filter.agent_id !== undefined) conditions.push(eb('agent_id', '=', filter.agent_id));
  if (filter.min_confidence !== undefined) conditions.push(eb('confidence', '>=', filter.min_confidence));
  if (!filter.include_superseded) conditions.push(eb('superseded_by', 'is', null));
  if (!filter.include_expired) conditions.push(eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  for (const tag of filter.tags ?? []) {
    conditions.push(
      eb.exists(eb.selectFrom('brain_memory_tags').select('brain_memory_tags.memory_id').whereRef('brain_memory_tags.memory_id', '=', 'brain_memories.id').where('brain_memory_tags.tag', '=', tag)),
    );
  }
  return eb.and(conditions);
}

/** Where a page of brain_list ended: the last memory's time and id, opaque to the caller. */
export interface Cursor {
  readonly created_at: string;
  readonly id: string;
}

export function encodeCursor(memory: Pick<Memory, 'created_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([memory.created_at, memory.id])).toString('base64url');
}

/** The cursor, or undefined when the text is not one this gateway wrote. */
export function decodeCursor(text: string): Cursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return { created_at: value[0] as string, id: value[1] as string };
    }
  } catch {
    // Not base64url JSON: not a cursor.
  }
  return undefined;
}
