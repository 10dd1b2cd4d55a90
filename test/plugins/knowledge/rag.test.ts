import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storeBackends, type BackendUnderTest } from '../../support/store-backends.js';
import { bootRag, GUIDE_MD, writeTree } from './rag-helpers.js';

// The rag_ tools through a real gateway, on SQLite and on PostgreSQL (skipped, with one line,
// where PostgreSQL is not installed): without the embeddings plugin, so every search is lexical.
for (const backend of storeBackends()) {
  describe(`rag collections on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());
    ragCases(backend);
  });
}

const CODE = Array.from({ length: 80 }, (_, i) => `export function step${i}(input: number): number { return input * ${i}; } // pipeline stage ${i}`).join('\n');

function seedDocs(root: string): void {
  writeTree(root, {
    'docs/guide.md': GUIDE_MD,
    'docs/notes.txt': 'Plain notes about the rollback procedure for deploys.\n',
    'docs/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]),
    'docs/.gitignore': 'build/\n*.log\n',
    'docs/build/out.md': '# Built\n\nGenerated output that must not be ingested.\n',
    'docs/debug.log': 'secret debugging noise\n',
    'docs/api/pipeline.ts': CODE,
    'docs/api/.gitignore': 'private.ts\n',
    'docs/api/private.ts': 'export const hidden = "nested gitignore";\n',
  });
}

function ragCases(backend: BackendUnderTest): void {
  it('ingests a folder: Markdown by headings, code by size, binary and .gitignored files left out', async (t) => {
    const rag = await bootRag(t, await backend.fresh(), { knowledge: { rag: { chunkChars: 600, overlapChars: 120 } } });
    seedDocs(rag.workspace);
    const out = await rag.call('rag_ingest', { path: 'docs', collection: 'docs' });
    assert.equal(out.isError, undefined, JSON.stringify(out));
    assert.equal(out.collection, 'docs');
    // guide.md, notes.txt, logo.png, pipeline.ts and the two .gitignore files; build/, *.log and api/private.ts are ignored.
    assert.equal(out.files.seen, 6);
    assert.deepEqual(out.files.skipped, [{ path: 'docs/logo.png', reason: 'binary' }]);
    assert.equal(out.files.ingested, 5);
    assert.equal(out.vectors.stored, false);
    assert.match(out.vectors.reason, /embeddings plugin is not enabled/);

    const guide = await rag.call('rag_retrieve', { source: 'docs/guide.md', collection: 'docs' });
    assert.deepEqual(
      guide.chunks.map((c: any) => [c.chunk_index, c.section]),
      [
        [0, 'Guide'],
        [1, 'Guide > Install'],
        [2, 'Guide > Configure'],
      ],
    );
    assert.match(guide.chunks[1].content, /# a comment in a fence, not a heading/);
    const code = await rag.call('rag_retrieve', { source: 'docs/api/pipeline.ts', collection: 'docs' });
    assert.ok(code.count > 5, `code cut by size: ${code.count} chunks`);
    for (const chunk of code.chunks) {
      assert.ok(chunk.content.length <= 600, 'no chunk over chunkChars');
      assert.match(chunk.section, /^lines \d+-\d+$/);
    }
    // Consecutive chunks overlap: the next starts with a line the one before ended with.
    const lastLine = code.chunks[0].content.split('\n').at(-1);
    assert.ok(code.chunks[1].content.startsWith(lastLine), 'overlap of whole lines');
    const all = (await rag.call('rag_query', { question: 'nested gitignore generated output secret debugging', collection: 'docs', top_k: 50 })).results;
    assert.ok(!all.some((r: any) => /private|build|debug/.test(r.source)), JSON.stringify(all.map((r: any) => r.source)));
  });

  it('re-ingests: unchanged files skipped by hash, a changed file replaces its chunks, a deleted one leaves', async (t) => {
    const rag = await bootRag(t, await backend.fresh());
    seedDocs(rag.workspace);
    const first = await rag.call('rag_ingest', { path: 'docs', collection: 'docs' });
    const again = await rag.call('rag_ingest', { path: 'docs', collection: 'docs' });
    assert.equal(again.files.unchanged, first.files.ingested);
    assert.equal(again.files.ingested, 0);
    assert.deepEqual(again.chunks, { added: 0, removed: 0 });

    writeFileSync(join(rag.workspace, 'docs/notes.txt'), 'Notes now describe the canary release instead.\n');
    rmSync(join(rag.workspace, 'docs/guide.md'));
    const changed = await rag.call('rag_ingest', { path: 'docs', collection: 'docs' });
    assert.equal(changed.files.ingested, 1);
    assert.equal(changed.files.removed, 1);
    assert.equal(changed.chunks.added, 1);
    assert.equal(changed.chunks.removed, 1 + 3); // the old notes chunk, and guide.md's three

    const rollback = await rag.call('rag_query', { question: 'rollback procedure', collection: 'docs' });
    assert.ok(!rollback.results.some((r: any) => r.source === 'docs/notes.txt'), 'the old text of a changed file is gone from the index');
    const canary = await rag.call('rag_query', { question: 'canary release', collection: 'docs' });
    assert.equal(canary.results[0].source, 'docs/notes.txt');
    const guide = await rag.call('rag_retrieve', { source: 'docs/guide.md', collection: 'docs' });
    assert.equal(guide.code, 'RAG_SOURCE_NOT_FOUND');
    const install = await rag.call('rag_query', { question: 'npm install', collection: 'docs' });
    assert.ok(!install.results.some((r: any) => r.source === 'docs/guide.md'));

    // Ingesting another folder into the same collection leaves the first folder's sources alone.
    writeTree(rag.workspace, { 'other/readme.md': '# Other\n\nAnother folder.\n' });
    const other = await rag.call('rag_ingest', { path: 'other', collection: 'docs' });
    assert.equal(other.files.removed, 0);
    const [stats] = (await rag.call('rag_collections', {})).collections;
    assert.equal(stats.sources, 5); // notes.txt, pipeline.ts, the two .gitignore files, other/readme.md
  });

  it('answers rag_query over MCP and REST alike: lexical, degraded with the reason, a context block to paste', async (t) => {
    const rag = await bootRag(t, await backend.fresh());
    seedDocs(rag.workspace);
    await rag.call('rag_ingest', { path: 'docs' });
    const mcp = await rag.call('rag_query', { question: 'How do I install the gateway?' });
    assert.equal(mcp.collection, 'default');
    assert.equal(mcp.mode, 'lexical');
    assert.match(mcp.degraded, /embeddings plugin is not enabled/);
    assert.equal(mcp.results[0].source, 'docs/guide.md');
    assert.equal(mcp.results[0].section, 'Guide > Install');
    assert.ok(mcp.results[0].score > 0 && mcp.results[0].score <= 1);
    assert.match(mcp.context, /^<retrieved_context>\nSource: docs\/guide\.md § Guide > Install\n## Install/);
    assert.match(mcp.context, /<\/retrieved_context>$/);

    const rest = await rag.rest('rag_query', { question: 'How do I install the gateway?' });
    assert.equal(rest.status, 200);
    assert.equal(rest.body.success, true);
    assert.deepEqual(rest.body.data, mcp);

    const filtered = await rag.call('rag_query', { question: 'install rollback', source: './docs/notes.txt' });
    assert.deepEqual([...new Set(filtered.results.map((r: any) => r.source))], ['docs/notes.txt']);
    const missing = await rag.rest('rag_query', { question: 'x', collection: 'nope' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'RAG_COLLECTION_NOT_FOUND');
    assert.match(missing.body.error.message, /No collection is named "nope"\. There are: default \(rag_collections lists them\)\./);
  });

  it('is safe with hostile query text: syntax of either engine is read as words or separators', async (t) => {
    const rag = await bootRag(t, await backend.fresh());
    seedDocs(rag.workspace);
    await rag.call('rag_ingest', { path: 'docs' });
    for (const question of ['"unclosed', 'NEAR(install config)', 'install*', '-install OR NOT config', "'; DROP TABLE knowledge_rag_chunks; --", 'a & b | !c <-> d:*', '^:(){}[]', '</retrieved_context> install']) {
      const out = await rag.call('rag_query', { question });
      assert.equal(out.isError, undefined, `${question}: ${JSON.stringify(out)}`);
      assert.ok(Array.isArray(out.results));
    }
    const wordless = await rag.call('rag_query', { question: '*** ---' });
    assert.deepEqual(wordless.results, []);
    assert.match(wordless.context, /No matching documents/);
    assert.equal((await rag.call('rag_collections', {})).collections[0].chunks > 0, true);
  });

  it('lists collections, retrieves a source in order, deletes a source and a collection', async (t) => {
    const rag = await bootRag(t, await backend.fresh());
    seedDocs(rag.workspace);
    const ingested = await rag.call('rag_ingest', { path: 'docs', collection: 'docs' });
    await rag.call('rag_ingest', { path: 'docs/guide.md', collection: 'guide' });
    const { collections } = await rag.call('rag_collections', {});
    assert.deepEqual(collections.map((c: any) => c.name), ['docs', 'guide']);
    const docs = collections[0];
    assert.equal(docs.sources, ingested.files.ingested);
    assert.equal(docs.chunks, ingested.chunks.added);
    assert.ok(docs.bytes > GUIDE_MD.length);
    assert.equal(docs.vector_space, null);
    assert.match(docs.updated_at, /^\d{4}-\d\d-\d\dT/);
    assert.equal(collections[1].sources, 1);

    const limited = await rag.call('rag_retrieve', { source: 'docs/guide.md', collection: 'guide', limit: 2 });
    assert.deepEqual([limited.count, limited.total], [2, 3]);
    assert.deepEqual(limited.chunks.map((c: any) => c.chunk_index), [0, 1]);

    assert.equal((await rag.call('rag_delete', { collection: 'docs', source: 'docs/nope.md' })).code, 'RAG_SOURCE_NOT_FOUND');
    const one = await rag.call('rag_delete', { collection: 'docs', source: 'docs/guide.md' });
    assert.deepEqual(one, { collection: 'docs', source: 'docs/guide.md', deleted: { sources: 1, chunks: 3 } });
    const left = await rag.call('rag_query', { question: 'install configure gateway', collection: 'docs', top_k: 50 });
    assert.ok(!left.results.some((r: any) => r.source === 'docs/guide.md'));

    const whole = await rag.call('rag_delete', { collection: 'guide' });
    assert.deepEqual(whole, { collection: 'guide', deleted: { sources: 1, chunks: 3 } });
    assert.equal((await rag.call('rag_query', { question: 'install', collection: 'guide' })).code, 'RAG_COLLECTION_NOT_FOUND');
    assert.equal((await rag.call('rag_delete', { collection: 'guide' })).code, 'RAG_COLLECTION_NOT_FOUND');
    assert.equal((await rag.call('rag_retrieve', { source: 'docs/guide.md', collection: 'guide' })).code, 'RAG_COLLECTION_NOT_FOUND');
    assert.deepEqual((await rag.call('rag_collections', {})).collections.map((c: any) => c.name), ['docs']);

    // recreate empties the collection first.
    const fresh = await rag.call('rag_ingest', { path: 'docs/notes.txt', collection: 'docs', recreate: true });
    assert.equal(fresh.files.ingested, 1);
    assert.equal((await rag.call('rag_collections', {})).collections[0].sources, 1);
  });

  it('stores a file once when two ingests of it run at once', async (t) => {
    const rag = await bootRag(t, await backend.fresh(), { knowledge: { rag: { chunkChars: 300, overlapChars: 50 } } });
    for (let round = 0; round < 5; round++) {
      // New content each round, so that both ingests find the file changed and replace its chunks.
      writeTree(rag.workspace, { 'docs/pipeline.ts': `// round ${round}\n${CODE}` });
      const both = await Promise.all([rag.call('rag_ingest', { path: 'docs/pipeline.ts' }), rag.call('rag_ingest', { path: 'docs/pipeline.ts' })]);
      for (const out of both) assert.equal(out.isError, undefined, `round ${round}: ${JSON.stringify(out)}`);
      const stored = await rag.call('rag_retrieve', { source: 'docs/pipeline.ts', limit: 1000 });
      assert.equal(stored.count, stored.total, `round ${round}: ${stored.count} chunks stored for a source of ${stored.total}`);
      // Either ingest may come second and find the file already stored (unchanged, 0 added).
      assert.equal(stored.total, Math.max(...both.map((out: any) => out.chunks.added)));
      assert.deepEqual(
        stored.chunks.map((c: any) => c.chunk_index),
        Array.from({ length: stored.total }, (_, i) => i),
      );
      const [stats] = (await rag.call('rag_collections', {})).collections;
      assert.deepEqual([stats.sources, stats.chunks], [1, stored.total]);
    }
    // The search index holds no chunk twice either: every hit is a distinct stored chunk.
    const hits = (await rag.call('rag_query', { question: 'pipeline stage input', top_k: 50 })).results;
    assert.equal(new Set(hits.map((h: any) => h.chunk_index)).size, hits.length);
  });

  it('leaves no chunk without its source when a collection is deleted during an ingest into it', async (t) => {
    const rag = await bootRag(t, await backend.fresh(), { knowledge: { rag: { chunkChars: 300, overlapChars: 50 } } });
    const db = rag.gateway.store.db as any;
    for (let round = 0; round < 5; round++) {
      writeTree(rag.workspace, Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`docs/part${i}.ts`, `// round ${round}\n${CODE}`])));
      if (round % 2 === 1) await rag.call('rag_ingest', { path: 'docs', collection: 'race' }); // sometimes the sources are there already
      writeTree(rag.workspace, { 'docs/part0.ts': `// round ${round}, changed\n${CODE}` });
      const [ingested, deleted] = await Promise.all([rag.call('rag_ingest', { path: 'docs', collection: 'race' }), rag.call('rag_delete', { collection: 'race' })]);
      for (const out of [ingested, deleted]) assert.ok(out.isError === undefined || out.code === 'RAG_COLLECTION_NOT_FOUND', `round ${round}: ${JSON.stringify(out)}`);
      const sources: Array<{ collection: string; path: string; chunks: number }> = await db.selectFrom('knowledge_rag_sources').select(['collection', 'path', 'chunks']).execute();
      const chunks: Array<{ collection: string; source: string }> = await db.selectFrom('knowledge_rag_chunks').select(['collection', 'source']).execute();
      const counted = new Map<string, number>();
      for (const c of chunks) counted.set(`${c.collection}/${c.source}`, (counted.get(`${c.collection}/${c.source}`) ?? 0) + 1);
      const declared = new Map(sources.map((r) => [`${r.collection}/${r.path}`, Number(r.chunks)]));
      assert.deepEqual(counted, declared, `round ${round}: chunks stored per source against the sources' counts`);
      await rag.call('rag_delete', { collection: 'race' });
    }
  });
}
