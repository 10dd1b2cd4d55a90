import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { closeFd, openFd, readFileNoFollow, readWhole } from '../../../core/fs/file-descriptor.js';

describe('core file descriptor reads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgw-fd-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const withFd = async <T>(path: string, use: (fd: number) => Promise<T>): Promise<T> => {
    const fd = await openFd(path, 'r');
    try {
      return await use(fd);
    } finally {
      await closeFd(fd);
    }
  };

  it('reads a file of the size it was given whole, and a shorter one as it is', async () => {
    const path = join(dir, 'same.txt');
    writeFileSync(path, 'hello world');
    assert.equal((await withFd(path, (fd) => readWhole(fd, 11))).toString(), 'hello world');
    assert.equal((await withFd(path, (fd) => readWhole(fd, 50))).toString(), 'hello world');
    assert.equal((await withFd(path, (fd) => readWhole(fd, 0))).length, 1);
  });

  it('reads a file that grew since its size was taken only to that size plus one byte', async () => {
    const path = join(dir, 'grown.bin');
    // The caller saw 4 bytes; the file has 8 MiB now.
    writeFileSync(path, Buffer.alloc(8 << 20, 0x61));
    const bytes = await withFd(path, (fd) => readWhole(fd, 4));
    assert.equal(bytes.length, 5, 'one byte past the size says it grew; the rest is not read');
    const empty = join(dir, 'was-empty.txt');
    writeFileSync(empty, 'now something');
    assert.equal((await withFd(empty, (fd) => readWhole(fd, 0))).toString(), 'n');
  });

  it('readFileNoFollow gives the bytes with the fstat they were read by', async () => {
    const path = join(dir, 'plain.txt');
    writeFileSync(path, 'abc');
    const read = await readFileNoFollow(path, () => undefined);
    assert.ok('bytes' in read);
    assert.deepEqual([read.bytes.toString(), read.info.size], ['abc', 3]);
  });
});
