import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SearchWorkers, type SearchRequest } from '../../../plugins/files/search.js';
import { realTempDir } from './files-helpers.js';

/** A fresh SearchWorkers for one test, closed after it whatever happens. */
async function withWorkers(test: (workers: SearchWorkers) => Promise<void>): Promise<void> {
  const workers = new SearchWorkers();
  try {
    await test(workers);
  } finally {
    await workers.close();
  }
}

describe('SearchWorkers: warm search workers', () => {
  const root = realTempDir();
  writeFileSync(join(root, 'a.txt'), 'alpha\nneedle one\n');
  writeFileSync(join(root, 'b.txt'), 'beta\nother thing\n');
  mkdirSync(join(root, 'redos'));
  writeFileSync(join(root, 'redos', 'line.txt'), `${'a'.repeat(40)}!\n`);

  const request = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({
    start: root,
    query,
    regex: false,
    caseSensitive: true,
    gitignore: true,
    contextLines: 0,
    maxResults: 100,
    maxFileBytes: 1 << 20,
    maxEntries: 1000,
    refuseHardLinks: false,
    ...extra,
  });
  const never = new AbortController().signal;
  const paths = (result: { matches: Array<{ path: string; line: number }> }) => result.matches.map((m) => `${m.path}:${m.line}`);

  it('a second search reuses the first one’s worker', { timeout: 30_000 }, () =>
    withWorkers(async (workers) => {
      assert.deepEqual(paths(await workers.search(request('needle'), never)), ['a.txt:2']);
      assert.deepEqual(paths(await workers.search(request('other'), never)), ['b.txt:2']);
      assert.equal(workers.started, 1);
    }));

  it('concurrent searches each get a worker, and one of them is kept warm', { timeout: 30_000 }, () =>
    withWorkers(async (workers) => {
      const both = () => Promise.all([workers.search(request('needle'), never), workers.search(request('other'), never)]);
      assert.deepEqual((await both()).map(paths), [['a.txt:2'], ['b.txt:2']]);
      assert.equal(workers.started, 2);
      // One idle worker was kept (not 0: that would start two more), and only one (not 2: none more).
      await both();
      assert.equal(workers.started, 3);
    }));

  it('an aborted search does not poison the next: its worker is dropped, its late reply never delivered', { timeout: 30_000 }, () =>
    withWorkers(async (workers) => {
      await workers.search(request('needle'), never);
      // A quick search aborted at once: a reused worker would still answer it, and that
      // answer would reach the next call.
      const quick = new AbortController();
      const aborted = workers.search(request('needle'), quick.signal);
      quick.abort(new Error('cancelled by the test'));
      await assert.rejects(aborted, { message: 'cancelled by the test' });
      assert.deepEqual(paths(await workers.search(request('other'), never)), ['b.txt:2']);
      // A catastrophic regex: a reused worker would make the next search wait behind it.
      const redos = new AbortController();
      const stuck = workers.search(request('^(\\w+\\s?)*$', { regex: true, start: join(root, 'redos') }), redos.signal);
      redos.abort(new Error('too slow'));
      await assert.rejects(stuck, { message: 'too slow' });
      assert.deepEqual(paths(await workers.search(request('needle'), never)), ['a.txt:2']);
      assert.equal(workers.started, 3);
    }));

  it('an already aborted signal and an invalid regex are refused without a worker', async () => {
    const workers = new SearchWorkers();
    await assert.rejects(workers.search(request('needle'), AbortSignal.abort(new Error('gone'))), { message: 'gone' });
    await assert.rejects(workers.search(request('(unclosed', { regex: true }), never), { code: 'INVALID_ARGUMENTS' });
    assert.equal(workers.started, 0);
  });

  it('close() ends the idle worker; a later search starts a new one', { timeout: 30_000 }, async () => {
    const workers = new SearchWorkers();
    await workers.search(request('needle'), never);
    await workers.close();
    assert.deepEqual(paths(await workers.search(request('needle'), never)), ['a.txt:2']);
    assert.equal(workers.started, 2);
    await workers.close();
  });

  it('an idle worker does not keep the process alive', { timeout: 60_000 }, () => {
    const module = import.meta.resolve('../../../plugins/files/search.js');
    const script = `
      const { SearchWorkers } = await import(${JSON.stringify(module)});
      const result = await new SearchWorkers().search(${JSON.stringify(request('needle'))}, new AbortController().signal);
      process.stderr.write(String(result.matches.length));
    `;
    // A file, not `--input-type=module -e`: worker threads inherit the process's flags, and
    // --input-type refuses a worker's file entry.
    const entry = join(realTempDir(), 'idle-worker.mjs');
    writeFileSync(entry, script);
    // The timeout is a safety net for a failing run, not a measurement.
    const child = spawnSync(process.execPath, [entry], { encoding: 'utf8', timeout: 45_000 });
    assert.equal(child.signal, null, 'the process should end by itself once the search is done');
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stderr, '1');
  });
});
