import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackendUnderTest } from '../../../support/store-backends.js';
import { rejectsWith } from '../store-cases/migrations.js';
import { allScoresInUnitRange, freshIndex } from './open.js';

/** Cosine similarity, computed here independently of the code under test. */
function cos(a: number[], b: number[]): number {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

export function vectorCases(backend: BackendUnderTest): void {
  describe('vectors', () => {
    it('ranks by cosine similarity, with scores (1 + cosine)/2', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 4 });
      const docs = {
        same: [2, 0, 0, 0],
        near: [1, 0.3, 0, 0],
        orthogonal: [0, 0, 5, 0],
        opposite: [-1, 0, 0, 0],
        mixed: [0.5, 0.5, 0.5, 0.5],
      };
      await index.index([...Object.entries(docs).map(([id, embedding]) => ({ id, fields: { body: id }, embedding })), { id: 'no-vector', fields: { body: 'text only' } }]);
      const query = [1, 0, 0, 0];
      const hits = await index.query({ vector: query, limit: 10 });
      assert.deepEqual(hits.map((h) => h.id), ['same', 'near', 'mixed', 'orthogonal', 'opposite'], 'documents without an embedding are not vector hits');
      for (const hit of hits) {
        const expected = (1 + cos(query, docs[hit.id as keyof typeof docs])) / 2;
        assert.ok(Math.abs(hit.score - expected) < 1e-5, `${hit.id}: ${hit.score} vs ${expected}`);
        assert.equal(hit.vectorScore, hit.score);
        assert.equal(hit.lexicalScore, undefined);
      }
      assert.ok(allScoresInUnitRange(hits));
      assert.ok(hits[0]!.score > 0.99999 && hits.at(-1)!.score < 1e-5);
    });

    it('applies filters and the limit to vector queries', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 2 });
      await index.index(Array.from({ length: 20 }, (_, i) => ({ id: `v${i}`, fields: {}, embedding: [Math.cos(i / 10), Math.sin(i / 10)], filters: { even: i % 2 === 0 } })));
      const hits = await index.query({ vector: [1, 0], filters: { even: false }, limit: 3 });
      assert.deepEqual(hits.map((h) => h.id), ['v1', 'v3', 'v5']);
    });

    it('refuses vectors of another length (SEARCH_DIMENSION_MISMATCH) and non-numbers, writing nothing', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 3 });
      await rejectsWith(index.index([{ id: 'a', fields: {}, embedding: [1, 2] }]), 'SEARCH_DIMENSION_MISMATCH', /holds vectors of 3 dimensions, and document 0's embedding has 2/);
      await rejectsWith(index.query({ vector: [1, 2, 3, 4], limit: 5 }), 'SEARCH_DIMENSION_MISMATCH', /the query vector has 4/);
      await rejectsWith(index.query({ vector: [1, Number.NaN, 3], limit: 5 }), 'SEARCH_QUERY_INVALID', /not a finite number/);
      await rejectsWith(index.index([{ id: 'a', fields: {}, embedding: [1, 2, Infinity] }]), 'SEARCH_QUERY_INVALID', /not a finite number/);
      assert.equal(await index.count(), 0);
      assert.deepEqual(await index.query({ vector: [1, 2, 3], limit: 5 }), [], 'an empty index answers []');
    });
  });

  describe('hybrid', () => {
    it('combines both normalised scores 0.5/0.5 by default, each hit carrying both', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 2 });
      await index.index([
        { id: 'text-only-match', fields: { body: 'kubernetes kubernetes cluster' }, embedding: [0, 1] },
        { id: 'vector-only-match', fields: { body: 'nothing relevant' }, embedding: [1, 0] },
        { id: 'both', fields: { body: 'kubernetes notes' }, embedding: [0.9, 0.1] },
        // bm25 weighs a word by its rarity (a word in half the documents weighs nothing on
        // SQLite): filler makes "kubernetes" rare, as a word sought is in a real corpus.
        ...Array.from({ length: 12 }, (_, i) => ({ id: `filler${i}`, fields: { body: `other words ${i}` }, embedding: [-1, 0] })),
      ]);
      const hits = await index.query({ text: 'kubernetes', vector: [1, 0], limit: 10 });
      assert.equal(hits[0]!.id, 'both');
      assert.ok(allScoresInUnitRange(hits));
      for (const hit of hits) {
        assert.notEqual(hit.lexicalScore, undefined);
        assert.notEqual(hit.vectorScore, undefined);
        assert.ok(Math.abs(hit.score - (0.5 * hit.lexicalScore! + 0.5 * hit.vectorScore!)) < 1e-9);
      }
      const vectorOnly = hits.find((h) => h.id === 'vector-only-match')!;
      assert.equal(vectorOnly.lexicalScore, 0, 'no word matched: lexical score 0');
      // A text-heavy weighting puts the document with the term twice first.
      const textHeavy = await index.query({ text: 'kubernetes', vector: [1, 0], limit: 10, weights: { lexical: 1, vector: 0 } });
      assert.deepEqual(textHeavy.slice(0, 2).map((h) => h.id).sort(), ['both', 'text-only-match']);
      assert.equal(textHeavy[0]!.score, textHeavy[0]!.lexicalScore);
      await rejectsWith(index.query({ text: 'x', vector: [1, 0], limit: 5, weights: { lexical: 0, vector: 0 } }), 'SEARCH_QUERY_INVALID', /weights/);
      const lexicalMode = await index.query({ text: 'kubernetes', vector: [1, 0], mode: 'lexical', limit: 10 });
      assert.deepEqual(lexicalMode.map((h) => h.id).sort(), ['both', 'text-only-match']);
    });

    it('a document without an embedding has no vectorScore (not 0, "opposite"); its score counts the vector half as 0', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 2 });
      await index.index([
        { id: 'text-only', fields: { body: 'kubernetes rollout notes' } },
        { id: 'opposite', fields: { body: 'kubernetes cluster' }, embedding: [-1, 0] },
        { id: 'close', fields: { body: 'unrelated words' }, embedding: [1, 0.1] },
        ...Array.from({ length: 8 }, (_, i) => ({ id: `filler${i}`, fields: { body: `other words ${i}` }, embedding: [0, 1] })),
      ]);
      const hits = await index.query({ text: 'kubernetes', vector: [1, 0], limit: 20, weights: { lexical: 1, vector: 3 } });
      const of = (id: string) => hits.find((h) => h.id === id)!;
      const textOnly = of('text-only');
      assert.ok(textOnly.lexicalScore! > 0);
      assert.equal(textOnly.vectorScore, undefined);
      assert.ok(!('vectorScore' in textOnly), 'left out, not set to undefined');
      assert.ok(Math.abs(textOnly.score - 0.25 * textOnly.lexicalScore!) < 1e-9);
      const opposite = of('opposite');
      assert.ok(opposite.vectorScore !== undefined && opposite.vectorScore < 1e-5, 'a vector pointing away still scores about 0');
      assert.ok(Math.abs(opposite.score - (0.25 * opposite.lexicalScore! + 0.75 * opposite.vectorScore)) < 1e-9);
      assert.equal(of('close').lexicalScore, 0);
      assert.ok(of('close').vectorScore! > 0.99);
      assert.ok(allScoresInUnitRange(hits));
      // All the weight on the words: still no vector score made up for it.
      const byWords = await index.query({ text: 'rollout', vector: [1, 0], limit: 20, weights: { lexical: 1, vector: 0 } });
      assert.equal(byWords[0]!.id, 'text-only');
      assert.equal(byWords[0]!.vectorScore, undefined);
      assert.equal(byWords[0]!.score, byWords[0]!.lexicalScore);
    });

    it('caps hybrid results at the limit and honours filters', async (t) => {
      const { index } = await freshIndex(t, backend, { dimensions: 2 });
      await index.index(Array.from({ length: 40 }, (_, i) => ({ id: `h${i}`, fields: { body: i % 3 === 0 ? 'match me' : 'skip' }, embedding: [1, i / 40], filters: { group: i % 2 } })));
      const hits = await index.query({ text: 'match', vector: [1, 0], filters: { group: 0 }, limit: 5 });
      assert.equal(hits.length, 5);
      assert.ok(hits.every((h) => Number(h.id.slice(1)) % 2 === 0));
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    });
  });
}
