import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Sandbox } from '../../../plugins/files/sandbox.js';
import { fails, filesGateway, ok, realTempDir } from './files-helpers.js';

// Folders are opened with the kernel resolving the path's links and the descriptor telling
// where it landed (Sandbox.openFolder); these check that it gives what resolve-then-open gave.
describe('files: opening a folder through the kernel', async () => {
  // base/root/          the sandbox
  //   a/link -> ../b/c  a link to a folder inside
  //   b/c/inner.txt
  //   out -> outside    a link to a folder outside
  //   fifo
  const base = realTempDir();
  const root = join(base, 'root');
  const outside = realTempDir('mcpgw-outside-');
  mkdirSync(join(root, 'a'), { recursive: true });
  mkdirSync(join(root, 'b', 'c'), { recursive: true });
  writeFileSync(join(root, 'a', 'only-in-a.txt'), 'a\n');
  writeFileSync(join(root, 'b', 'only-in-b.txt'), 'b\n');
  writeFileSync(join(root, 'b', 'c', 'inner.txt'), 'c\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync('../b/c', join(root, 'a', 'link'));
  symlinkSync(outside, join(root, 'out'));
  execFileSync('mkfifo', [join(root, 'fifo')]);

  const gateway = await filesGateway(base, { roots: ['root'] });
  const { client } = gateway;
  const sandbox = new Sandbox([root]);

  it('a link to a folder inside is listed, under its real path', async () => {
    assert.deepEqual(await ok(client, 'dir_list', { path: 'a/link', detail: 'names' }), { path: 'b/c', names: ['inner.txt'] });
  });

  it('`..` after a link goes up by the name, as resolve does, not to the target\'s parent', async () => {
    assert.deepEqual(await ok(client, 'dir_list', { path: 'a/link/..', detail: 'names' }), { path: 'a', names: ['link', 'only-in-a.txt'] });
  });

  it('opens the same real path that resolve gives, for relative and absolute paths', async () => {
    const expected: Array<[string, string]> = [
      ['.', root],
      ['a', join(root, 'a')],
      ['a/link', join(root, 'b', 'c')],
      ['a/link/..', join(root, 'a')],
      [join(root, 'b', 'c'), join(root, 'b', 'c')],
      [join(root, 'a', 'link'), join(root, 'b', 'c')],
    ];
    for (const [path, real] of expected) {
      const dir = await sandbox.openFolder(path);
      try {
        assert.deepEqual([dir.path, sandbox.resolve(path)], [real, real], path);
      } finally {
        await dir.close();
      }
    }
  });

  it('refuses a folder outside, a file, a FIFO and a missing folder with the codes it always had', async () => {
    await fails(client, 'dir_list', { path: 'out' }, 'OUTSIDE_WORKSPACE');
    await fails(client, 'dir_list', { path: outside }, 'OUTSIDE_WORKSPACE');
    await fails(client, 'dir_list', { path: '/' }, 'OUTSIDE_WORKSPACE');
    await fails(client, 'dir_list', { path: 'b/only-in-b.txt' }, 'NOT_A_DIRECTORY');
    // O_DIRECTORY refuses a FIFO before any open of it could wait for a writer.
    await fails(client, 'dir_list', { path: 'fifo' }, 'NOT_A_DIRECTORY');
    await fails(client, 'dir_list', { path: 'nowhere' }, 'FILE_NOT_FOUND');
    await fails(client, 'dir_tree', { path: 'out' }, 'OUTSIDE_WORKSPACE');
  });

  it('closes the descriptor of a folder it opened and then refused: none is left open', async () => {
    const openDescriptors = () => readdirSync('/proc/self/fd').length;
    const refusals = [{ path: 'out' }, { path: outside }, { path: '/' }, { path: 'a/../../' }];
    for (const args of refusals) await client.callTool({ name: 'dir_list', arguments: args });
    const before = openDescriptors();
    for (let i = 0; i < 25; i++) for (const args of refusals) await client.callTool({ name: 'dir_list', arguments: args });
    // A leak would leave 100 more; a few may be the gateway's own (its database, a worker).
    assert.ok(openDescriptors() < before + 10, `${openDescriptors() - before} more descriptors open after 100 refusals`);
  });
});
