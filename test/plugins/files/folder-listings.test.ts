import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { openDir, withDir, type VerifiedDir } from '../../../core/index.js';
import { FolderListings, READ_ON_MAIN_THREAD_BYTES, SETTLED_MS, stampsChanges } from '../../../plugins/files/folder-listings.js';
import { tempDir } from '../../helpers.js';
import { filesGateway, ok, realTempDir } from './files-helpers.js';

/** `fn` of the folder at the real path `path`, opened for it and closed after. */
const opened = <T>(path: string, fn: (dir: VerifiedDir) => T | Promise<T>) => withDir(openDir(path), async (dir) => fn(dir));

const read = (listings: FolderListings, path: string) => opened(path, (dir) => listings.read(dir));
const names = (entries: Awaited<ReturnType<typeof read>>) => entries.map((e) => (e.kind === 'folder' ? `${e.name}/` : e.name));

/** Folders of three entries each (a.txt, b.txt, sub/) under a new temp folder. */
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
  // Everything a test lists is made here and left to settle once, for all of them.
  const at = folders('kept', 'added', 'removed', 'renamed', 'retyped', 'swapped', 'spare', 'first', 'second', 'third', 'fourth', 'fifth', 'wide', 'gateway');
  writeFileSync(join(at.wide!, 'c.txt'), '');
  const empty = realTempDir();
  const large = realTempDir();
  // Long names make the folder pass 64 KiB with fewer entries (tmpfs counts 20 bytes an entry).
  for (let i = 3_999; i >= 0; i--) writeFileSync(join(large, `entry-with-a-rather-long-name-${String(i).padStart(5, '0')}.txt`), '');
  // Looked up now, so that its inode (made on lookup) is as settled as the others when listed.
  if (existsSync('/proc/sys')) readdirSync('/proc/sys');
  const keeps = await opened(at.kept!, stampsChanges);
  const onStamping = { skip: !keeps && 'the temp folder is on a filesystem whose listings are not kept' };
  await sleep(SETTLED_MS + 200);

  it('a settled folder is listed sorted, and served again while it is unchanged', onStamping, async () => {
    const listings = new FolderListings(20_000);
    const first = await read(listings, at.kept!);
    assert.deepEqual(names(first), ['a.txt', 'b.txt', 'sub/']);
    assert.equal(await read(listings, at.kept!), first, 'the second listing is the kept one');
    assert.ok(Object.isFrozen(first), 'shared by every call, so no call can change it');
  });

  it('an entry added, removed, renamed or retyped is listed at once, even right after the listing was kept', onStamping, async () => {
    const listings = new FolderListings(20_000);
    const changes: Array<[string, (path: string) => void, string[]]> = [
      ['added', (p) => writeFileSync(join(p, 'c.txt'), ''), ['a.txt', 'b.txt', 'c.txt', 'sub/']],
      ['removed', (p) => unlinkSync(join(p, 'a.txt')), ['b.txt', 'sub/']],
      ['renamed', (p) => renameSync(join(p, 'a.txt'), join(p, 'z.txt')), ['b.txt', 'sub/', 'z.txt']],
      // The same name, now a folder: only the type changes.
      ['retyped', (p) => (unlinkSync(join(p, 'b.txt')), mkdirSync(join(p, 'b.txt'))), ['a.txt', 'b.txt/', 'sub/']],
    ];
    for (const [name, change, expected] of changes) {
      const path = at[name]!;
      const kept = await read(listings, path);
      assert.equal(await read(listings, path), kept, `${name}: kept before the change`);
      change(path);
      assert.deepEqual(names(await read(listings, path)), expected, name);
    }
  });

  it('a folder changed within the last second is read again on every listing', async () => {
    const listings = new FolderListings(20_000);
    const path = at.kept!;
    utimesSync(path, new Date(), new Date());
    const first = await read(listings, path);
    const second = await read(listings, path);
    assert.notEqual(second, first);
    assert.deepEqual(names(second), names(first));
  });

  it('another folder put in the place of a listed one is listed as itself', async () => {
    const listings = new FolderListings(20_000);
    await read(listings, at.swapped!);
    writeFileSync(join(at.spare!, 'only-in-spare.txt'), '');
    renameSync(at.swapped!, `${at.swapped}.old`);
    renameSync(at.spare!, at.swapped!);
    assert.deepEqual(names(await read(listings, at.swapped!)), ['a.txt', 'b.txt', 'only-in-spare.txt', 'sub/']);
  });

  it('past maxEntries the least recently listed folder is dropped; a folder of more than a quarter of it is never kept', onStamping, async () => {
    // Folders of three entries: four fit in twelve, and three is a quarter of it.
    const listings = new FolderListings(12);
    const [first, second] = [await read(listings, at.first!), await read(listings, at.second!)];
    await read(listings, at.third!);
    await read(listings, at.fourth!);
    assert.equal(await read(listings, at.first!), first, 'listed again: now the most recent');
    await read(listings, at.fifth!);
    assert.equal(await read(listings, at.first!), first, 'kept');
    assert.notEqual(await read(listings, at.second!), second, 'dropped for the fifth');

    const wide = await read(listings, at.wide!);
    assert.equal(wide.length, 4);
    assert.notEqual(await read(listings, at.wide!), wide, 'four entries are more than a quarter of twelve');
    assert.equal(await read(listings, at.first!), first, 'and a folder not kept pushes no other out');
  });

  it('0 keeps nothing, not even an empty folder', async () => {
    const listings = new FolderListings(0);
    assert.notEqual(await read(listings, at.kept!), await read(listings, at.kept!));
    assert.notEqual(await read(listings, empty), await read(listings, empty));
  });

  it('a folder on a filesystem that does not stamp its changes (/proc) is read on every listing', { skip: !existsSync('/proc/sys') && 'no /proc/sys here' }, async () => {
    assert.equal(await opened('/proc/sys', stampsChanges), false);
    const listings = new FolderListings(20_000);
    assert.notEqual(await read(listings, '/proc/sys'), await read(listings, '/proc/sys'));
  });

  it('a folder too large to read on the main thread is read on the thread pool, sorted, and not kept', async (t) => {
    if (statSync(large).size <= READ_ON_MAIN_THREAD_BYTES) return t.skip('this filesystem gives folders a size other than the bytes of their entries (zfs: their number)');
    const listings = new FolderListings(20_000);
    const first = await read(listings, large);
    assert.equal(first.length, 4_000);
    assert.ok(names(first).every((name, i, all) => i === 0 || all[i - 1]! < name), 'sorted by name');
    assert.notEqual(await read(listings, large), first);
  });

  it('dir_list answers from what the folder holds now: a file\'s new size, a new file', async () => {
    const folder = at.gateway!;
    const gateway = await filesGateway(tempDir(), { roots: [folder] });
    const { client } = gateway;
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
