import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Sandbox } from '../../../plugins/files/sandbox.js';
import { fails, filesGateway, ok, realTempDir, snapshot } from './files-helpers.js';

const OUT = 'OUTSIDE_WORKSPACE';
const BAD = 'INVALID_PATH';
/** Refused by the tool's JSON Schema (minLength 1, maxLength 4096) before the sandbox sees it. */
const SCHEMA = 'INVALID_ARGUMENTS';

describe('files sandbox: hostile paths through real tool calls', async () => {
  // base/            the gateway's workspace
  //   root/          the sandbox (roots: ['root'])
  //   rootX/         a sibling whose name starts with the root's
  // outside/         another temp dir, holding what links point at
  const base = realTempDir();
  const root = join(base, 'root');
  const outside = realTempDir('mcpgw-outside-');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(root, 'nest', 'home'), { recursive: true });
  mkdirSync(join(base, 'rootX'));
  mkdirSync(join(outside, 'dir'));
  writeFileSync(join(root, 'file.txt'), 'inside\n');
  writeFileSync(join(root, 'sub', 'inner.txt'), 'inner\n');
  writeFileSync(join(base, 'rootX', 'keep.txt'), 'sibling\n');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  writeFileSync(join(outside, 'dir', 'inner.txt'), 'outside inner\n');
  writeFileSync(join(outside, 'rules'), 'probe-*.txt\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'out-file'));
  symlinkSync(join(outside, 'dir'), join(root, 'out-dir'));
  symlinkSync(join(outside, 'created-by-write.txt'), join(root, 'dangling'));
  symlinkSync(join(outside, 'not-yet'), join(root, 'dangling-dir'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  symlinkSync('self', join(root, 'self'));
  symlinkSync('chain2', join(root, 'chain1'));
  symlinkSync('sub/chain3', join(root, 'chain2'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'sub', 'chain3'));
  symlinkSync('../rootX', join(root, 'rel-up'));
  symlinkSync('../..', join(root, 'sub', 'up'));

  const gateway = await filesGateway(base, { roots: ['root'] });
  const { client } = gateway;
  // The gateway's own data folder changes with every call; everything else outside root must not.
  const outsideState = () => ({ outside: snapshot(outside), base: snapshot(base, ['data', 'root']) });
  const before = outsideState();

  const w = (path: string) => ({ path, content: 'pwned\n' });
  const edit = (path: string) => ({ path, old_string: 'TOP', new_string: 'PWNED' });
  const hostile: Array<[string, string, Record<string, unknown>, string]> = [
    // `..` chains
    ['a long .. chain to /etc/passwd', 'file_read', { path: '../../../../../../../../etc/passwd' }, OUT],
    ['.. to create a file beside the root', 'file_write', w('../escape.txt'), OUT],
    ['.. back out of a subfolder', 'dir_list', { path: 'sub/../../' }, OUT],
    ['.. into the sibling to delete', 'file_delete', { path: 'sub/../../rootX/keep.txt' }, OUT],
    ['./ and .. mixed', 'file_edit', { path: './sub/./../../rootX/keep.txt', old_string: 'sibling', new_string: 'x' }, OUT],
    ['.. to find in the parent', 'file_find', { path: '..', pattern: '*' }, OUT],
    ['.. in lang_detect', 'lang_detect', { path: '../secret.py' }, OUT],
    // absolute paths outside
    ['/etc/passwd', 'file_read', { path: '/etc/passwd' }, OUT],
    ['an absolute path to create outside', 'file_write', w(join(outside, 'new.txt')), OUT],
    ['listing /', 'dir_list', { path: '/' }, OUT],
    ['info on /etc', 'file_info', { path: '/etc' }, OUT],
    ['exists on an outside file', 'file_exists', { path: join(outside, 'secret.txt') }, OUT],
    ['/proc/self/root', 'file_read', { path: '/proc/self/root/etc/passwd' }, OUT],
    ['/proc/self/cwd', 'dir_tree', { path: '/proc/self/cwd' }, OUT],
    ['mkdir outside', 'dir_create', { path: join(outside, 'made') }, OUT],
    // symlinks pointing out
    ['a symlink to an outside file', 'file_read', { path: 'out-file' }, OUT],
    ['editing through a symlink to an outside file', 'file_edit', edit('out-file'), OUT],
    ['overwriting through a symlink to an outside file', 'file_write', w('out-file'), OUT],
    ['media through a symlink to an outside file', 'file_read_media', { path: 'out-file' }, OUT],
    ['a symlink to an outside folder', 'dir_list', { path: 'out-dir' }, OUT],
    ['a symlinked parent (link/x)', 'file_read', { path: 'out-dir/inner.txt' }, OUT],
    ['creating under a symlinked parent', 'file_write', w('out-dir/new.txt'), OUT],
    ['deleting under a symlinked parent', 'file_delete', { path: 'out-dir/inner.txt' }, OUT],
    ['mkdir under a symlinked parent', 'dir_create', { path: 'out-dir/sub' }, OUT],
    ['searching a symlinked folder', 'file_search', { path: 'out-dir', query: 'inner' }, OUT],
    ['a tree of a symlinked folder', 'dir_tree', { path: 'out-dir' }, OUT],
    ['info under a symlinked parent', 'file_info', { path: 'out-dir/inner.txt' }, OUT],
    ['a dangling symlink pointing outside', 'file_write', w('dangling'), OUT],
    ['a dangling symlinked parent pointing outside', 'file_write', w('dangling-dir/x.txt'), OUT],
    ['mkdir through a dangling symlink', 'dir_create', { path: 'dangling-dir' }, OUT],
    ['a relative link up to the root\'s parent', 'file_read', { path: 'sub/up/rootX/keep.txt' }, OUT],
    ['a chain of links ending outside', 'file_read', { path: 'chain1' }, OUT],
    ['editing a chain of links ending outside', 'file_multi_edit', { path: 'chain1', edits: [{ old_string: 'TOP', new_string: 'X' }] }, OUT],
    // symlink loops
    ['a two-link loop', 'file_read', { path: 'loop-a' }, BAD],
    ['a self loop', 'file_write', w('self'), BAD],
    ['a path through a loop', 'dir_list', { path: 'loop-b/x' }, BAD],
    // sibling prefix
    ['the sibling /…/rootX by absolute path', 'file_read', { path: join(base, 'rootX', 'keep.txt') }, OUT],
    ['the sibling rootX by ..', 'file_write', w('../rootX/new.txt'), OUT],
    ['a link to the sibling rootX', 'file_read', { path: 'rel-up/keep.txt' }, OUT],
    // URL-encoded separators
    ['..%2f..%2fetc', 'file_read', { path: '..%2f..%2fetc/passwd' }, BAD],
    ['%2e%2e/', 'file_write', w('%2e%2e/x.txt'), BAD],
    ['upper-case %2E%2E%2F', 'dir_list', { path: '%2E%2E%2F' }, BAD],
    ['%5c (backslash)', 'file_read', { path: '..%5c..%5cetc%5cpasswd' }, BAD],
    ['%00', 'file_exists', { path: 'file.txt%00.png' }, BAD],
    // null bytes and control characters
    ['a null byte', 'file_read', { path: 'file.txt\0.png' }, BAD],
    ['a newline', 'file_write', w('a\nb.txt'), BAD],
    ['an escape sequence', 'file_delete', { path: 'file\u001b[2J.txt' }, BAD],
    ['DEL', 'file_info', { path: 'file\u007f' }, BAD],
    ['a tab', 'dir_create', { path: 'a\tb' }, BAD],
    // empty and too long
    ['an empty path', 'file_read', { path: '' }, SCHEMA],
    ['an empty path to write', 'file_write', w(''), SCHEMA],
    ['an empty path to delete', 'file_delete', { path: '' }, SCHEMA],
    ['a path over 4096 characters', 'file_read', { path: 'a'.repeat(4097) }, SCHEMA],
    ['4096 characters, too long once joined to the root', 'file_write', w('a/'.repeat(2048)), BAD],
    ['a component over 255 bytes', 'file_write', w('x'.repeat(256)), BAD],
    ['a long component under a missing folder', 'dir_create', { path: `missing/${'y'.repeat(300)}` }, BAD],
    ['a component of 128 two-byte characters', 'file_write', w('é'.repeat(128)), BAD],
    // Windows-style
    ['..\\..\\etc', 'file_read', { path: '..\\..\\etc\\passwd' }, BAD],
    ['C:\\Windows\\System32', 'file_write', w('C:\\Windows\\System32\\evil.dll'), BAD],
    ['\\\\server\\share', 'dir_list', { path: '\\\\server\\share' }, BAD],
    ['C:/ with forward slashes', 'file_read', { path: 'C:/Windows/win.ini' }, BAD],
    // ~
    ['~/.ssh/id_rsa', 'file_read', { path: '~/.ssh/id_rsa' }, BAD],
    ['~root', 'file_write', w('~root/.bashrc'), BAD],
    // moving across the boundary
    ['rename out by absolute newPath', 'file_rename', { oldPath: 'file.txt', newPath: join(outside, 'stolen.txt') }, OUT],
    ['rename out by ..', 'file_rename', { oldPath: 'file.txt', newPath: '../stolen.txt' }, OUT],
    ['rename out through a symlinked folder', 'file_rename', { oldPath: 'file.txt', newPath: 'out-dir/stolen.txt' }, OUT],
    ['rename an outside file in (absolute oldPath)', 'file_rename', { oldPath: join(outside, 'secret.txt'), newPath: 'in.txt' }, OUT],
    ['rename an outside file in through a symlinked folder', 'file_rename', { oldPath: 'out-dir/inner.txt', newPath: 'in.txt' }, OUT],
    ['rename the root away', 'file_rename', { oldPath: '.', newPath: 'moved' }, 'DELETE_REFUSED'],
    ['rename the root by absolute path', 'file_rename', { oldPath: root, newPath: 'moved' }, 'DELETE_REFUSED'],
    // deleting the root and above
    ['delete .', 'file_delete', { path: '.' }, 'DELETE_REFUSED'],
    ['delete ./', 'file_delete', { path: './' }, 'DELETE_REFUSED'],
    ['delete sub/..', 'file_delete', { path: 'sub/..' }, 'DELETE_REFUSED'],
    ['delete the root by absolute path', 'file_delete', { path: root }, 'DELETE_REFUSED'],
    ['delete the root by absolute path with a slash', 'file_delete', { path: `${root}/` }, 'DELETE_REFUSED'],
    ['delete the root as ../root', 'file_delete', { path: '../root' }, 'DELETE_REFUSED'],
    ['delete the parent of the root', 'file_delete', { path: '..' }, OUT],
    ['delete the parent of the root by absolute path', 'file_delete', { path: base }, OUT],
    ['delete /', 'file_delete', { path: '/' }, OUT],
  ];

  for (const [label, tool, args, code] of hostile) {
    it(`${tool}: ${label} → ${code}`, async () => {
      const error = await fails(client, tool, args, code);
      assert.doesNotMatch(error.message, /TOP SECRET|outside inner/);
    });
  }

  it('file_read_many refuses each hostile path in its own entry', async () => {
    const paths = ['out-file', '../rootX/keep.txt', 'chain1', '~/.ssh/id_rsa', 'file.txt'];
    const { files } = await ok(client, 'file_read_many', { paths });
    assert.deepEqual(
      files.map((f: any) => f.error?.code ?? f.content),
      [OUT, OUT, OUT, BAD, 'inside\n'],
    );
  });

  it('file_search does not read outside files through a symlink inside the root', async () => {
    const { matches } = await ok(client, 'file_search', { query: 'SECRET', gitignore: false });
    assert.deepEqual(matches, []);
    const inner = await ok(client, 'file_search', { query: 'inner', gitignore: false });
    assert.deepEqual(inner.matches.map((m: any) => m.path), ['sub/inner.txt']);
  });

  it('a .gitignore that links outside is not read, so its rules cannot be used to probe an outside file', async () => {
    mkdirSync(join(root, 'gi'));
    symlinkSync(join(outside, 'rules'), join(root, 'gi', '.gitignore'));
    writeFileSync(join(root, 'gi', 'probe-1.txt'), '');
    const { tree } = await ok(client, 'dir_tree', { path: 'gi' });
    assert.deepEqual(tree.map((n: any) => n.name), ['.gitignore', 'probe-1.txt']);
    assert.deepEqual((await ok(client, 'file_find', { path: 'gi', pattern: 'probe-*' })).matches, ['gi/probe-1.txt']);
  });

  it('the home folder and a folder holding it are never deleted or moved (DELETE_REFUSED)', async () => {
    const home = process.env.HOME;
    process.env.HOME = join(root, 'nest', 'home');
    try {
      await fails(client, 'file_delete', { path: 'nest/home' }, 'DELETE_REFUSED');
      await fails(client, 'file_delete', { path: 'nest' }, 'DELETE_REFUSED');
      await fails(client, 'file_rename', { oldPath: 'nest/home', newPath: 'elsewhere' }, 'DELETE_REFUSED');
    } finally {
      if (home === undefined) delete process.env.HOME;
      else process.env.HOME = home;
    }
    assert.ok(existsSync(join(root, 'nest', 'home')));
  });

  it('a symlink is deleted or moved itself, its outside target untouched', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'doomed-link'));
    await ok(client, 'file_rename', { oldPath: 'doomed-link', newPath: 'sub/moved-link' });
    assert.deepEqual(await ok(client, 'file_delete', { path: 'sub/moved-link' }), { path: 'sub/moved-link', deleted: 'file' });
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  });

  it('after all of that, nothing outside the root was created, changed or deleted', () => {
    assert.deepEqual(outsideState(), before);
    assert.equal(existsSync(join(outside, 'created-by-write.txt')), false);
    assert.equal(existsSync(join(outside, 'not-yet')), false);
    assert.equal(existsSync(join(base, 'escape.txt')), false);
    // Nor were the refused calls allowed to leave folders behind inside.
    assert.equal(existsSync(join(root, 'missing')), false);
    assert.equal(readFileSync(join(root, 'file.txt'), 'utf8'), 'inside\n');
  });
});

describe('Sandbox: entryDisplay', () => {
  it('shows a folder\'s entries as display shows their paths, in the first root, another root and outside', () => {
    const first = realTempDir();
    const second = realTempDir();
    mkdirSync(join(first, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(second, 'sub'));
    for (const roots of [[first, second], ['/']]) {
      const sandbox = new Sandbox(roots);
      for (const dir of ['/', first, join(first, 'sub'), join(first, 'sub', 'deeper'), second, join(second, 'sub'), `${first}X`]) {
        assert.equal(sandbox.entryDisplay(dir)('name.txt'), sandbox.display(join(dir, 'name.txt')), `${dir} with roots ${roots.join(', ')}`);
      }
    }
  });
});

describe('Sandbox: a path swapped for a symlink after it was resolved', () => {
  const root = realTempDir();
  const outside = realTempDir('mcpgw-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  const sandbox = new Sandbox([root]);

  /** Resolves `name` while it is an inside file, then swaps the file for a link to the outside secret. */
  const fileSwappedForLink = (name: string) => {
    writeFileSync(join(root, name), 'inside\n');
    const resolved = sandbox.resolve(name);
    rmSync(resolved);
    symlinkSync(join(outside, 'secret.txt'), resolved);
    return resolved;
  };
  /** Resolves `<dir>/f.txt` while `dir` is an inside folder, then swaps the folder for a link to an outside one. */
  const folderSwappedForLink = (dir: string) => {
    mkdirSync(join(root, dir));
    writeFileSync(join(root, dir, 'f.txt'), 'inside\n');
    mkdirSync(join(outside, dir));
    writeFileSync(join(outside, dir, 'f.txt'), 'TOP SECRET\n');
    const resolved = sandbox.resolve(`${dir}/f.txt`);
    renameSync(join(root, dir), join(root, `${dir}-old`));
    symlinkSync(join(outside, dir), join(root, dir));
    return resolved;
  };

  it('a file replaced by a symlink to an outside file: openRead refuses (O_NOFOLLOW)', async () => {
    const resolved = fileSwappedForLink('swap.txt');
    assert.equal(resolved, join(root, 'swap.txt'));
    await assert.rejects(sandbox.openRead(resolved), { code: OUT });
  });

  it('a parent folder replaced by a symlink to an outside folder: openRead refuses (/proc/self/fd)', async () => {
    await assert.rejects(sandbox.openRead(folderSwappedForLink('d')), { code: OUT });
  });

  it('the same two swaps: readFile refuses them too', async () => {
    await assert.rejects(sandbox.readFile(fileSwappedForLink('swap2.txt'), 1024), { code: OUT });
    await assert.rejects(sandbox.readFile(folderSwappedForLink('d2'), 1024), { code: OUT });
  });

  it('readFile refuses a FIFO at once, and closes its descriptor on every path', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(100));
    writeFileSync(join(root, 'small.txt'), 'small\n');
    mkdirSync(join(root, 'folder'));
    const openDescriptors = () => readdirSync('/proc/self/fd').length;
    const before = openDescriptors();
    const refusals: Array<[string, string]> = [
      ['pipe', 'NOT_A_REGULAR_FILE'],
      ['big.txt', 'FILE_TOO_LARGE'],
      ['folder', 'IS_A_DIRECTORY'],
      ['swap2.txt', OUT],
      ['missing.txt', 'ENOENT'],
    ];
    for (let round = 0; round < 20; round++) {
      for (const [name, code] of refusals) await assert.rejects(sandbox.readFile(join(root, name), 50), { code });
      assert.equal((await sandbox.readFile(join(root, 'small.txt'), 50)).bytes.toString(), 'small\n');
    }
    assert.equal(openDescriptors(), before);
  });

  it('a parent folder replaced before an atomic write: refused, and no temporary file is left outside', async () => {
    mkdirSync(join(root, 'w'));
    mkdirSync(join(outside, 'w'));
    const resolved = sandbox.resolve('w/new.txt');
    rmSync(join(root, 'w'), { recursive: true });
    symlinkSync(join(outside, 'w'), join(root, 'w'));
    await assert.rejects(sandbox.writeAtomic(resolved, 'pwned'), { code: OUT });
    assert.deepEqual(readdirSync(join(outside, 'w')), []);
  });

  it('refuses what the tool schemas would already stop, with INVALID_PATH', () => {
    for (const path of ['', 'a'.repeat(4097), 'a\0b']) assert.throws(() => sandbox.resolve(path), { code: BAD });
  });
});

describe('files sandbox with several roots', async () => {
  const base = realTempDir();
  for (const name of ['a', 'b', 'c', 'ab']) mkdirSync(join(base, name));
  writeFileSync(join(base, 'b', 'in-b.txt'), 'bee\n');
  writeFileSync(join(base, 'c', 'in-c.txt'), 'sea\n');
  writeFileSync(join(base, 'ab', 'x.txt'), 'prefix\n');
  const gateway = await filesGateway(base, { roots: ['a', 'b'] });
  const { client } = gateway;

  it('file_roots lists both, the first first', async () => {
    assert.deepEqual(await ok(client, 'file_roots'), { roots: [join(base, 'a'), join(base, 'b')] });
  });

  it('an absolute path in the second root works, and is shown absolute', async () => {
    const read = await ok(client, 'file_read', { path: join(base, 'b', 'in-b.txt') });
    assert.deepEqual([read.path, read.content], [join(base, 'b', 'in-b.txt'), 'bee\n']);
    await ok(client, 'file_write', { path: join(base, 'b', 'new.txt'), content: 'new\n' });
    assert.equal(readFileSync(join(base, 'b', 'new.txt'), 'utf8'), 'new\n');
    const listing = await ok(client, 'dir_list', { path: join(base, 'b') });
    assert.deepEqual(listing.entries.map((e: any) => e.name), ['in-b.txt', 'new.txt']);
  });

  it('relative paths go to the first root', async () => {
    const written = await ok(client, 'file_write', { path: 'rel.txt', content: 'rel\n' });
    assert.equal(written.path, 'rel.txt');
    assert.equal(readFileSync(join(base, 'a', 'rel.txt'), 'utf8'), 'rel\n');
    await fails(client, 'file_read', { path: 'in-b.txt' }, 'FILE_NOT_FOUND');
  });

  const refused: Array<[string, string, Record<string, unknown>, string]> = [
    ['a third folder by absolute path', 'file_read', { path: join(base, 'c', 'in-c.txt') }, OUT],
    ['the sibling "ab" of root "a"', 'file_read', { path: join(base, 'ab', 'x.txt') }, OUT],
    ['the parent of both', 'dir_list', { path: base }, OUT],
    ['writing into the third folder', 'file_write', { path: join(base, 'c', 'x.txt'), content: 'x' }, OUT],
    ['a relative path leaving the first root (relative means relative to it)', 'file_read', { path: '../b/in-b.txt' }, OUT],
    ['listing the second root by a path relative to the first', 'dir_list', { path: '../b' }, OUT],
    ['moving from the second root out', 'file_rename', { oldPath: join(base, 'b', 'in-b.txt'), newPath: join(base, 'c', 'in-b.txt') }, OUT],
    ['deleting the second root', 'file_delete', { path: join(base, 'b') }, 'DELETE_REFUSED'],
  ];
  for (const [label, tool, args, code] of refused) {
    it(`${tool}: ${label} → ${code}`, async () => {
      await fails(client, tool, args, code);
    });
  }

  it('a file can be moved between the roots', async () => {
    await ok(client, 'file_rename', { oldPath: 'rel.txt', newPath: join(base, 'b', 'from-a.txt') });
    assert.equal(readFileSync(join(base, 'b', 'from-a.txt'), 'utf8'), 'rel\n');
    assert.equal(readFileSync(join(base, 'c', 'in-c.txt'), 'utf8'), 'sea\n');
  });
});

describe('files sandbox: a root nested in another', async () => {
  const base = realTempDir();
  mkdirSync(join(base, 'top', 'mid', 'inner'), { recursive: true });
  const gateway = await filesGateway(base, { roots: ['top', 'top/mid/inner'] });
  const { client } = gateway;

  const refused: Array<[string, Record<string, unknown>]> = [
    ['the nested root', { path: 'mid/inner' }],
    ['a parent of the nested root', { path: 'mid' }],
    ['the nested root by absolute path', { path: join(base, 'top', 'mid', 'inner') }],
  ];
  for (const [label, args] of refused) {
    it(`file_delete: ${label} → DELETE_REFUSED`, async () => {
      await fails(client, 'file_delete', args, 'DELETE_REFUSED');
    });
  }
});
