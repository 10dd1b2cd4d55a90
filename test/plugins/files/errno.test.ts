import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mountTinyDisk } from '../../support/tiny-disk.js';
import { fails, filesGateway, ok, realTempDir } from './files-helpers.js';

describe('files: errno failures that have a code of their own', async () => {
  const base = realTempDir();
  const ws = join(base, 'ws');
  mkdirSync(ws);
  const gateway = await filesGateway(base, { roots: ['ws'] });
  const { client } = gateway;

  it('reading or editing a unix socket → NOT_A_REGULAR_FILE, not INTERNAL_ERROR', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(ws, 'app.sock'), resolve));
    after(() => server.close());
    for (const [tool, args] of [
      ['file_read', { path: 'app.sock' }],
      ['file_read_media', { path: 'app.sock' }],
      ['file_edit', { path: 'app.sock', old_string: 'a', new_string: 'b' }],
    ] as const) {
      const error = await fails(client, tool, args, 'NOT_A_REGULAR_FILE');
      assert.match(error.message, /app\.sock/);
    }
    const { files } = await ok(client, 'file_read_many', { paths: ['app.sock'] });
    assert.equal(files[0].error.code, 'NOT_A_REGULAR_FILE');
  });
});

describe('files: a full disk', () => {
  it('file_write and file_edit → NO_SPACE, and no temporary file is left behind', async (t) => {
    // A real full file system as the sandbox root; the gateway's data stays off it, or its
    // audit journal would fail first (AUDIT_UNAVAILABLE).
    const disk = mountTinyDisk();
    if (typeof disk === 'string') return t.skip(disk);
    const gateway = await filesGateway(realTempDir(), { roots: [disk.dir] });
    const { client } = gateway;
    writeFileSync(join(disk.dir, 'keep.txt'), 'old\n');
    disk.fill();
    const before = readdirSync(disk.dir).sort();
    const error = await fails(client, 'file_write', { path: 'new.txt', content: 'x'.repeat(256 * 1024) }, 'NO_SPACE');
    assert.match(error.message, /full/);
    await fails(client, 'file_write', { path: 'keep.txt', content: 'y'.repeat(256 * 1024) }, 'NO_SPACE');
    await fails(client, 'file_edit', { path: 'keep.txt', old_string: 'old', new_string: 'z'.repeat(256 * 1024) }, 'NO_SPACE');
    assert.deepEqual(readdirSync(disk.dir).sort(), before);
    assert.equal(readFileSync(join(disk.dir, 'keep.txt'), 'utf8'), 'old\n');
  });
});
