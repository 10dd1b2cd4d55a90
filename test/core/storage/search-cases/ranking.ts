import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackendUnderTest } from '../../../support/store-backends.js';
import { rejectsWith } from '../store-cases/migrations.js';
import { allScoresInUnitRange, freshIndex } from './open.js';

const LONG = 'a long field where the one mention is buried among many other words about gardens rivers mountains kitchens libraries trains and weather';

export function rankingCases(backend: BackendUnderTest): void {
  describe('lexical ranking', () => {
    it('ranks the term twice in a short field above it once in a long field, scores in [0, 1] and monotone', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([
        { id: 'once-long', fields: { body: `${LONG} deploy` } },
        { id: 'twice-short', fields: { title: 'deploy notes', body: 'how to deploy' } },
        { id: 'unrelated', fields: { body: 'nothing to see here' } },
        { id: 'other', fields: { body: 'release checklist' } },
      ]);
      const hits = await index.query({ text: 'deploy', limit: 10 });
      assert.deepEqual(hits.map((h) => h.id), ['twice-short', 'once-long']);
      assert.ok(allScoresInUnitRange(hits));
      assert.ok(hits[0]!.score > hits[1]!.score && hits[1]!.score > 0);
      assert.equal(hits[0]!.lexicalScore, hits[0]!.score);
      assert.equal(hits[0]!.vectorScore, undefined);
    });

    it('ranks a document holding more of the words first, and matches any of them', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([
        { id: 'both', fields: { body: 'circuit breaker opens on timeout' } },
        { id: 'one', fields: { body: 'a breaker in the kitchen' } },
        { id: 'none', fields: { body: 'unrelated words only' } },
        { id: 'filler', fields: { body: 'more filler text' } },
      ]);
      const hits = await index.query({ text: 'Circuit BREAKER', limit: 10 });
      assert.deepEqual(hits.map((h) => h.id), ['both', 'one']);
    });

    it('caps results at the limit, best first', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index(Array.from({ length: 30 }, (_, i) => ({ id: `d${String(i).padStart(2, '0')}`, fields: { body: `${'word '.repeat(1 + (i % 5))}filler${i}` } })));
      const hits = await index.query({ text: 'word', limit: 7 });
      assert.equal(hits.length, 7);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    });

    it('selects by filters: equality of type and value', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([
        { id: 'a', fields: { body: 'shared term' }, filters: { project: 'alpha', pinned: true, level: 1 } },
        { id: 'b', fields: { body: 'shared term' }, filters: { project: 'beta', pinned: false, level: 2 } },
        { id: 'c', fields: { body: 'shared term' }, filters: { project: 'alpha', pinned: 1, level: '1' } },
      ]);
      const ids = async (filters: Record<string, string | number | boolean>) => (await index.query({ text: 'term', filters, limit: 10 })).map((h) => h.id).sort();
      assert.deepEqual(await ids({ project: 'alpha' }), ['a', 'c']);
      assert.deepEqual(await ids({ project: 'alpha', pinned: true }), ['a']);
      assert.deepEqual(await ids({ pinned: 1 }), ['c']);
      assert.deepEqual(await ids({ level: 1 }), ['a']);
      assert.deepEqual(await ids({ level: '1' }), ['c']);
      assert.deepEqual(await ids({ project: 'gamma' }), []);
      assert.deepEqual(await ids({ missing: 'x' }), []);
    });
  });

  describe('hostile query text', () => {
    const hostile = [
      '"',
      '"unbalanced quote',
      'deploy"',
      'NEAR(deploy notes, 2)',
      'deploy*',
      '*',
      '-deploy',
      'body:deploy',
      'deploy & notes',
      'deploy | notes',
      '!deploy',
      'deploy <-> notes',
      'deploy:*',
      "'; drop table notes_search_docs; --",
      'AND OR NOT',
      '^deploy',
      '(deploy',
      '{deploy}',
      '\\',
      '',
      '   ',
      '\u0000deploy',
      'déploiement DEPLOY',
    ];
    it('never reaches the engine as syntax: every string answers hits or [], and the table survives', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([
        { id: 'hit', fields: { title: 'deploy notes' } },
        { id: 'miss', fields: { title: 'something else' } },
      ]);
      for (const text of hostile) {
        const hits = await index.query({ text, limit: 5 });
        assert.ok(Array.isArray(hits), text);
        assert.ok(hits.every((h) => h.id === 'hit'), `${JSON.stringify(text)} → ${JSON.stringify(hits)}`);
        assert.ok(allScoresInUnitRange(hits), text);
      }
      assert.deepEqual((await index.query({ text: 'NEAR(deploy notes, 2)', limit: 5 })).map((h) => h.id), ['hit'], 'operators are words');
      assert.deepEqual(await index.query({ text: 'AND OR NOT', limit: 5 }), []);
      assert.deepEqual(await index.query({ text: '"', limit: 5 }), [], 'no words, no hits');
      assert.equal(await index.count(), 2);
    });

    it('indexes hostile document text as words', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([{ id: 'odd', fields: { body: 'NEAR("x" * -y : a & b | c) \u0000 \' ; --' } }]);
      assert.deepEqual((await index.query({ text: 'near', limit: 5 })).map((h) => h.id), ['odd']);
    });
  });

  describe('bad queries', () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['no text and no vector', { limit: 5 }, 'SEARCH_QUERY_INVALID', /needs a text/],
      ['a limit of 0', { text: 'x', limit: 0 }, 'SEARCH_QUERY_INVALID', /limit must be an integer from 1 to 1000/],
      ['a limit over 1,000', { text: 'x', limit: 1001 }, 'SEARCH_QUERY_INVALID', /limit/],
      ['a fractional limit', { text: 'x', limit: 2.5 }, 'SEARCH_QUERY_INVALID', /limit/],
      ['vector mode without a vector', { text: 'x', mode: 'vector', limit: 5 }, 'SEARCH_QUERY_INVALID', /needs a vector/],
      ['an unknown mode', { text: 'x', mode: 'fuzzy', limit: 5 }, 'SEARCH_QUERY_INVALID', /mode must be/],
      ['a filter name with a path in it', { text: 'x', filters: { '$.a': 1 }, limit: 5 }, 'SEARCH_QUERY_INVALID', /filters: name/],
      ['a vector on a text-only index', { vector: [1, 0], limit: 5 }, 'SEARCH_DIMENSION_MISMATCH', /created without vectors/],
    ];
    for (const [label, query, code, message] of cases) {
      it(`refuses ${label} with ${code}`, async (t) => {
        const { index } = await freshIndex(t, backend);
        await rejectsWith(index.query(query as never), code, message);
      });
    }
  });
}
