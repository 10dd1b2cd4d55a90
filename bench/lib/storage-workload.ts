// The storage section's workload: what a plugin does with ctx.store, made deterministic so
// that both engines get the same rows and the same queries.
import type { PluginStore } from '../../core/contract/store-types.js';
import type { SearchDocument } from '../../core/contract/search-types.js';

/** A small deterministic generator (mulberry32), so both engines see the same data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'da', 'fe', 'go', 'hu', 'ji', 'pe', 'qu', 'zo'];

/** A vocabulary of `size` pseudo-words; drawn with a skew, as words of real text are. */
export function vocabulary(size: number): string[] {
  const next = random(7);
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/** A word index skewed towards the start of the vocabulary (roughly Zipf-like). */
export function skewedWord(words: readonly string[], next: () => number): string {
  return words[Math.floor(words.length * next() ** 3)]!;
}

/** Document `i`: a title of 4 words and a body of 20 to 60, deterministic in `i`. */
export function documentAt(i: number, words: readonly string[]): SearchDocument {
  const next = random(1000 + i);
  const text = (n: number) => Array.from({ length: n }, () => skewedWord(words, next)).join(' ');
  return { id: `doc-${i}`, fields: { title: text(4), body: text(20 + Math.floor(next() * 41)) }, filters: { shard: i % 8 } };
}

/** A unit-length vector of `dimensions`, deterministic in `seed`. */
export function vectorAt(seed: number, dimensions: number): number[] {
  const next = random(50_000 + seed);
  const v = Array.from({ length: dimensions }, () => next() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export interface NotesTables {
  bench_notes: { id: string; title: string; body: string; created_at: string };
}

/** The plain table of the insert and point-read workload, as a plugin's migration makes it. */
export async function migrateNotes(store: PluginStore<NotesTables>): Promise<void> {
  await store.migrate([
    {
      name: 'notes',
      async up(db) {
        await db.schema
          .createTable('bench_notes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
  ]);
}
