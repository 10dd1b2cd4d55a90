import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { coreErrors } from '../../../core/contract/errors.js';
import { createWorkspace } from '../../../core/fs/workspace.js';
import type { Workspace } from '../../../core/contract/workspace-types.js';
import { tempDir } from '../../helpers.js';

/**
 * base/
 *   root/      the workspace, with links that stay inside and links that escape
 *   rootX/     a sibling whose name starts with the root's name
 *   outside/   what no path may reach
 */
const base = realpathSync(tempDir('mcpgw-ws-'));
const root = join(base, 'root');
layout();
const workspace: Workspace = createWorkspace(root);
const outsideBefore = [...snapshot(join(base, 'outside')), ...snapshot(join(base, 'rootX'))];

function layout(): void {
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'dir'), { recursive: true });
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  mkdirSync(join(outside, 'sub'), { recursive: true });
  mkdirSync(join(base, 'rootX'));
  writeFileSync(join(root, 'file.txt'), 'inside');
  writeFileSync(join(root, 'dir', 'inner.txt'), 'inner');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(base, 'rootX', 'file.txt'), 'sibling');

  const link = (target: string, path: string) => symlinkSync(target, join(root, path));
  // Links that stay inside.
  link('dir/inner.txt', 'inlink');
  link('dir', 'indirlink');
  link(join(root, 'dir'), 'abs-inlink');
  link('dir/not-yet.txt', 'dangling-in');
  link('../../..', 'a/b/c/up');
  link('../dir/later.txt', 'dir/dangling-up-in');
  // Links that escape.
  link('../outside/secret.txt', 'out-file');
  link('../outside', 'out-dir');
  link(outside, 'abs-out');
  link('..', 'up-base');
  link('../../outside', 'dir/escape');
  link('../outside/new.txt', 'dangling-out');
  link(join(outside, 'new-abs.txt'), 'dangling-out-abs');
  link('../outside/new-dir', 'dangling-dir-out');
  link('chain2', 'chain1');
  link('chain3', 'chain2');
  link('../outside', 'chain3');
  link('dangle2', 'dangle1');
  link('../outside/missing/deep.txt', 'dangle2');
  // Loops.
  link('loop-b', 'loop-a');
  link('loop-a', 'loop-b');
  link('self', 'self');
}

/** Every entry under `dir` with its size and mtime, to prove nothing there changed. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((entry) => {
      const stat = statSync(join(dir, entry));
      return `${entry} ${stat.size} ${stat.mtimeMs}`;
    });
}

describe('workspace.resolve refuses hostile paths', () => {
  const OUT = 'OUTSIDE_WORKSPACE';
  const BAD = 'INVALID_PATH';
  const table: Array<[name: string, path: unknown, code: string]> = [
    ['parent', '..', OUT],
    ['parent with slash', '../', OUT],
    ['parent then outside file', '../outside/secret.txt', OUT],
    ['two parents', '../../etc/passwd', OUT],
    ['long .. chain', `${'../'.repeat(30)}etc/passwd`, OUT],
    ['down then further up', 'dir/../../outside', OUT],
    ['deep down then up past the root', 'a/b/c/../../../../outside/secret.txt', OUT],
    ['dot then parent', './../outside', OUT],
    ['through a regular file then up', 'file.txt/../../outside', OUT],
    ['.. through an inside dir link', 'indirlink/../../outside', OUT],
    ['absolute /etc/passwd', '/etc/passwd', OUT],
    ['absolute filesystem root', '/', OUT],
    ['absolute parent of the root', base, OUT],
    ['absolute outside file', join(base, 'outside', 'secret.txt'), OUT],
    ['absolute with .. out of the root', `${root}/../outside/secret.txt`, OUT],
    ['absolute outside with .. back outside', `${base}/outside/../outside/secret.txt`, OUT],
    ['sibling sharing the root as prefix', `${root}X`, OUT],
    ['file in sibling sharing the prefix', `${root}X/file.txt`, OUT],
    ['new file in sibling sharing the prefix', `${root}X/new.txt`, OUT],
    ['symlink to outside file', 'out-file', OUT],
    ['symlink to outside dir', 'out-dir', OUT],
    ['outside dir link as parent of existing file', 'out-dir/secret.txt', OUT],
    ['outside dir link as parent of new file', 'out-dir/x', OUT],
    ['outside dir link as parent of new nested file', 'out-dir/sub/deeper/new.txt', OUT],
    ['absolute symlink to outside dir', 'abs-out/secret.txt', OUT],
    ['symlink to the parent', 'up-base/outside/secret.txt', OUT],
    ['symlink in a subdir climbing out', 'dir/escape/secret.txt', OUT],
    ['dangling symlink pointing outside', 'dangling-out', OUT],
    ['dangling absolute symlink pointing outside', 'dangling-out-abs', OUT],
    ['dangling dir symlink outside used as parent', 'dangling-dir-out/x', OUT],
    ['chain of links ending outside', 'chain1', OUT],
    ['chain of links ending outside, as parent', 'chain1/secret.txt', OUT],
    ['chain of dangling links ending outside', 'dangle1', OUT],
    ['inside link, then a link to an outside file', 'a/b/c/up/out-file', OUT],
    // `up` leads back to the root; the dangling link's relative target counts from there.
    ['inside link, then a dangling link pointing outside', 'a/b/c/up/dangling-out', OUT],
    ['inside link, then a dangling chain ending outside', 'a/b/c/up/dangle1', OUT],
    ['symlink loop a→b→a', 'loop-a', BAD],
    ['symlink loop as parent', 'loop-a/x', BAD],
    ['symlink to itself', 'self', BAD],
    ['symlink to itself as parent', 'self/x', BAD],
    ['empty string', '', BAD],
    ['null byte in the middle', 'a\0b', BAD],
    ['null byte alone', '\0', BAD],
    ['null byte before an extension', 'dir/inner.txt\0.png', BAD],
    ['null byte after an escape', '../outside\0', BAD],
    ['over 4096 characters', 'x'.repeat(4097), BAD],
    ['over 4096 characters of segments', 'a/'.repeat(2100), BAD],
    ['one name longer than the filesystem allows', 'x'.repeat(300), BAD],
    ['not a string', 42, BAD],
    ['undefined', undefined, BAD],
  ];

  for (const [name, path, code] of table) {
    it(`${name} → ${code} (${coreErrors[code as keyof typeof coreErrors].status})`, () => {
      assert.throws(
        () => workspace.resolve(path as string),
        (err: { code?: string }) => {
          assert.equal(err.code, code);
          return true;
        },
      );
    });
  }

  it('has at least 40 hostile cases', () => assert.ok(table.length >= 40));
});

describe('workspace.resolve allows paths inside', () => {
  const table: Array<[path: string, expected: string]> = [
    ['.', root],
    ['./', root],
    [root, root],
    [`${root}/`, root],
    ['file.txt', join(root, 'file.txt')],
    ['dir', join(root, 'dir')],
    ['./a/../b', join(root, 'b')],
    ['dir/../file.txt', join(root, 'file.txt')],
    [`${root}/dir/../file.txt`, join(root, 'file.txt')],
    ['new/nested/deep/file.txt', join(root, 'new', 'nested', 'deep', 'file.txt')],
    ['inlink', join(root, 'dir', 'inner.txt')],
    ['indirlink/inner.txt', join(root, 'dir', 'inner.txt')],
    ['indirlink/new.txt', join(root, 'dir', 'new.txt')],
    ['abs-inlink/inner.txt', join(root, 'dir', 'inner.txt')],
    ['dangling-in', join(root, 'dir', 'not-yet.txt')],
    ['dir/dangling-up-in', join(root, 'dir', 'later.txt')],
    ['a/b/c/up/file.txt', join(root, 'file.txt')],
    ['a/b/c/up/dangling-in', join(root, 'dir', 'not-yet.txt')],
    ['file.txt/x', join(root, 'file.txt', 'x')],
    // Percent-encoding, backslashes and drive letters are ordinary characters on Linux.
    ['%2e%2e', join(root, '%2e%2e')],
    ['%2e%2e/%2e%2e/etc/passwd', join(root, '%2e%2e', '%2e%2e', 'etc', 'passwd')],
    ['..%2f..%2fetc%2fpasswd', join(root, '..%2f..%2fetc%2fpasswd')],
    ['%252e%252e', join(root, '%252e%252e')],
    ['..\\..\\outside', join(root, '..\\..\\outside')],
    ['C:\\Windows', join(root, 'C:\\Windows')],
    ['C:\\Windows\\System32\\config', join(root, 'C:\\Windows\\System32\\config')],
    ['\\\\server\\share', join(root, '\\\\server\\share')],
    ['...', join(root, '...')],
    ['....//x', join(root, '....', 'x')],
    ['~', join(root, '~')],
    ['~/.ssh/id_rsa', join(root, '~', '.ssh', 'id_rsa')],
    [' ', join(root, ' ')],
    ['file:///etc/passwd', join(root, 'file:', 'etc', 'passwd')],
    ['x'.repeat(255), join(root, 'x'.repeat(255))],
  ];

  for (const [path, expected] of table) {
    it(`${JSON.stringify(path.slice(0, 60))} stays inside`, () => {
      assert.equal(workspace.resolve(path), expected);
    });
  }

  it('writing to the resolved path of an inside dangling link creates the file inside', () => {
    const target = workspace.resolve('a/b/c/up/dangling-in');
    writeFileSync(target, 'created');
    assert.equal(statSync(join(root, 'dir', 'not-yet.txt')).isFile(), true);
  });
});

describe('workspace root and contains', () => {
  it('root is the real path even when created through a symlink', () => {
    const viaLink = join(base, 'root-link');
    symlinkSync(root, viaLink);
    const ws = createWorkspace(viaLink);
    assert.equal(ws.root, root);
    assert.equal(ws.resolve('file.txt'), join(root, 'file.txt'));
    assert.equal(ws.resolve(`${viaLink}/file.txt`), join(root, 'file.txt'));
  });

  it('contains the root and what lies under it, not a prefix-sharing sibling', () => {
    assert.equal(workspace.contains(root), true);
    assert.equal(workspace.contains(join(root, 'x', 'y')), true);
    assert.equal(workspace.contains(`${root}X`), false);
    assert.equal(workspace.contains(base), false);
    assert.equal(workspace.contains('/'), false);
  });

  it('a workspace at the filesystem root contains everything', () => {
    const ws = createWorkspace('/');
    assert.equal(ws.contains('/etc/passwd'), true);
    assert.equal(ws.resolve('etc/../tmp'), realpathSync('/tmp'));
  });

  it('a missing root is an error at creation', () => {
    assert.throws(() => createWorkspace(join(base, 'does-not-exist')), { code: 'ENOENT' });
  });

  // Runs last in the file: the tables above must not have touched anything outside.
  it('nothing outside the workspace was created or changed', () => {
    assert.deepEqual([...snapshot(join(base, 'outside')), ...snapshot(join(base, 'rootX'))], outsideBefore);
  });
});

describe('workspace: protected paths', () => {
  const ws = realpathSync(tempDir('mcpgw-protect-'));
  mkdirSync(join(ws, 'conf'));
  writeFileSync(join(ws, 'conf', 'gateway.yaml'), '');
  symlinkSync('conf', join(ws, 'conf-link'));
  const outsideFile = join(realpathSync(tempDir('mcpgw-protect-out-')), 'x', '.git', 'y');
  // `conf-link/gateway.yaml` is given through a link: it is protected by its real path.
  const protectedWs = createWorkspace(ws, { protectedPaths: ['.git', 'conf-link/gateway.yaml', 'state/data'] });

  const cases: Array<[string, string, boolean, boolean]> = [
    // path, label, isProtected, holdsProtected
    [join(ws, '.git'), 'a .git folder', true, true],
    [join(ws, 'deep', 'er', '.git', 'HEAD'), 'a path through a .git at any depth', true, true],
    [join(ws, '.github', 'x'), 'a name that only starts like one', false, false],
    [join(ws, 'conf', 'gateway.yaml'), 'a path entry, by its real path', true, true],
    [join(ws, 'conf'), 'the folder holding a path entry', false, true],
    [join(ws, 'state', 'data', 'gateway.db'), 'below a path entry that does not exist yet', true, true],
    [join(ws, 'state'), 'the folder that would hold it', false, true],
    [join(ws, 'deep'), 'a folder holding a .git (names are not held)', false, false],
    [ws, 'the root, which holds the path entries', false, true],
    [outsideFile, 'a .git outside the workspace (the whole path is matched)', true, true],
  ];
  for (const [path, label, is, holds] of cases) {
    it(`${label}: isProtected ${is}, holdsProtected ${holds}`, () => {
      assert.equal(protectedWs.isProtected(path), is);
      assert.equal(protectedWs.holdsProtected(path), holds);
    });
  }

  it('nothing is protected without the option', () => {
    assert.equal(createWorkspace(ws).isProtected(join(ws, '.git')), false);
  });
});
