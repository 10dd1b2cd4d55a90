import assert from 'node:assert/strict';
import { appendFileSync, constants, mkdirSync, openSync, renameSync, rmSync, statSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { VerifiedDir } from '../../../core/verified-dir.js';
import { FolderListings, READ_ON_MAIN_THREAD_BYTES, SETTLED_MS, STAMPING_FILESYSTEMS } from '../../../plugins/files/folder-listings.js';
import { memoryClient, startGateway } from '../../helpers.js';
import { ok, realTempDir } from './files-helpers.js';

/** Long enough for a folder made now to be kept. */
const SETTLE_MS = SETTLED_MS + 200;

const open = (path: string) => new VerifiedDir(openSync(path, constants.O_RDONLY | constants.O_DIRECTORY), path);

/** `listings.read` of the folder at `path`, opened for it and closed after. */
async function read(listings: FolderListings, path: string) {
  const dir = open(path);
  try {
    return await listings.read(dir);
  } finally {
    await dir.close();
  }
}

const names = (entries: Awaited<ReturnType<typeof read>>) => entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name));

/** Folders of three entries each under a new temp folder, settled before the tests run. */
function folders(...named: string[]): Record<string, string> {
  const base = realTempDir();
  return Object.fromEntries(
    named.map((name) => {
      const path = join(base, name);
      mkdirSync(join(path, 'sub'), { recursive: true });
      writeFileSync(join(path, 'b.txt'), 'b\n');
      writeFileSync(join(path, 'a.txt'), 'a\n');
      return [name, path];
    }),
  );
}

describe('files: listings of unchanged folders are kept', async () => {
  const at = folders('kept', 'added', 'removed', 'renamed', 'retyped', 'swapped', 'spare', 'first', 'second', 'gateway');
  // On another filesystem nothing is kept: only what the listings say is checked.
  const keeps = STAMPING_FILESYSTEMS.has(statfsSync(at.kept!).type);
  await sleep(SETTLE_MS);

  it('a settled folder is listed sorted, and served again while it is unchanged', { skip: !keeps && 'the temp folder is on a filesystem whose listings are not kept' }, async () => {
    const listings = new FolderListings();
    const first = await read(listings, at.kept!);
    assert.deepEqual(names(first), ['a.txt', 'b.txt', 'sub/']);
    assert.equal(await read(listings, at.kept!), first, 'the second listing is the kept one');
  });

  it('an entry added, removed, renamed or retyped is listed at once, even right after the listing was kept', async () => {
    const listings = new FolderListings();
    const changes: Array<[string, (path: string) => void, string[]]> = [
      ['added', (p) => writeFileSync(join(p, 'c.txt'), ''), ['a.txt', 'b.txt', 'c.txt', 'sub/']],
      ['removed', (p) => unlinkSync(join(p, 'a.txt')), ['b.txt', 'sub/']],
      ['renamed', (p) => renameSync(join(p, 'a.txt'), join(p, 'z.txt')), ['b.txt', 'sub/', 'z.txt']],
      // The same name, now a folder: only the type changes.
      ['retyped', (p) => (unlinkSync(join(p, 'b.txt')), mkdirSync(join(p, 'b.txt'))), ['a.txt', 'b.txt/', 'sub/']],
    ];
    for (const [name, change, expected] of changes) {
      const path = at[name]!;
      await read(listings, path);
      change(path);
      assert.deepEqual(names(await read(listings, path)), expected, name);
    }
  });

  it('a folder changed within the last second is read again on every listing', async () => {
    const listings = new FolderListings();
    const fresh = folders('fresh').fresh!;
    const first = await read(listings, fresh);
    const second = await read(listings, fresh);
    assert.notEqual(second, first);
    assert.deepEqual(names(second), names(first));
  });

  it('another folder put in the place of a listed one is listed as itself', async () => {
    const listings = new FolderListings();
    await read(listings, at.swapped!);
    writeFileSync(join(at.spare!, 'only-in-spare.txt'), '');
    renameSync(at.swapped!, `${at.swapped}.old`);
    renameSync(at.spare!, at.swapped!);
    assert.deepEqual(names(await read(listings, at.swapped!)), ['a.txt', 'b.txt', 'only-in-spare.txt', 'sub/']);
  });

  it('the least recently listed folders are dropped past maxEntries', { skip: !keeps && 'the temp folder is on a filesystem whose listings are not kept' }, async () => {
    const listings = new FolderListings(5);
    const first = await read(listings, at.first!);
    const second = await read(listings, at.second!);
    assert.equal(await read(listings, at.second!), second, 'the last listed is kept');
    assert.notEqual(await read(listings, at.first!), first, 'three entries and three more are past five: the first was dropped');
  });

  it('a folder on a filesystem that does not stamp its changes (/proc) is read on every listing', async () => {
    const listings = new FolderListings();
    const first = await read(listings, '/proc/sys');
    assert.notEqual(await read(listings, '/proc/sys'), first);
  });

  it('a folder too large to read on the main thread is read on the thread pool, sorted, and not kept', async () => {
    const listings = new FolderListings();
    const large = realTempDir();
    // Long names make the folder pass 64 KiB with fewer entries (tmpfs counts 20 bytes an entry).
    for (let i = 3_999; i >= 0; i--) writeFileSync(join(large, `entry-with-a-rather-long-name-${String(i).padStart(5, '0')}.txt`), '');
    assert.ok(statSync(large).size > READ_ON_MAIN_THREAD_BYTES, 'the folder is large enough for the thread pool');
    await sleep(SETTLE_MS);
    const first = await read(listings, large);
    assert.equal(first.length, 4_000);
    assert.ok(names(first).every((name, i, all) => i === 0 || all[i - 1]! < name), 'sorted by name');
    assert.notEqual(await read(listings, large), first);
    rmSync(large, { recursive: true });
  });

  it('dir_list answers from what the folder holds now: a file\'s new size, a new file', async () => {
    const folder = at.gateway!;
    const gateway = await startGateway({ plugins: { files: { config: { roots: [folder] } } } });
    const client = await memoryClient(gateway);
    const listed = async () => (await ok(client, 'dir_list', { path: folder, detail: 'names' })).names;
    const sizes = async () => (await ok(client, 'dir_list', { path: folder })).entries.map((e: { name: string; size: number }) => [e.name, e.size]);
    assert.deepEqual(await listed(), ['a.txt', 'b.txt', 'sub/']);
    assert.deepEqual(await sizes(), [['a.txt', 2], ['b.txt', 2], ['sub', 0]]);
    // A file's content is not its folder's: the listing may be kept, the size is the file's now.
    appendFileSync(join(folder, 'a.txt'), 'more\n');
    assert.deepEqual(await sizes(), [['a.txt', 7], ['b.txt', 2], ['sub', 0]]);
    writeFileSync(join(folder, 'new.txt'), '');
    assert.deepEqual(await listed(), ['a.txt', 'b.txt', 'new.txt', 'sub/']);
  });
});
