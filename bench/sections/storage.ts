// Issue 12: the same plugin workload on the shared store's two engines, side by side: rows
// inserted, point reads, full-text queries over 100,000 documents, and exact vector scoring
// (384 dimensions) as an index grows. PostgreSQL is the local server the tests use; without
// it the section says so in one line and reports SQLite alone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../core/lib/logger.js';
import { openSearchIndex } from '../../core/storage/search-index.js';
import { SharedStore } from '../../core/storage/shared-store.js';
import type { StorageConfig } from '../../core/storage/store-config.js';
import type { PluginStore } from '../../core/contract/store-types.js';
import { postgresSkipReason, startTestPostgres, type TestPostgres } from '../../test/support/postgres.js';
import type { BenchOptions } from '../lib/options.js';
import { int, ms, type SectionResult } from '../lib/report.js';
import { median, percentile } from '../lib/stats.js';
import { documentAt, migrateNotes, random, skewedWord, vectorAt, vocabulary, type NotesTables } from '../lib/storage-workload.js';

const BATCH = 500;
const POINT_READS = 2_000;
const FTS_QUERIES = 200;
const DIMENSIONS = 384;
const VECTOR_QUERIES = 5;

interface EngineFigures {
  insertPerSecond: number;
  readP50: number;
  readP99: number;
  indexPerSecond: number;
  ftsP50: number;
  ftsP99: number;
  /** Median vector query time (ms) by row count, per scorer. */
  vectors: Map<string, Map<number, number>>;
}

async function timeEach(count: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return times;
}

async function measure(storage: StorageConfig, rows: number, vectorSizes: readonly number[]): Promise<EngineFigures> {
  const store = await SharedStore.open(storage, { dataDir: mkdtempSync(join(tmpdir(), 'mcpgw-bench-store-')), log: createLogger('silent'), configWhere: 'bench' });
  try {
    const plugin: PluginStore<NotesTables> = store.forPlugin('bench');
    await migrateNotes(plugin);
    const words = vocabulary(5_000);
    const docs = Array.from({ length: rows }, (_, i) => documentAt(i, words));

    let t = performance.now();
    for (let i = 0; i < rows; i += BATCH) {
      const now = new Date().toISOString();
      const values = docs.slice(i, i + BATCH).map((d) => ({ id: d.id, title: d.fields.title!, body: d.fields.body!, created_at: now }));
      await plugin.transaction((trx) => trx.insertInto('bench_notes').values(values).execute());
    }
    const insertPerSecond = rows / ((performance.now() - t) / 1000);

    const pick = random(11);
    const reads = await timeEach(POINT_READS, () => plugin.db.selectFrom('bench_notes').selectAll().where('id', '=', `doc-${Math.floor(pick() * rows)}`).executeTakeFirstOrThrow());

    const index = await plugin.search('notes');
    t = performance.now();
    for (let i = 0; i < rows; i += BATCH) await index.index(docs.slice(i, i + BATCH));
    const indexPerSecond = rows / ((performance.now() - t) / 1000);
    const ask = random(13);
    const fts = await timeEach(FTS_QUERIES, () => index.query({ text: `${skewedWord(words, ask)} ${skewedWord(words, ask)}`, limit: 10 }));

    const vectors = new Map<string, Map<number, number>>();
    const scorers = store.dialect === 'sqlite' ? (['sqlite-vec', 'exact'] as const) : (['exact'] as const);
    const home = { db: store.db, dialect: store.dialect, tablePrefix: 'bench_', owner: 'bench' };
    const vectorIndex = await plugin.search('vectors', { dimensions: DIMENSIONS });
    let filled = 0;
    for (const size of vectorSizes) {
      for (let i = filled; i < size; i += BATCH) {
        await vectorIndex.index(Array.from({ length: Math.min(BATCH, size - i) }, (_, k) => ({ id: `v${i + k}`, fields: {}, embedding: vectorAt(i + k, DIMENSIONS) })));
      }
      filled = size;
      for (const scorer of scorers) {
        // The same tables, opened with the scorer under test (sqlite-vec in SQL, or the gateway's exact loop).
        const scored = await openSearchIndex({ ...home, vectorEngine: scorer }, 'vectors', { dimensions: DIMENSIONS });
        const times = await timeEach(VECTOR_QUERIES, (q) => scored.query({ vector: vectorAt(1_000_000 + q, DIMENSIONS), limit: 10 }));
        if (!vectors.has(scorer)) vectors.set(scorer, new Map());
        vectors.get(scorer)!.set(size, median(times));
      }
    }
    return { insertPerSecond, readP50: percentile(reads, 50), readP99: percentile(reads, 99), indexPerSecond, ftsP50: percentile(fts, 50), ftsP99: percentile(fts, 99), vectors };
  } finally {
    await store.close();
  }
}

export async function storageSection(options: BenchOptions): Promise<SectionResult> {
  const rows = options.storageRows;
  const vectorSizes = options.quick ? [2_000, 5_000] : [10_000, 50_000, 100_000];
  process.stderr.write(`  storage: SQLite, ${int(rows)} rows…\n`);
  const sqlite = await measure({ shared: 'sqlite' }, rows, vectorSizes);
  let postgres: EngineFigures | undefined;
  let server: TestPostgres | undefined;
  if (postgresSkipReason) {
    process.stderr.write(`  storage: PostgreSQL skipped: ${postgresSkipReason}\n`);
  } else {
    try {
      server = await startTestPostgres();
      process.stderr.write(`  storage: PostgreSQL, ${int(rows)} rows…\n`);
      const url = await server.createDatabase();
      postgres = await measure({ shared: { postgres: { url, poolSize: 10, statementTimeoutMs: 0, connectTimeoutMs: 10_000 } } }, rows, vectorSizes);
    } finally {
      await server?.stop();
    }
  }
  const pg = (f: (e: EngineFigures) => string) => (postgres ? f(postgres) : 'not installed');
  const vectorRows = vectorSizes.map((size) => [
    `${int(size)} rows`,
    ms(sqlite.vectors.get('sqlite-vec')?.get(size) ?? Number.NaN),
    ms(sqlite.vectors.get('exact')?.get(size) ?? Number.NaN),
    pg((e) => ms(e.vectors.get('exact')?.get(size) ?? Number.NaN)),
  ]);
  return {
    id: 'storage',
    title: '7. Shared store: SQLite and PostgreSQL',
    method: [
      `In the bench process, through the store a plugin gets (\`ctx.store\`, its search index \`ctx.store.search\`): ${int(rows)} generated notes (a 4-word title, a 20-60 word body, words drawn with a skew from 5,000) inserted into a plain table in transactions of ${BATCH} rows; ${int(POINT_READS)} point reads by primary key, one at a time; the same notes indexed for full-text search in batches of ${BATCH}; ${FTS_QUERIES} two-word queries (limit 10), one at a time. SQLite is \`shared.db\` (WAL); PostgreSQL 15 is a local server on loopback TCP started like the tests' (test/support/postgres.ts), default settings.`,
      `Vector queries: an index of ${DIMENSIONS}-dimension unit vectors grown to each size, ${VECTOR_QUERIES} queries (limit 10) at each, median. On SQLite scored by sqlite-vec in SQL, and by the gateway's exact loop (what a platform without sqlite-vec gets); on PostgreSQL (no pgvector) by the gateway's exact loop, every vector travelling from the server.`,
    ],
    tables: [
      {
        columns: ['', 'SQLite', 'PostgreSQL'],
        rows: [
          ['insert (rows/s, batches of 500)', int(sqlite.insertPerSecond), pg((e) => int(e.insertPerSecond))],
          ['point read p50', ms(sqlite.readP50, 3), pg((e) => ms(e.readP50, 3))],
          ['point read p99', ms(sqlite.readP99, 3), pg((e) => ms(e.readP99, 3))],
          ['search index: documents/s', int(sqlite.indexPerSecond), pg((e) => int(e.indexPerSecond))],
          [`full-text query p50 (${int(rows)} docs)`, ms(sqlite.ftsP50), pg((e) => ms(e.ftsP50))],
          [`full-text query p99 (${int(rows)} docs)`, ms(sqlite.ftsP99), pg((e) => ms(e.ftsP99))],
        ],
      },
      { title: `Vector query (${DIMENSIONS} dimensions, limit 10), median`, columns: ['index size', 'SQLite, sqlite-vec', 'SQLite, exact in gateway', 'PostgreSQL, exact in gateway'], rows: vectorRows },
    ],
    targets: [],
    profiles: [],
  };
}
