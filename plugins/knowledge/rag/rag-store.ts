// Every SQL statement of the RAG collections, on ctx.store (SQLite or PostgreSQL): the only
// file to port to another store. The search index holds words and vectors only; the text of
// a chunk is read from here by the ids the index returns.
import type { PluginStore, StoreMigration, Transaction } from '@mcp-gateway/core';
import type { RaiseError } from '../declaration.js';

export interface RagTables {
  knowledge_rag_collections: {
    name: string;
    /** The search index holding this collection's chunks (rag_text, rag_<space>). */
    index_name: string;
    /** Its dimensions; null for a text-only index. Needed to open it again to clean it. */
    index_dimensions: number | null;
    created_at: string;
    updated_at: string;
  };
  knowledge_rag_sources: {
    collection: string;
    path: string;
    hash: string;
    size: number;
    mtime: string;
    chunks: number;
    ingested_at: string;
  };
  knowledge_rag_chunks: {
    id: string;
    collection: string;
    source: string;
    section: string;
    chunk_index: number;
    content: string;
    /** 1 once the chunk is in its collection's search index. */
    indexed: number;
    /** 1 once it is there with a vector. */
    embedded: number;
  };
}

export const ragMigrations: StoreMigration[] = [
  {
    name: 'rag collections, sources and chunks',
    async up(db) {
      await db.schema
        .createTable('knowledge_rag_collections')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('index_name', 'text', (c) => c.notNull())
        .addColumn('index_dimensions', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('knowledge_rag_sources')
        .addColumn('collection', 'text', (c) => c.notNull().references('knowledge_rag_collections.name').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('mtime', 'text', (c) => c.notNull())
        .addColumn('chunks', 'integer', (c) => c.notNull())
        .addColumn('ingested_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('knowledge_rag_sources_pkey', ['collection', 'path'])
        .execute();
      await db.schema
        .createTable('knowledge_rag_chunks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('section', 'text', (c) => c.notNull())
        .addColumn('chunk_index', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('indexed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('embedded', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('knowledge_rag_chunks_source').on('knowledge_rag_chunks').columns(['collection', 'source', 'chunk_index']).execute();
      await db.schema.createIndex('knowledge_rag_chunks_pending').on('knowledge_rag_chunks').columns(['collection', 'indexed', 'embedded']).execute();
    },
  },
];

export type CollectionRow = RagTables['knowledge_rag_collections'];
export type SourceRow = RagTables['knowledge_rag_sources'];
export type ChunkRow = RagTables['knowledge_rag_chunks'];
export type NewChunk = Omit<ChunkRow, 'indexed' | 'embedded'>;

export interface CollectionStats {
  name: string;
  sources: number;
  chunks: number;
  bytes: number;
  updated_at: string;
  index_name: string;
}

/** The RAG tables, through the plugin's shared store. */
export class RagStore {
  readonly #store: PluginStore<RagTables>;

  constructor(store: PluginStore<RagTables>) {
    this.#store = store;
  }

  collection(name: string): Promise<CollectionRow | undefined> {
    return this.#store.db.selectFrom('knowledge_rag_collections').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** The collection, or RAG_COLLECTION_NOT_FOUND naming the ones there are. */
  async collectionOrThrow(name: string, raise: RaiseError): Promise<CollectionRow> {
    const row = await this.collection(name);
    if (row) return row;
    const names = (await this.#store.db.selectFrom('knowledge_rag_collections').select('name').orderBy('name').limit(21).execute()).map((r) => r.name);
    const known = names.length === 0 ? 'There are none yet: make one with rag_ingest.' : `There are: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''} (rag_collections lists them).`;
    throw raise('RAG_COLLECTION_NOT_FOUND', `No collection is named "${name}". ${known}`, { collection: name });
  }

  /** Makes the collection if it is not there; resolves with its row. */
  async ensureCollection(name: string, index: { name: string; dimensions: number | null }): Promise<CollectionRow> {
    for (;;) {
      const now = new Date().toISOString();
      const made = await this.#store.db
        .insertInto('knowledge_rag_collections')
        .values({ name, index_name: index.name, index_dimensions: index.dimensions, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst();
      const row = made ?? (await this.collection(name));
      if (row) return row;
      // It was there for the insert and gone for the select (a rag_delete in between): make it again.
    }
  }

  async touchCollection(name: string): Promise<void> {
    await this.#store.db.updateTable('knowledge_rag_collections').set({ updated_at: new Date().toISOString() }).where('name', '=', name).execute();
  }

  /**
   * Moves a collection to another search index: every chunk is to be indexed again there. The
   * caller has removed them from the old one.
   */
  async moveCollection(name: string, index: { name: string; dimensions: number | null }): Promise<void> {
    await this.#store.transaction(async (trx) => {
      await trx.updateTable('knowledge_rag_collections').set({ index_name: index.name, index_dimensions: index.dimensions }).where('name', '=', name).execute();
      await trx.updateTable('knowledge_rag_chunks').set({ indexed: 0, embedded: 0 }).where('collection', '=', name).execute();
    });
  }

  /** One page of the collections, by name, with their counts; and how many there are. */
  async stats(limit: number, offset: number): Promise<{ collections: CollectionStats[]; total: number }> {
    const db = this.#store.db;
    const [collections, count] = await Promise.all([
      db.selectFrom('knowledge_rag_collections').selectAll().orderBy('name').limit(limit).offset(offset).execute(),
      db.selectFrom('knowledge_rag_collections').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    if (collections.length === 0) return { collections: [], total: Number(count.n) };
    const sources = await db
      .selectFrom('knowledge_rag_sources')
      .select((eb) => ['collection', eb.fn.countAll<number>().as('sources'), eb.fn.sum<number>('chunks').as('chunks'), eb.fn.sum<number>('size').as('bytes')])
      .where('collection', 'in', collections.map((c) => c.name))
      .groupBy('collection')
      .execute();
    const by = new Map(sources.map((s) => [s.collection, s]));
    return {
      total: Number(count.n),
      collections: collections.map((c) => {
        const s = by.get(c.name);
        return { name: c.name, sources: Number(s?.sources ?? 0), chunks: Number(s?.chunks ?? 0), bytes: Number(s?.bytes ?? 0), updated_at: c.updated_at, index_name: c.index_name };
      }),
    };
  }

  sources(collection: string): Promise<Array<Pick<SourceRow, 'path' | 'hash'>>> {
    return this.#store.db.selectFrom('knowledge_rag_sources').select(['path', 'hash']).where('collection', '=', collection).execute();
  }

  source(collection: string, path: string): Promise<SourceRow | undefined> {
    return this.#store.db.selectFrom('knowledge_rag_sources').selectAll().where('collection', '=', collection).where('path', '=', path).executeTakeFirst();
  }

  chunkIdsOf(collection: string, source?: string): Promise<string[]> {
    let query = this.#store.db.selectFrom('knowledge_rag_chunks').select('id').where('collection', '=', collection);
    if (source !== undefined) query = query.where('source', '=', source);
    return query.execute().then((rows) => rows.map((r) => r.id));
  }

  /**
   * Replaces the chunks of one source and its row, in one transaction: a reader sees the old
   * chunks or the new ones. Resolves with the ids of the chunks replaced. The first statement
   * writes the source's row (insert, or update of the one there), which locks it until the
   * commit: a second replace of the same source waits there on PostgreSQL, and its next
   * statements then see (and delete) the chunks this one wrote, so two ingests of one file
   * at once never leave both sets of chunks (SQLite runs one write transaction at a time).
   * Fails with the foreign key's error (isMissingCollection) when the collection is gone.
   */
  replaceSource(source: SourceRow, chunks: readonly NewChunk[], state: { indexed: number; embedded: number }): Promise<string[]> {
    const { collection, path, ...columns } = source;
    return this.#store.transaction(async (trx) => {
      await trx
        .insertInto('knowledge_rag_sources')
        .values(source)
        .onConflict((oc) => oc.columns(['collection', 'path']).doUpdateSet(columns))
        .execute();
      const old = await this.#deleteChunks(trx, collection, path);
      for (let at = 0; at < chunks.length; at += INSERT_BATCH) {
        await trx
          .insertInto('knowledge_rag_chunks')
          .values(chunks.slice(at, at + INSERT_BATCH).map((c) => ({ ...c, ...state })))
          .execute();
      }
      await trx.updateTable('knowledge_rag_collections').set({ updated_at: new Date().toISOString() }).where('name', '=', collection).execute();
      return old;
    });
  }

  /**
   * Deletes one source and its chunks; resolves with the chunk ids that went (none: there was
   * no such source). The row goes first: a replace of it under way is waited for (PostgreSQL),
   * and the chunks it wrote then go too.
   */
  deleteSource(collection: string, path: string): Promise<string[] | undefined> {
    return this.#store.transaction(async (trx) => {
      const found = await trx.deleteFrom('knowledge_rag_sources').where('collection', '=', collection).where('path', '=', path).executeTakeFirst();
      const ids = await this.#deleteChunks(trx, collection, path);
      const gone = found.numDeletedRows > 0n || ids.length > 0;
      // A source that was not there (RAG_SOURCE_NOT_FOUND) leaves the collection as it was, its time included.
      if (gone) await trx.updateTable('knowledge_rag_collections').set({ updated_at: new Date().toISOString() }).where('name', '=', collection).execute();
      return gone ? ids : undefined;
    });
  }

  /**
   * Deletes a collection with its sources and chunks; resolves with what went. The sources go
   * first (a replace updating one is waited for), then the collection's row is locked (a
   * replace that inserted a source holds it through the foreign key, and is waited for; one
   * that comes later fails on that key): only then are the chunks read, so none written by a
   * replace under way is left behind. The same order as replaceSource's, so the two never deadlock.
   */
  deleteCollection(name: string): Promise<{ sources: number; ids: string[] }> {
    return this.#store.transaction(async (trx) => {
      const sources = await trx.deleteFrom('knowledge_rag_sources').where('collection', '=', name).executeTakeFirst();
      await trx.selectFrom('knowledge_rag_collections').select('name').where('name', '=', name).forUpdate().execute();
      const ids = await this.#deleteChunks(trx, name);
      // Cascades to a source a replace committed while this waited for the lock.
      await trx.deleteFrom('knowledge_rag_collections').where('name', '=', name).execute();
      return { sources: Number(sources.numDeletedRows), ids };
    });
  }

  /** Deletes the chunks of a collection, or of one of its sources; resolves with their ids. */
  async #deleteChunks(trx: Transaction<RagTables>, collection: string, source?: string): Promise<string[]> {
    let ids = trx.selectFrom('knowledge_rag_chunks').select('id').where('collection', '=', collection);
    let deleted = trx.deleteFrom('knowledge_rag_chunks').where('collection', '=', collection);
    if (source !== undefined) {
      ids = ids.where('source', '=', source);
      deleted = deleted.where('source', '=', source);
    }
    const found = (await ids.execute()).map((r) => r.id);
    await deleted.execute();
    return found;
  }

  chunksOf(collection: string, source: string, limit: number, offset = 0): Promise<ChunkRow[]> {
    return this.#store.db
      .selectFrom('knowledge_rag_chunks')
      .selectAll()
      .where('collection', '=', collection)
      .where('source', '=', source)
      .orderBy('chunk_index')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async chunksById(ids: readonly string[]): Promise<Map<string, ChunkRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#store.db.selectFrom('knowledge_rag_chunks').selectAll().where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Chunks not yet in the index, or (with `wantVectors`) there without a vector; oldest order. */
  pending(collection: string, wantVectors: boolean, limit: number): Promise<ChunkRow[]> {
    return this.#store.db
      .selectFrom('knowledge_rag_chunks')
      .selectAll()
      .where('collection', '=', collection)
      .where((eb) => (wantVectors ? eb.or([eb('indexed', '=', 0), eb('embedded', '=', 0)]) : eb('indexed', '=', 0)))
      // No order: sorting by source made SQLite walk the whole collection by its source index
      // (about 100 ms at 110,000 chunks, on every rag_query) to find the few rows still pending.
      .limit(limit)
      .execute();
  }

  async countWithoutVectors(collection: string): Promise<number> {
    const row = await this.#store.db
      .selectFrom('knowledge_rag_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('collection', '=', collection)
      .where('embedded', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async markIndexed(ids: readonly string[], embedded: boolean): Promise<void> {
    if (ids.length === 0) return;
    await this.#store.db
      .updateTable('knowledge_rag_chunks')
      .set({ indexed: 1, embedded: embedded ? 1 : 0 })
      .where('id', 'in', [...ids])
      .execute();
  }
}

/**
 * Whether a write failed because its collection is gone (rag_delete, or an ingest with
 * recreate, ran meanwhile): the sources' foreign key, on PostgreSQL (23503) or SQLite.
 */
export function isMissingCollection(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Rows per INSERT: well under SQLite's 32,766 bound parameters at 8 columns a row. */
const INSERT_BATCH = 500;
