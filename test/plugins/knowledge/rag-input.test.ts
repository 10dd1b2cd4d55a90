import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resultJson } from '../../helpers.js';
import { storeBackends } from '../../support/store-backends.js';
import { bootRag, writeTree } from './rag-helpers.js';

// Bad input to rag_ingest, progress and cancellation: behaviour of the plugin, not of the
// store, so on SQLite only.
const sqlite = storeBackends().find((b) => b.name === 'sqlite')!;

describe('rag_ingest: refusals, skips, caps', () => {
  before(() => sqlite.start());
  after(() => sqlite.stop());
  const outside = mkdtempSync(join(tmpdir(), 'mcpgw-rag-outside-'));
  after(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, 'secret.md'), '# Secret\n\nOutside the workspace.\n');

  it('refuses paths that are outside, missing, not files, or in a kernel tree, each with its code', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh());
    writeTree(rag.workspace, { 'docs/a.md': '# A\n\ntext\n' });
    symlinkSync(outside, join(rag.workspace, 'link-out'));
    symlinkSync(join(outside, 'secret.md'), join(rag.workspace, 'secret-link.md'));
    execFileSync('mkfifo', [join(rag.workspace, 'pipe')]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: '../' }, 'OUTSIDE_WORKSPACE'],
      [{ path: '/etc' }, 'OUTSIDE_WORKSPACE'],
      [{ path: '/proc/self/environ' }, 'OUTSIDE_WORKSPACE'],
      [{ path: 'link-out' }, 'OUTSIDE_WORKSPACE'],
      [{ path: 'secret-link.md' }, 'OUTSIDE_WORKSPACE'],
      [{ path: 'docs/missing.md' }, 'RAG_PATH_NOT_FOUND'],
      [{ path: 'pipe' }, 'RAG_NOT_INGESTIBLE'],
      [{ path: 'docs/\u0000a.md' }, 'INVALID_PATH'],
      [{ path: 'docs', collection: 'Bad Name' }, 'INVALID_ARGUMENTS'],
      [{ path: 'docs', extra: true }, 'INVALID_ARGUMENTS'],
      [{}, 'INVALID_ARGUMENTS'],
    ];
    for (const [args, code] of cases) {
      const out = await rag.call('rag_ingest', args);
      assert.equal(out.code, code, `${JSON.stringify(args)}: ${JSON.stringify(out)}`);
    }
    const rest = await rag.rest('rag_ingest', { path: 'pipe' });
    assert.equal(rest.status, 422);
    assert.equal((await rag.call('rag_collections', {})).collections.length, 0);
  });

  it('refuses /proc and /dev even when the workspace is /', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh(), { workspace: '/' });
    for (const path of ['/proc', '/proc/self/status', '/dev/null', '/sys/kernel']) {
      const out = await rag.call('rag_ingest', { path });
      assert.equal(out.code, 'RAG_NOT_INGESTIBLE', `${path}: ${JSON.stringify(out)}`);
    }
  });

  it('skips, with the reason and without opening them, a FIFO, links and a sparse 2 GiB file met in a folder', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh());
    const docs = join(rag.workspace, 'docs');
    writeTree(rag.workspace, { 'docs/ok.md': '# Fine\n\nA document.\n', 'docs/in.md': '# Inside\n' });
    execFileSync('mkfifo', [join(docs, 'fifo')]);
    symlinkSync(join(outside, 'secret.md'), join(docs, 'out-link.md'));
    symlinkSync('in.md', join(docs, 'in-link.md'));
    const fd = openSync(join(docs, 'huge.txt'), 'w');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    assert.ok(statSync(join(docs, 'huge.txt')).blocks * 512 < 1024 * 1024, 'the 2 GiB file is sparse');

    const out = await rag.call('rag_ingest', { path: 'docs' });
    assert.deepEqual(out.files.skipped, [
      { path: 'docs/fifo', reason: 'a FIFO, not a regular file: not opened' },
      { path: 'docs/huge.txt', reason: `${2 * 1024 ** 3} bytes, over maxFileBytes (${4 * 1024 * 1024}): not read` },
      { path: 'docs/in-link.md', reason: 'symbolic link: not followed' },
      { path: 'docs/out-link.md', reason: 'symbolic link: not followed' },
    ]);
    assert.equal(out.files.ingested, 2);
    const secret = await rag.call('rag_query', { question: 'secret outside workspace' });
    assert.deepEqual(secret.results.filter((r: any) => /secret|outside/i.test(r.content)), []);

    // Given directly, the 2 GiB file is skipped too, not read.
    const huge = await rag.call('rag_ingest', { path: 'docs/huge.txt', collection: 'huge' });
    assert.equal(huge.files.ingested, 0);
    assert.match(huge.files.skipped[0].reason, /over maxFileBytes/);
  });

  it('stops at maxFiles and maxIngestBytes, says so, and then removes nothing', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh(), { knowledge: { rag: { maxFiles: 2, maxIngestBytes: 100 } } });
    writeTree(rag.workspace, { 'd/a.md': '# A\n\nalpha\n', 'd/b.md': '# B\n\nbeta\n' });
    const first = await rag.call('rag_ingest', { path: 'd' });
    assert.equal(first.truncated, undefined);
    writeTree(rag.workspace, { 'd/0.md': '# Zero\n\nzero\n' });
    const capped = await rag.call('rag_ingest', { path: 'd' });
    assert.match(capped.truncated, /maxFiles \(2\)/);
    assert.equal(capped.files.removed, 0);
    assert.equal((await rag.call('rag_collections', {})).collections[0].sources, 3);

    writeTree(rag.workspace, { 'e/a.txt': 'x'.repeat(80), 'e/b.txt': 'y'.repeat(80) });
    const bytes = await rag.call('rag_ingest', { path: 'e', collection: 'bytes' });
    assert.match(bytes.truncated, /maxIngestBytes \(100\) reached at "e\/b.txt"/);
    assert.equal(bytes.files.ingested, 1);
  });

  it('honours include and exclude globs', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh());
    writeTree(rag.workspace, { 'p/a.md': '# A\n', 'p/b.ts': 'const b = 1;\n', 'p/dist/c.md': '# C\n', 'p/sub/d.md': '# D\n' });
    const out = await rag.call('rag_ingest', { path: 'p', include: ['**/*.md', '*.md'], exclude: ['dist'] });
    assert.equal(out.files.seen, 2);
    const sources = (await rag.call('rag_query', { question: 'a d', top_k: 10 })).results.map((r: any) => r.source).sort();
    assert.deepEqual(sources, ['p/a.md', 'p/sub/d.md']);
  });
});

describe('rag_ingest: progress and cancellation', () => {
  before(() => sqlite.start());
  after(() => sqlite.stop());

  it('sends progress notifications per batch of files to an SDK client that asked for them', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh(), { knowledge: { rag: { batchSize: 5 } } });
    writeTree(rag.workspace, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`many/f${i}.md`, `# File ${i}\n\nbody ${i}\n`])));
    const seen: Array<{ progress: number; total?: number }> = [];
    const result = await rag.client.callTool({ name: 'rag_ingest', arguments: { path: 'many' } }, {
      onprogress: (p) => seen.push({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}) }),
    });
    assert.equal(resultJson(result).files.ingested, 12);
    assert.deepEqual(seen, [
      { progress: 5, total: 12 },
      { progress: 10, total: 12 },
      { progress: 12, total: 12 },
    ]);
  });

  it('stops when cancelled, leaving every file either whole or absent; a later ingest completes', async (t) => {
    const rag = await bootRag(t, await sqlite.fresh(), { knowledge: { rag: { batchSize: 1, chunkChars: 200, overlapChars: 20 } } });
    const body = (i: number) => `# File ${i}\n\n${Array.from({ length: 40 }, (_, l) => `line ${l} of file ${i} with some words`).join('\n')}\n`;
    writeTree(rag.workspace, Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`big/f${String(i).padStart(3, '0')}.md`, body(i)])));
    const controller = new AbortController();
    const call = rag.client.callTool({ name: 'rag_ingest', arguments: { path: 'big' } }, {
      signal: controller.signal,
      onprogress: (p) => {
        if (p.progress >= 3) controller.abort();
      },
    });
    await assert.rejects(call);
    // The handler stops at the next file; wait until the collection no longer changes (for half
    // a second: a loaded machine may take a while to commit the file in progress).
    let before = -1;
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const now = (await rag.call('rag_collections', {})).collections[0]?.chunks ?? 0;
      if (now === before) break;
      before = now;
    }
    const [stats] = (await rag.call('rag_collections', {})).collections;
    assert.ok(stats.sources >= 3 && stats.sources < 400, `stopped early: ${stats.sources} sources`);
    // Every source that is there has all of its chunks, in order.
    const per = (await rag.call('rag_retrieve', { source: 'big/f000.md' })).total;
    assert.equal(stats.chunks, stats.sources * per);
    const rows = await rag.gateway.store.db
      .selectFrom('knowledge_rag_sources as s')
      .innerJoin('knowledge_rag_chunks as c', (j) => j.onRef('c.source', '=', 's.path').onRef('c.collection', '=', 's.collection'))
      .select(['s.path', 's.chunks'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy(['s.path', 's.chunks'])
      .execute();
    for (const row of rows) assert.equal(Number(row.n), row.chunks, row.path);

    const done = await rag.call('rag_ingest', { path: 'big' });
    assert.equal(done.files.unchanged, stats.sources);
    assert.equal(done.files.ingested, 400 - stats.sources);
  });
});
