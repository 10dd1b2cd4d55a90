// The local back end: memories in this gateway's shared store (SQLite or PostgreSQL), found by
// full-text and vector search together.
import { randomUUID } from 'node:crypto';
import type { OptionalVectors, PluginStore, Transaction } from '@mcp-gateway/core';
import type { Brain, BrainCall } from '../brain.js';
import type { RaiseError } from '../declaration.js';
import {
  newMemory,
  type ForgetResult,
  type ImportSummary,
  type ListQuery,
  type ListResult,
  type Memory,
  type RecallQuery,
  type RecallResult,
  type RememberInput,
  type RememberResult,
} from '../model.js';
import { MemoryIndex } from './memory-index.js';
import { decodeCursor, encodeCursor, isoTime, matching, memoryFromRow, rowFromMemory } from './memory-rows.js';
import type { BrainTables } from './schema.js';

const EXPORT_PAGE = 500;

export interface LocalBrainDeps {
  readonly store: PluginStore<BrainTables>;
  readonly index: MemoryIndex;
  readonly vectors: OptionalVectors;
  readonly error: RaiseError;
  readonly weights: { readonly lexical: number; readonly vector: number };
}

export class LocalBrain implements Brain {
  readonly kind = 'local' as const;
  readonly #deps: LocalBrainDeps;

  constructor(deps: LocalBrainDeps) {
    this.#deps = deps;
  }

  async remember(input: RememberInput, call: BrainCall): Promise<RememberResult> {
    const { index, vectors } = this.#deps;
    const memory = newMemory({ ...input, id: input.id ?? randomUUID() }, call.agent, Date.now());
    // The vector first, outside the transaction: a slow provider holds no write lock.
    const outcome = await vectors.embed([MemoryIndex.embeddingText(memory)], 'document', call.signal);
    const stored = await this.#insertOnce(memory);
    // A duplicate is indexed again too: the first call may have stored the row and died before its index write.
    await index.put([stored.memory], outcome.vectors);
    if (stored.duplicate) return { memory: stored.memory, duplicate: true, queued: false };
    if (outcome.vectors) void index.fillVectors();
    return { memory, duplicate: false, queued: false };
  }

  /** Inserts the memory unless its id is taken: by the same memory (a retry: duplicate) or another (BRAIN_ID_CONFLICT). */
  async #insertOnce(memory: Memory): Promise<{ memory: Memory; duplicate: boolean }> {
    const { store, error } = this.#deps;
    const attempt = () =>
      store.transaction(async (trx) => {
        const existing = await this.#existing(trx, memory);
        if (existing) return { memory: existing, duplicate: true };
        if (memory.supersedes_id !== null) {
          const old = await trx.selectFrom('brain_memories').select(['id', 'forgotten_at']).where('id', '=', memory.supersedes_id).forUpdate().executeTakeFirst();
          if (!old || old.forgotten_at !== null) {
            throw error('BRAIN_MEMORY_NOT_FOUND', `supersedes: no memory has the id ${memory.supersedes_id}${old ? ' (it was forgotten)' : ''}. Find ids with brain_recall or brain_list.`, { id: memory.supersedes_id });
          }
          await trx.updateTable('brain_memories').set({ superseded_by: memory.id, updated_at: memory.created_at }).where('id', '=', memory.supersedes_id).execute();
        }
        await trx.insertInto('brain_memories').values(rowFromMemory(memory)).execute();
        if (memory.tags.length > 0) await trx.insertInto('brain_memory_tags').values(memory.tags.map((tag) => ({ memory_id: memory.id, tag }))).execute();
        return { memory, duplicate: false };
      });
    try {
      return await attempt();
    } catch (err) {
      // Two calls with one id at once (a retry racing its first try) on PostgreSQL: the loser reads the winner's row.
      if (!isUniqueViolation(err)) throw err;
      return attempt();
    }
  }

  /** The stored memory of this id when it is this memory again, BRAIN_ID_CONFLICT when it is another. */
  async #existing(trx: Transaction<BrainTables>, memory: Memory): Promise<Memory | undefined> {
    const row = await trx.selectFrom('brain_memories').selectAll().where('id', '=', memory.id).executeTakeFirst();
    if (!row) return undefined;
    if (row.content === memory.content && row.type === memory.type && row.forgotten_at === null) return memoryFromRow(row);
    throw this.#deps.error('BRAIN_ID_CONFLICT', `A memory with the id ${memory.id} exists ${row.forgotten_at === null ? 'with other content' : 'and was forgotten'}: leave id out, or choose a fresh UUID.`, { id: memory.id });
  }

  async recall(query: RecallQuery, call: BrainCall): Promise<RecallResult> {
    const { store, index, vectors, weights } = this.#deps;
    const wantVector = query.mode !== 'lexical';
    // `auto` without the embeddings plugin is plain lexical search, nothing to apologise for.
    const expectVector = query.mode === 'hybrid' || query.mode === 'vector' || (query.mode === 'auto' && vectors.space !== null);
    let vector: number[] | null = null;
    let degraded: string | undefined;
    if (wantVector && expectVector) {
      const made = await index.queryVector(query.query, call.signal);
      vector = made.vector;
      if (!vector) degraded = `${made.reason}: ranked by words only`;
    }
    const mode = !vector ? 'lexical' : query.mode === 'vector' ? 'vector' : 'hybrid';
    if (mode === 'hybrid' && (await index.missingVectors())) degraded ??= 'some memories have no vector yet and rank by their words only (vectors are being made)';
    const hits = await index.search({
      ...(mode !== 'vector' ? { text: query.query } : {}),
      ...(vector ? { vector } : {}),
      filters: {
        ...(query.org !== undefined ? { org: query.org } : {}),
        ...(query.project !== undefined ? { project: query.project } : {}),
        ...(query.agent_id !== undefined ? { agent_id: query.agent_id } : {}),
      },
      types: query.types,
      // The index cannot tell expired, superseded or low-confidence memories: fetch more than asked, then filter.
      limit: Math.min(1000, Math.max(100, query.top_k * 10)),
      weights,
    });
    if (hits.length === 0) return { memories: [], mode, ...(degraded ? { degraded } : {}) };
    const now = isoTime(Date.now());
    const rows = await store.db
      .selectFrom('brain_memories')
      .selectAll()
      .where('id', 'in', hits.map((h) => h.id))
      .where((eb) => matching(eb, query, now))
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const memories = hits.flatMap((hit) => {
      const row = byId.get(hit.id);
      return row ? [{ ...memoryFromRow(row), score: hit.score }] : [];
    });
    return { memories: memories.slice(0, query.top_k), mode, ...(degraded ? { degraded } : {}) };
  }

  async forget(id: string, reason: string | undefined, _call: BrainCall): Promise<ForgetResult> {
    const { store, index, error } = this.#deps;
    const now = isoTime(Date.now());
    const result = await store.transaction(async (trx) => {
      const row = await trx.selectFrom('brain_memories').select(['id', 'forgotten_at']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!row) throw error('BRAIN_MEMORY_NOT_FOUND', `No memory has the id ${id}. Find ids with brain_recall or brain_list.`, { id });
      if (row.forgotten_at !== null) return { id, forgotten: false, forgotten_at: row.forgotten_at };
      await this.#tombstone(trx, id, now, reason ?? null);
      return { id, forgotten: true, forgotten_at: now };
    });
    if (result.forgotten) await index.remove([id]);
    return result;
  }

  /** Erases a memory's content and tags, keeping who, what kind, when and why it was forgotten. */
  async #tombstone(trx: Transaction<BrainTables>, id: string, when: string, reason: string | null): Promise<void> {
    await trx.updateTable('brain_memories').set({ content: '', tags: '[]', forgotten_at: when, forget_reason: reason, updated_at: when, vector_space: null }).where('id', '=', id).execute();
    await trx.deleteFrom('brain_memory_tags').where('memory_id', '=', id).execute();
  }

  async list(query: ListQuery, _call: BrainCall): Promise<ListResult> {
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !cursor) throw this.#deps.error('INVALID_ARGUMENTS', 'cursor is not one brain_list gave: pass next_cursor as it came, or leave cursor out for the first page.');
    const now = isoTime(Date.now());
    let select = this.#deps.store.db
      .selectFrom('brain_memories')
      .selectAll()
      .where((eb) => matching(eb, query, now, query.include_forgotten));
    const oldest = query.order === 'oldest';
    const after = oldest ? '>' : '<';
    if (cursor) {
      select = select.where((eb) => eb.or([eb('created_at', after, cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', after, cursor.id)])]));
    }
    const direction = oldest ? 'asc' : 'desc';
    const rows = await select.orderBy('created_at', direction).orderBy('id', direction).limit(query.limit + 1).execute();
    const memories = rows.slice(0, query.limit).map(memoryFromRow);
    return rows.length > query.limit ? { memories, next_cursor: encodeCursor(memories.at(-1)!) } : { memories };
  }

  async import(given: readonly Memory[], _call: BrainCall): Promise<ImportSummary> {
    const { store, index } = this.#deps;
    // Times as this brain keeps them (UTC, milliseconds), whatever offset the file wrote: they are compared as text.
    const memories = given.map(utcTimes);
    const fresh: Memory[] = [];
    let skipped = 0;
    let forgotten = 0;
    await store.transaction(async (trx) => {
      for (const memory of memories) {
        const row = await trx.selectFrom('brain_memories').select(['forgotten_at']).where('id', '=', memory.id).forUpdate().executeTakeFirst();
        if (row) {
          // A tombstone for a memory still live here: the forget travels too.
          if (memory.forgotten_at !== null && row.forgotten_at === null) {
            await this.#tombstone(trx, memory.id, memory.forgotten_at, memory.forget_reason);
            forgotten++;
          } else {
            skipped++;
          }
          continue;
        }
        const stored = memory.forgotten_at === null ? memory : { ...memory, content: '', tags: [] };
        await trx.insertInto('brain_memories').values(rowFromMemory(stored)).execute();
        if (stored.tags.length > 0) await trx.insertInto('brain_memory_tags').values(stored.tags.map((tag) => ({ memory_id: stored.id, tag }))).execute();
        if (stored.forgotten_at === null) fresh.push(stored);
      }
    });
    if (forgotten > 0) await index.remove(memories.filter((m) => m.forgotten_at !== null).map((m) => m.id));
    await index.put(fresh, null);
    if (fresh.length > 0) void index.fillVectors();
    return { imported: memories.length - skipped - forgotten, skipped, forgotten };
  }

  async *export(_call: BrainCall): AsyncIterable<Memory> {
    for (let after: { created_at: string; id: string } | undefined; ; ) {
      let select = this.#deps.store.db.selectFrom('brain_memories').selectAll();
      if (after) {
        const { created_at, id } = after;
        select = select.where((eb) => eb.or([eb('created_at', '>', created_at), eb.and([eb('created_at', '=', created_at), eb('id', '>', id)])]));
      }
      const rows = await select.orderBy('created_at').orderBy('id').limit(EXPORT_PAGE).execute();
      for (const row of rows) yield memoryFromRow(row);
      if (rows.length < EXPORT_PAGE) return;
      after = rows.at(-1)!;
    }
  }
}

/** A unique constraint failed: on SQLite and PostgreSQL alike. */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

const utc = (time: string | null) => (time === null ? null : new Date(time).toISOString());

function utcTimes(memory: Memory): Memory {
  return {
    ...memory,
    expires_at: utc(memory.expires_at),
    created_at: utc(memory.created_at)!,
    updated_at: utc(memory.updated_at)!,
    forgotten_at: utc(memory.forgotten_at),
  };
}
