// Core's one workspace read (Workspace.readFile, readFileInside): what every plugin's reads of
// workspace files go through, so that its rules hold for all of them at once (issue 34, item 4).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, realpathSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../../core/config/config.js';
import { readFileInside } from '../../../core/fs/workspace-file.js';
import { readWalkedFile, walk } from '../../../core/fs/workspace-walk.js';
import { createWorkspace } from '../../../core/fs/workspace.js';
import { tempDir } from '../../helpers.js';

/** base/ws the workspace; base/outside what it must not read. */
function layout() {
  const base = realpathSync(tempDir('mcpgw-wsfile-'));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(ws, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'plain.txt'), 'plain\n');
  writeFileSync(join(outside, 'secret.txt'), 'SECRET\n');
  linkSync(join(outside, 'secret.txt'), join(ws, 'linked.txt'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'symlink.txt'));
  execFileSync('mkfifo', [join(ws, 'pipe')]);
  writeFileSync(join(ws, 'big.txt'), '');
  truncateSync(join(ws, 'big.txt'), 1024 * 1024 * 1024); // sparse: takes no disk
  return { base, ws, outside };
}

const CAP = { maxBytes: 1024 };

describe('workspace read (Workspace.readFile)', () => {
  const { ws, outside } = layout();
  const workspace = createWorkspace(ws);

  it('reads a plain file, and says where it resolved', async () => {
    const read = await workspace.readFile('plain.txt', CAP);
    assert.equal(read.bytes.toString(), 'plain\n');
    assert.equal(read.real, join(ws, 'plain.txt'));
  });

  const refusals: Array<[string, string, string, RegExp]> = [
    ['a hard link to an outside file (refuseHardLinks is on by default)', 'linked.txt', 'HARD_LINK_REFUSED', /"linked\.txt" has 2 hard links, and refuseHardLinks is on.*refuseHardLinks: false/],
    ['a symlink that leads out', 'symlink.txt', 'OUTSIDE_WORKSPACE', /outside the workspace/],
    ['a path that climbs out', '../outside/secret.txt', 'OUTSIDE_WORKSPACE', /outside the workspace/],
    ['a folder', 'dir', 'IS_A_DIRECTORY', /"dir" is a folder/],
    ['a FIFO (refused, not waited on)', 'pipe', 'NOT_A_REGULAR_FILE', /"pipe" is a device, FIFO or socket/],
    ['a file over the cap (not read)', 'big.txt', 'FILE_TOO_LARGE', /"big\.txt" is 1073741824 bytes, over the 1024-byte read cap \(maxReadBytes\)/],
    ['an empty path', '', 'INVALID_PATH', /non-empty/],
  ];
  for (const [label, path, code, message] of refusals) {
    it(`refuses ${label}: ${code}`, async () => {
      await assert.rejects(workspace.readFile(path, { ...CAP, maxBytesSetting: 'maxReadBytes' }), (err: any) => {
        assert.equal(err.code, code);
        assert.match(err.message, message);
        assert.doesNotMatch(err.message, /SECRET/);
        return true;
      });
    });
  }

  it('gives the size and the cap of a file over it in details', async () => {
    await assert.rejects(workspace.readFile('big.txt', CAP), { code: 'FILE_TOO_LARGE', details: { path: 'big.txt', size: 1024 ** 3, limit: 1024 } });
  });

  it('answers a missing file with the errno error, for the caller to map', async () => {
    await assert.rejects(workspace.readFile('missing.txt', CAP), { code: 'ENOENT' });
  });

  it('reads a hard-linked file when the workspace allows them (refuseHardLinks: false)', async () => {
    const allowing = createWorkspace(ws, { refuseHardLinks: false });
    assert.equal(allowing.refuseHardLinks, false);
    assert.equal((await allowing.readFile('linked.txt', CAP)).bytes.toString(), 'SECRET\n');
  });

  it('tells the link from the original by neither name: both have two links', async () => {
    assert.equal(workspace.refuseHardLinks, true);
    const anywhere = { contains: () => true, refuseHardLinks: true };
    await assert.rejects(readFileInside(join(outside, 'secret.txt'), anywhere, CAP), { code: 'HARD_LINK_REFUSED' });
  });
});

describe('readFileInside: checks on the descriptor', () => {
  it('refuses a file whose folder was swapped for a link to outside after the path was resolved', async () => {
    const { ws, outside } = layout();
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'secret.txt'), 'inside\n');
    const workspace = createWorkspace(ws);
    const real = workspace.resolve('sub/secret.txt');
    // The swap: the resolved path now runs through a link to the outside folder.
    renameSync(join(ws, 'sub'), join(ws, 'sub-away'));
    symlinkSync(outside, join(ws, 'sub'));
    await assert.rejects(readFileInside(real, workspace, CAP), { code: 'OUTSIDE_WORKSPACE' });
  });

  it('refuses a last component that became a symlink (O_NOFOLLOW)', async () => {
    const { ws, outside } = layout();
    const workspace = createWorkspace(ws);
    const real = workspace.resolve('plain.txt');
    renameSync(real, join(ws, 'plain-away.txt'));
    symlinkSync(join(outside, 'secret.txt'), real);
    await assert.rejects(readFileInside(real, workspace, CAP), { code: 'OUTSIDE_WORKSPACE' });
  });
});

describe("readFileInside: the caller's check, on the descriptor before any read", () => {
  it('gets the fstat of the opened file, after core\'s rules and before the size cap; a value it returns skips the file unread', async () => {
    const { ws } = layout();
    const workspace = createWorkspace(ws);
    const seen: number[] = [];
    const read = await readFileInside<string>(join(ws, 'big.txt'), workspace, {
      ...CAP,
      check: (info) => (seen.push(info.size), `skipped at ${info.size} bytes`),
    });
    // Not FILE_TOO_LARGE: the caller decided first, on the 1 GiB file's size, and nothing was read.
    assert.deepEqual(read, { skipped: 'skipped at 1073741824 bytes' });
    assert.deepEqual(seen, [1024 ** 3]);
    // A hard link is refused by core's rule before the caller's check is asked.
    await assert.rejects(
      readFileInside<string>(join(ws, 'linked.txt'), workspace, { ...CAP, check: () => assert.fail('asked about a refused file') }),
      { code: 'HARD_LINK_REFUSED' },
    );
  });

  it('reads the file when the check returns nothing, and refuses it when the check throws', async () => {
    const { ws } = layout();
    const workspace = createWorkspace(ws);
    const read = await readFileInside<string>(join(ws, 'plain.txt'), workspace, { ...CAP, check: () => undefined });
    assert.ok('bytes' in read);
    assert.equal(read.bytes.toString(), 'plain\n');
    await assert.rejects(
      readFileInside(join(ws, 'plain.txt'), workspace, { ...CAP, check: () => { throw new Error('not this one'); } }),
      /not this one/,
    );
  });
});

describe('the walk reads through the same rule', () => {
  it('readWalkedFile and a walk’s .gitignore leave out hard-linked files by default', async () => {
    const { ws, outside } = layout();
    writeFileSync(join(outside, 'rules'), 'plain.txt\n');
    linkSync(join(outside, 'rules'), join(ws, '.gitignore'));
    assert.equal(await readWalkedFile(join(ws, 'linked.txt'), ws, CAP), undefined);
    assert.equal((await readWalkedFile(join(ws, 'linked.txt'), ws, { ...CAP, refuseHardLinks: false }))?.toString(), 'SECRET\n');
    const names = async (refuseHardLinks?: boolean) => {
      const seen: string[] = [];
      await walk(ws, { gitignore: true, maxEntries: 100, ...(refuseHardLinks === undefined ? {} : { refuseHardLinks }) }, (e) => void seen.push(e.name));
      return seen;
    };
    assert.ok((await names()).includes('plain.txt'), 'the linked .gitignore is not used');
    assert.ok(!(await names(false)).includes('plain.txt'), 'it is with refuseHardLinks: false');
  });
});

describe('config: refuseHardLinks', () => {
  it('is on unless the config turns it off, and is a boolean', () => {
    assert.equal(resolveConfig({}, { env: {}, cwd: '/srv' }).refuseHardLinks, true);
    assert.equal(resolveConfig({ refuseHardLinks: false }, { env: {}, cwd: '/srv' }).refuseHardLinks, false);
    assert.throws(() => resolveConfig({ refuseHardLinks: 'no' }, { env: {}, cwd: '/srv' }), { code: 'CONFIG_INVALID' });
  });
});
