// rag_query: the best chunks of a collection for a question, by words and (when the
// embeddings plugin gives vectors) by meaning, and a block of them ready to paste into a prompt.
import type { OptionalVectors, SearchHit, SearchMode } from '@mcp-gateway/core';
import type { RaiseError } from '../declaration.js';
import type { SearchModeArg } from '../search-mode.js';
import { failureReason, LEXICAL_SEARCH } from '../vectors.js';
import type { RagIndex, SyncOutcome } from './rag-index.js';
import type { ChunkRow, CollectionRow, RagStore } from './rag-store.js';

export interface QueryArgs {
  readonly question: string;
  readonly collection: string;
  readonly top_k: number;
  readonly source?: string;
  readonly mode?: SearchModeArg;
}

export interface QueryResult {
  query: string;
  collection: string;
  mode: SearchMode;
  degraded?: string;
  results: Array<{ content: string; source: string; section: string; chunk_index: number; score: number }>;
  context: string;
}

export interface QueryDeps {
  readonly rows: RagStore;
  readonly index: RagIndex;
  readonly vectors: OptionalVectors;
  readonly batchSize: number;
  readonly raise: RaiseError;
}

export async function query(deps: QueryDeps, args: QueryArgs, signal: AbortSignal): Promise<QueryResult> {
  const { rows, index, vectors } = deps;
  const collection = await rows.collectionOrThrow(args.collection, deps.raise);
  const synced = await syncForQuery(deps, collection, signal);
  let vector: number[] | undefined;
  let degraded: string | undefined;
  const wanted = args.mode ?? 'auto';
  if (wanted === 'lexical') {
    // Words only, as asked: no provider call, nothing degraded.
  } else if (index.current.dimensions === null) degraded = `${vectors.unavailable() ?? 'no vector space'}: ${LEXICAL_SEARCH}`;
  else if (synced.reason !== undefined) degraded = `${synced.reason}: ${LEXICAL_SEARCH}`;
  else {
    try {
      const made = await vectors.embed([args.question], 'query', signal);
      if (made.vectors) vector = made.vectors[0];
      else degraded = `${made.reason}: ${LEXICAL_SEARCH}`;
    } catch (err) {
      // A provider answering vectors of another length cannot rank; words still can.
      if (signal.aborted) throw err;
      degraded = `${failureReason(err)}: ${LEXICAL_SEARCH}`;
    }
  }
  if (vector) {
    const missing = await rows.countWithoutVectors(args.collection);
    if (missing > 0) degraded = `${missing} chunk(s) of the collection have no vector yet and rank by their words only; later ingests and queries fill them in`;
  }
  const search = await index.open();
  const filters = { collection: args.collection, ...(args.source !== undefined ? { source: normaliseSource(args.source) } : {}) };
  const byVectorOnly = wanted === 'vector' && vector !== undefined;
  const hits = await search.query({ ...(byVectorOnly ? {} : { text: args.question }), ...(vector ? { vector } : {}), filters, limit: args.top_k });
  const chunks = await rows.chunksById(hits.map((h) => h.id));
  const stale = hits.filter((h) => !chunks.has(h.id)).map((h) => h.id);
  if (stale.length) await index.remove(collection, stale);
  const results = hits.flatMap((hit: SearchHit) => {
    const chunk = chunks.get(hit.id);
    return chunk ? [toResult(chunk, hit.score)] : [];
  });
  return {
    query: args.question,
    collection: args.collection,
    mode: byVectorOnly ? 'vector' : vector ? 'hybrid' : 'lexical',
    ...(degraded !== undefined ? { degraded } : {}),
    results,
    context: contextBlock(results),
  };
}

/**
 * Chunks missing from the index are indexed by their words (cheap: no provider), and one
 * batch of chunks still without vectors is given them, so a provider that came back fills
 * the collection in over a few queries without one query waiting for all of it. A provider
 * that fails by throwing (vectors of the wrong length) does not fail the query: the chunks
 * missing from the index still go in by their words, and the reason makes the query lexical.
 */
async function syncForQuery({ rows, index, batchSize }: QueryDeps, collection: CollectionRow, signal: AbortSignal): Promise<SyncOutcome> {
  try {
    return await index.sync(collection, { batchSize, maxEmbedded: batchSize, signal });
  } catch (err) {
    if (signal.aborted || !String((err as { code?: unknown } | null)?.code ?? '').startsWith('EMBEDDINGS_')) throw err;
    const reason = failureReason(err);
    // The row again: the failed sync may have moved the collection to the current index.
    await index.sync((await rows.collection(collection.name)) ?? collection, { batchSize, maxEmbedded: 0, signal, vectorsDown: reason });
    return { embedded: 0, reason };
  }
}

function toResult(chunk: ChunkRow, score: number) {
  return { content: chunk.content, source: chunk.source, section: chunk.section, chunk_index: chunk.chunk_index, score: Math.round(score * 10_000) / 10_000 };
}

/**
 * The chunks as one block for a prompt, as Core MCP's rag_query gives it: each chunk under a
 * `Source: path § section` line, inside `<retrieved_context>`. A document's own text cannot
 * close the block early: a closing tag inside it is broken up.
 */
export function contextBlock(results: ReadonlyArray<{ content: string; source: string; section: string }>): string {
  if (results.length === 0) return '<retrieved_context>\nNo matching documents.\n</retrieved_context>';
  const parts = results.map((r) => `Source: ${r.source}${r.section ? ` § ${r.section}` : ''}\n${r.content.replace(/<\/?retrieved_context>/gi, (tag) => tag.replace('<', '< '))}`);
  return `<retrieved_context>\n${parts.join('\n\n---\n\n')}\n</retrieved_context>`;
}

/** A source path as stored: relative to the workspace, `/` separators, no leading `./`. */
export function normaliseSource(source: string): string {
  // By hand: `/\/+$/` backtracks quadratically over a long run of `/` that does not end the string.
  const path = source.replaceAll('\\', '/');
  let start = 0;
  while (path.startsWith('./', start)) start += 2;
  let end = path.length;
  while (end > start && path[end - 1] === '/') end--;
  return path.slice(start, end);
}
