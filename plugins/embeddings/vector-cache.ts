import { sql, type Logger, type PluginStore, type StoreMigration } from '@mcp-gateway/core';

interface CacheTables {
  embeddings_cache: {
    /** The vector space (settings.ts): one model's vectors never answer for another's. */
    space: string;
    /** sha256 (hex) of the text as sent, prefix included. */
    hash: string;
    /** float32 little-endian, as core's search indexes store vectors on both engines. */
    vector: Buffer;
    created_at: string;
    used_at: string;
  };
}

/** Append-only, as every store migration. */
export const migrations: StoreMigration[] = [
  {
    name: 'vectors by space and text hash',
    async up(db, dialect) {
      await db.schema
        .createTable('embeddings_cache')
        .addColumn('space', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('vector', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('embeddings_cache_pkey', ['space', 'hash'])
        .execute();
      await db.schema.createIndex('embeddings_cache_used').on('embeddings_cache').column('used_at').execute();
    },
  },
];

/** Rows per statement: well under SQLite's and PostgreSQL's limits on parameters. */
const CHUNK = 500;
/** A hit refreshes its row's used_at only when older than this: a read need not be a write. */
const REFRESH_MS = 60 * 60 * 1000;

/**
 * Vectors already made, in the shared store, so that every gateway of a team reuses them and
 * a provider that is down does not stop work on texts seen before. Bounded to `maxEntries`:
 * past it, the least recently used tenth goes in one statement. A store that fails is logged
 * and worked around (a lookup finds nothing, a write is skipped): the cache never fails a call.
 */
export class VectorCache {
  readonly #store: PluginStore<CacheTables>;
  readonly #maxEntries: number;
  readonly #log: Logger;
  /** Rows in the table as last counted, plus those written since; recounted before a prune. */
  #entries = 0;
  #pruning: Promise<void> | undefined;

  constructor(store: PluginStore, maxEntries: number, log: Logger) {
    this.#store = store;
    this.#maxEntries = maxEntries;
    this.#log = log;
  }

  get entries(): number {
    return this.#entries;
  }

  async open(): Promise<void> {
    this.#entries = await this.#count();
  }

  /** The cached vectors among `hashes`, by hash. */
  async get(space: string, hashes: readonly string[]): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    const stale: string[] = [];
    const cutoff = new Date(Date.now() - REFRESH_MS).toISOString();
    try {
      for (let i = 0; i < hashes.length; i += CHUNK) {
        const rows = await this.#store.db
          .selectFrom('embeddings_cache')
          .select(['hash', 'vector', 'used_at'])
          .where('space', '=', space)
          .where('hash', 'in', hashes.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) {
          found.set(row.hash, decode(row.vector));
          if (row.used_at < cutoff) stale.push(row.hash);
        }
      }
      await this.#touch(space, stale);
    } catch (err) {
      this.#log.warn({ err }, 'embeddings cache lookup failed; asking the provider');
    }
    return found;
  }

  async put(space: string, entries: ReadonlyArray<{ readonly hash: string; readonly vector: readonly number[] }>): Promise<void> {
    const now = new Date().toISOString();
    try {
      for (let i = 0; i < entries.length; i += CHUNK) {
        const rows = entries.slice(i, i + CHUNK).map(({ hash, vector }) => ({ space, hash, vector: encode(vector), created_at: now, used_at: now }));
        // Another call, or another gateway, may have cached the same text meanwhile.
        await this.#store.db
          .insertInto('embeddings_cache')
          .values(rows)
          .onConflict((c) => c.columns(['space', 'hash']).doNothing())
          .execute();
        this.#entries += rows.length;
      }
      if (this.#entries > this.#maxEntries) await (this.#pruning ??= this.#prune().finally(() => (this.#pruning = undefined)));
    } catch (err) {
      this.#log.warn({ err }, 'embeddings cache write failed; the vectors were not cached');
    }
  }

  async #touch(space: string, hashes: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      await this.#store.db.updateTable('embeddings_cache').set({ used_at: now }).where('space', '=', space).where('hash', 'in', hashes.slice(i, i + CHUNK)).execute();
    }
  }

  /** Down to nine tenths of the bound, least recently used first: pruning is then rare. */
  async #prune(): Promise<void> {
    const count = await this.#count();
    const excess = count - Math.floor(this.#maxEntries * 0.9);
    if (count > this.#maxEntries && excess > 0) {
      await sql`delete from embeddings_cache where (space, hash) in (
        select space, hash from embeddings_cache order by used_at, created_at limit ${excess}
      )`.execute(this.#store.db);
      this.#log.debug({ removed: excess, maxEntries: this.#maxEntries }, 'embeddings cache pruned');
    }
    this.#entries = await this.#count();
  }

  async #count(): Promise<number> {
    const row = await this.#store.db.selectFrom('embeddings_cache').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function encode(vector: readonly number[]): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes;
}

function decode(bytes: Uint8Array): number[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = buffer.readFloatLE(i * 4);
  return vector;
}
