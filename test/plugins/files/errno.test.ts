import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { memoryClient, startGateway } from '../../helpers.js';
import { fails, ok, realTempDir } from './files-helpers.js';

describe('files: errno failures that have a code of their own', async () => {
  const base = realTempDir();
  const ws = join(base, 'ws');
  mkdirSync(ws);
  const gateway = await startGateway({ plugins: { files: { config: { roots: ['ws'] } } } }, base);
  const client = await memoryClient(gateway);

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
    // A real full file system: a 1 MiB tmpfs mounted as the sandbox root.
    if (process.getuid?.() !== 0) return t.skip('needs root to mount a tmpfs');
    // Its own temp folder rather than tempDir(): the tmpfs must be unmounted before removal.
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpgw-')));
    const disk = join(base, 'disk');
    mkdirSync(disk);
    let mounted = false;
    t.after(() => {
      // Lazy: the gateway is closed only when the file ends, and still holds the folder open.
      if (mounted) execFileSync('umount', ['-l', disk]);
      rmSync(base, { recursive: true, force: true });
    });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      return t.skip(`mount -t tmpfs failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
    }
    const gateway = await startGateway({ plugins: { files: { config: { roots: ['disk'] } } } }, base);
    const client = await memoryClient(gateway);
    writeFileSync(join(disk, 'keep.txt'), 'old\n');
    fill(join(disk, 'filler'));
    const before = readdirSync(disk).sort();
    const error = await fails(client, 'file_write', { path: 'new.txt', content: 'x'.repeat(256 * 1024) }, 'NO_SPACE');
    assert.match(error.message, /full/);
    await fails(client, 'file_write', { path: 'keep.txt', content: 'y'.repeat(256 * 1024) }, 'NO_SPACE');
    await fails(client, 'file_edit', { path: 'keep.txt', old_string: 'old', new_string: 'z'.repeat(256 * 1024) }, 'NO_SPACE');
    assert.deepEqual(readdirSync(disk).sort(), before);
    assert.equal(readFileSync(join(disk, 'keep.txt'), 'utf8'), 'old\n');
  });
});

/** Appends to `file` until the file system says it is full. */
function fill(file: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeFileSync(file, chunk, { flag: 'a' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
}
