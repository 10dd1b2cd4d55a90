import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackendUnderTest } from '../../../support/store-backends.js';
import { rejectsWith } from '../store-cases/migrations.js';
import { freshIndex } from './open.js';

export function documentCases(backend: BackendUnderTest): void {
  describe('documents', () => {
    it('indexes, replaces a document with the same id, and removes by id', async (t) => {
      const { index } = await freshIndex(t, backend);
      assert.deepEqual(await index.query({ text: 'anything', limit: 10 }), [], 'an empty index answers []');
      await index.index([
        { id: 'a', fields: { title: 'apple orchard' } },
        { id: 'b', fields: { title: 'banana plantation' } },
      ]);
      assert.equal(await index.count(), 2);
      assert.deepEqual((await index.query({ text: 'apple', limit: 10 })).map((h) => h.id), ['a']);
      // The replacement's text is what is found; the old text is gone from the full-text index.
      await index.index([{ id: 'a', fields: { title: 'cherry grove' } }]);
      assert.equal(await index.count(), 2);
      assert.deepEqual(await index.query({ text: 'apple', limit: 10 }), []);
      assert.deepEqual((await index.query({ text: 'cherry', limit: 10 })).map((h) => h.id), ['a']);
      assert.equal(await index.remove(['a', 'not-there']), 1);
      assert.deepEqual(await index.query({ text: 'cherry', limit: 10 }), []);
      assert.deepEqual((await index.query({ text: 'banana', limit: 10 })).map((h) => h.id), ['b']);
      assert.equal(await index.count(), 1);
    });

    it('keeps the last of one id given twice in a batch', async (t) => {
      const { index } = await freshIndex(t, backend);
      await index.index([
        { id: 'x', fields: { body: 'first version' } },
        { id: 'x', fields: { body: 'second version' } },
      ]);
      assert.equal(await index.count(), 1);
      assert.deepEqual((await index.query({ text: 'second', limit: 5 })).map((h) => h.id), ['x']);
      assert.deepEqual(await index.query({ text: 'first', limit: 5 }), []);
    });

    it('indexes a batch larger than one statement holds', async (t) => {
      const { index } = await freshIndex(t, backend);
      const docs = Array.from({ length: 1_234 }, (_, i) => ({ id: `d${i}`, fields: { body: `item number${i} common` } }));
      await index.index(docs);
      assert.equal(await index.count(), 1_234);
      assert.deepEqual((await index.query({ text: 'number777', limit: 5 })).map((h) => h.id), ['d777']);
      assert.equal(await index.remove(docs.map((d) => d.id)), 1_234);
      assert.equal(await index.count(), 0);
    });

    const badDocuments: [string, unknown, string, RegExp][] = [
      ['an empty id', { id: '', fields: {} }, 'SEARCH_DOCUMENT_INVALID', /id must be a string/],
      ['a field that is not a string', { id: 'a', fields: { n: 3 } }, 'SEARCH_DOCUMENT_INVALID', /field "n" is not a string/],
      ['a filter name with a quote', { id: 'a', fields: {}, filters: { 'a"b': 1 } }, 'SEARCH_DOCUMENT_INVALID', /name "a\\"b"/],
      ['a filter value that is an object', { id: 'a', fields: {}, filters: { kind: {} } }, 'SEARCH_DOCUMENT_INVALID', /"kind" must be a string/],
      ['an embedding in a text-only index', { id: 'a', fields: {}, embedding: [1, 2] }, 'SEARCH_DIMENSION_MISMATCH', /created without vectors/],
    ];
    for (const [label, doc, code, message] of badDocuments) {
      it(`refuses a batch with ${label} (${code}), writing none of it`, async (t) => {
        const { index } = await freshIndex(t, backend);
        await rejectsWith(index.index([{ id: 'ok', fields: { body: 'fine' } }, doc as never]), code, message, /document 1/);
        assert.equal(await index.count(), 0);
      });
    }

    it('records dimensions on creation and refuses to open the index with others', async (t) => {
      const { store } = await freshIndex(t, backend, { dimensions: 3 }, 'vecs');
      const notes = store.forPlugin('notes');
      assert.equal((await notes.search('vecs', { dimensions: 3 })).dimensions, 3);
      await rejectsWith(notes.search('vecs', { dimensions: 4 }), 'SEARCH_INDEX_INVALID', /created with 3 dimensions, and is opened with 4/);
      await rejectsWith(notes.search('vecs'), 'SEARCH_INDEX_INVALID', /opened with none/);
      await rejectsWith(notes.search('Bad-Name'), 'SEARCH_INDEX_INVALID', /not valid/);
      await rejectsWith(notes.search('ok', { dimensions: 0 }), 'SEARCH_INDEX_INVALID', /dimensions must be an integer/);
      // Another plugin's index of the same name is its own.
      const other = await store.forPlugin('other-plugin').search('vecs');
      assert.equal(other.dimensions, undefined);
      const tables = await store.db.introspection.getTables();
      assert.ok(tables.some((tb) => tb.name === 'other_plugin_search_vecs'), 'tables carry the plugin prefix');
    });
  });
}
