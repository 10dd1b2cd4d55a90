// One rag_ingest: the files of a path into a collection, file by file. Each file's chunks
// replace its old ones in one transaction, so a cancelled or failed ingest leaves every
// file either as it was or fully replaced. Vectors are made before anything of a file is
// written: a provider answering vectors of the wrong length fails the file with nothing stored.
import { randomUUID } from 'node:crypto';
import type { CallContext, OptionalVectors, Workspace } from '@mcp-gateway/core';
import type { KnowledgeConfig } from '../config.js';
import type { RaiseError } from '../declaration.js';
import { STORED_WITHOUT_VECTORS } from '../vectors.js';
import { chunkText } from './chunker.js';
import { RagIndex } from './rag-index.js';
import { isMissingCollection, type NewChunk, type RagStore } from './rag-store.js';
import { findFiles, readSource, resolveTarget, toRelative } from './source-files.js';

export interface IngestArgs {
  readonly path: string;
  readonly collection: string;
  readonly recreate: boolean;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

export interface IngestDeps {
  readonly rows: RagStore;
  readonly index: RagIndex;
  readonly vectors: OptionalVectors;
  readonly workspace: Workspace;
  readonly config: KnowledgeConfig['rag'];
  readonly raise: RaiseError;
}

/** Skipped files listed in a result at most; `skipped_count` counts them all. */
export const MAX_SKIPPED_LISTED = 100;

export interface IngestResult {
  collection: string;
  files: { seen: number; ingested: number; unchanged: number; removed: number; skipped: Array<{ path: string; reason: string }>; skipped_count: number };
  chunks: { added: number; removed: number };
  vectors: { stored: boolean; reason?: string; filled: number };
  truncated?: string;
  ms: number;
}

export async function ingest(deps: IngestDeps, args: IngestArgs, call: Pick<CallContext, 'signal' | 'progress' | 'log'>): Promise<IngestResult> {
  const started = performance.now();
  const { rows, index, config, raise } = deps;
  const target = await resolveTarget(deps.workspace, args.path, raise);
  if (args.recreate) {
    const old = await rows.collection(args.collection);
    if (old) await index.remove(old, (await rows.deleteCollection(args.collection)).ids);
  }
  let collection = await rows.ensureCollection(args.collection, index.current);
  // Chunks left without vectors, or in another index, are brought up to date first, so that
  // this ingest's chunks go where the collection now lives.
  if (collection.index_name !== index.current.name) {
    await index.sync(collection, { batchSize: config.batchSize, maxEmbedded: 0, signal: call.signal });
    collection = (await rows.collection(args.collection))!;
  }

  const found = target.isDir ? await findFiles(target.real, { include: args.include, exclude: args.exclude, maxFiles: config.maxFiles, refuseHardLinks: deps.workspace.refuseHardLinks, signal: call.signal }) : { files: [target.real], truncated: undefined };
  const known = new Map((await rows.sources(args.collection)).map((s) => [s.path, s.hash]));
  const result: IngestResult = {
    collection: args.collection,
    files: { seen: found.files.length, ingested: 0, unchanged: 0, removed: 0, skipped: [], skipped_count: 0 },
    chunks: { added: 0, removed: 0 },
    vectors: { stored: false, filled: 0 },
    ms: 0,
  };
  let truncated = found.truncated;
  let vectorsDown = index.current.dimensions === null ? deps.vectors.unavailable() ?? 'no vectors' : undefined;
  const kept = new Set<string>();
  const skip = (path: string, reason: string) => {
    result.files.skipped_count++;
    if (result.files.skipped.length < MAX_SKIPPED_LISTED) result.files.skipped.push({ path, reason });
  };
  let bytes = 0;
  for (const [at, real] of found.files.entries()) {
    if (call.signal.aborted) break;
    const path = toRelative(deps.workspace.root, real);
    const read = await readSource(deps.workspace, real, config.maxFileBytes, config.maxIngestBytes - bytes);
    if ('overBudget' in read) {
      truncated = `maxIngestBytes (${config.maxIngestBytes}) reached at "${path}"; it and the files after it were not read`;
      break;
    }
    if ('skipped' in read) {
      bytes += read.read;
      skip(path, read.skipped);
    } else {
      bytes += read.size;
      kept.add(path);
      if (known.get(path) === read.hash) result.files.unchanged++;
      else {
        const chunks = chunkText(path, read.text, config).map((c, chunkIndex): NewChunk => ({ id: randomUUID(), collection: args.collection, source: path, section: c.section, chunk_index: chunkIndex, content: c.content }));
        let vectors: number[][] | null = null;
        if (vectorsDown === undefined && chunks.length > 0) {
          const made = await embedAll(deps.vectors, chunks, config.batchSize, call.signal);
          if (made.vectors) vectors = made.vectors;
          else vectorsDown = made.reason;
        }
        // Indexed first, then the rows, then the old ids out of the index: a crash between two
        // steps leaves ids in the index that no row has, which queries skip and drop.
        const search = await index.open();
        await search.index(index.documents(chunks, vectors));
        const source = { collection: args.collection, path, hash: read.hash, size: read.size, mtime: read.mtime, chunks: chunks.length, ingested_at: new Date().toISOString() };
        let old: string[];
        try {
          old = await rows.replaceSource(source, chunks, { indexed: 1, embedded: vectors ? 1 : 0 });
        } catch (err) {
          // Nothing of the file was stored: its documents leave the index again.
          await index.remove(collection, chunks.map((c) => c.id));
          if (!isMissingCollection(err)) throw err;
          throw raise('RAG_COLLECTION_NOT_FOUND', `Collection "${args.collection}" was deleted while this ingest ran (rag_delete, or an ingest with recreate); "${path}" and the files after it were not stored. Ingest again to make it anew.`, {
            collection: args.collection,
            source: path,
          });
        }
        await index.remove(collection, old);
        result.files.ingested++;
        result.chunks.added += chunks.length;
        result.chunks.removed += old.length;
      }
    }
    if ((at + 1) % config.batchSize === 0 || at + 1 === found.files.length) {
      call.progress({ progress: at + 1, total: found.files.length, message: `${at + 1} of ${found.files.length} files` });
    }
  }
  call.signal.throwIfAborted();

  // Sources under the ingested folder that this walk no longer found (deleted, now ignored,
  // binary or too large) leave the collection; only after a walk that saw the whole folder.
  if (target.isDir && truncated === undefined) {
    const prefix = target.relative === '' ? '' : `${target.relative}/`;
    for (const path of known.keys()) {
      if (!path.startsWith(prefix) || kept.has(path)) continue;
      const ids = await rows.deleteSource(args.collection, path);
      if (ids === undefined) continue;
      await index.remove(collection, ids);
      result.files.removed++;
      result.chunks.removed += ids.length;
    }
  }
  await rows.touchCollection(args.collection);

  const synced = await index.sync(collection, { batchSize: config.batchSize, maxEmbedded: Infinity, signal: call.signal, ...(vectorsDown ? { vectorsDown } : {}) });
  result.vectors = { stored: vectorsDown === undefined && synced.reason === undefined, filled: synced.embedded };
  const reason = vectorsDown ?? synced.reason;
  if (reason !== undefined) result.vectors.reason = `${reason}: ${STORED_WITHOUT_VECTORS}`;
  if (truncated !== undefined) result.truncated = truncated;
  result.ms = Math.round(performance.now() - started);
  call.log.debug({ collection: args.collection, files: result.files.seen, added: result.chunks.added }, 'rag ingest done');
  return result;
}

/** Vectors for every chunk, `batchSize` texts per request; null with the reason at the first failure. */
async function embedAll(vectors: OptionalVectors, chunks: readonly NewChunk[], batchSize: number, signal: AbortSignal): Promise<{ vectors: number[][] } | { vectors: null; reason: string }> {
  const all: number[][] = [];
  for (let at = 0; at < chunks.length; at += batchSize) {
    const made = await vectors.embed(chunks.slice(at, at + batchSize).map(RagIndex.embeddingText), 'document', signal);
    if (!made.vectors) return made;
    all.push(...made.vectors);
  }
  return { vectors: all };
}
