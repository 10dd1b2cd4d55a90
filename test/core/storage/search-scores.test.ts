import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLogger } from '../../../core/lib/logger.js';
import { openSearchIndex } from '../../../core/storage/search-index.js';
import { cosine, decodeVector, encodeVector, lexicalScore, vectorScoreFromCosine, vectorScoreFromDistance } from '../../../core/storage/search-scores.js';
import { fts5Match, searchTerms, tsqueryText } from '../../../core/storage/search-terms.js';
import { SharedStore } from '../../../core/storage/shared-store.js';

describe('search scores', () => {
  it('maps engine ranks into [0, 1), strictly increasing, 0 for no match', () => {
    const ranks = [0, 1e-9, 1e-6, 0.01, 0.5, 1, 2, 10, 1e3, 1e9];
    const scores = ranks.map(lexicalScore);
    assert.equal(scores[0], 0);
    for (let i = 1; i < scores.length; i++) {
      assert.ok(scores[i]! > scores[i - 1]!, `${ranks[i]} above ${ranks[i - 1]}`);
      assert.ok(scores[i]! < 1);
    }
    assert.equal(lexicalScore(-3), 0, 'a negative rank (never given) is no match');
  });

  it('maps cosine similarity and cosine distance to the same [0, 1] score', () => {
    for (const c of [-1, -0.5, 0, 0.3, 1]) {
      assert.ok(Math.abs(vectorScoreFromCosine(c) - vectorScoreFromDistance(1 - c)) < 1e-12);
    }
    assert.equal(vectorScoreFromCosine(1), 1);
    assert.equal(vectorScoreFromCosine(-1), 0);
    assert.equal(vectorScoreFromCosine(0), 0.5);
    assert.equal(vectorScoreFromDistance(2.0000001), 0, 'float error past the range is clamped');
    assert.equal(cosine([0, 0], [1, 0]), 0, 'a zero vector has no direction');
  });

  it('stores vectors as float32 bytes and reads them back', () => {
    const bytes = encodeVector([1, -0.5, 3.25]);
    assert.equal(bytes.length, 12);
    assert.deepEqual([...decodeVector(bytes)], [1, -0.5, 3.25]);
    const unaligned = Buffer.concat([Buffer.alloc(1), bytes]).subarray(1);
    assert.deepEqual([...decodeVector(unaligned)], [1, -0.5, 3.25]);
  });
});

describe('search terms', () => {
  it('keeps letters and digits only, lower-cased, distinct, in order', () => {
    assert.deepEqual(searchTerms('NEAR("Deploy" * -notes: a&b|c) deploy'), ['near', 'deploy', 'notes', 'a', 'b', 'c']);
    assert.deepEqual(searchTerms('"\'*-:&|!<->^(){}'), []);
    assert.deepEqual(searchTerms('Café naïve 東京 42'), ['café', 'naïve', '東京', '42']);
    assert.equal(searchTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).length, 64);
  });

  it('builds an FTS5 OR of quoted words and a tsquery OR of bare words', () => {
    assert.equal(fts5Match(['near', 'deploy']), '"near" OR "deploy"');
    assert.equal(tsqueryText(['near', 'deploy']), 'near | deploy');
  });
});

describe('vectors on SQLite without sqlite-vec', () => {
  it('scores exactly in the gateway, ranking as sqlite-vec does', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mcpgw-search-'));
    const store = await SharedStore.open({ shared: 'sqlite' }, { dataDir, log: createLogger('silent'), configWhere: 'test' });
    t.after(async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    assert.equal(store.vectors.engine, 'sqlite-vec', 'sqlite-vec loads on this platform');
    const viaVec = await store.forPlugin('notes').search('vecs', { dimensions: 3 });
    await viaVec.index(Array.from({ length: 50 }, (_, i) => ({ id: `v${i}`, fields: {}, embedding: [Math.cos(i), Math.sin(i), i / 50], filters: { odd: i % 2 === 1 } })));
    // The same tables, scored by the gateway's loop: what a platform without the extension gets.
    const exact = await openSearchIndex({ db: store.db, dialect: 'sqlite', vectorEngine: 'exact', tablePrefix: 'notes_', owner: 'notes' }, 'vecs', { dimensions: 3 });
    assert.equal(exact.vectorEngine, 'exact');
    for (const query of [{ vector: [1, 0, 0], limit: 10 }, { vector: [0.2, -1, 0.5], filters: { odd: true }, limit: 7 }]) {
      const a = await viaVec.query(query);
      const b = await exact.query(query);
      assert.deepEqual(b.map((h) => h.id), a.map((h) => h.id));
      b.forEach((h, i) => assert.ok(Math.abs(h.score - a[i]!.score) < 1e-6));
    }
  });
});
