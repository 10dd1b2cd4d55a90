import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { fileErrors } from '../../../plugins/files/errors.js';
import { resultJson, waitFor } from '../../helpers.js';
import { filesGateway, realTempDir, TINY_PNG } from './files-helpers.js';

type Args = Record<string, unknown>;
/** A tool's JSON result (undefined for non-text content) and the raw MCP result. */
type Check = (json: any, raw: any) => void;
/** label, arguments, then the error code expected or a check of the result, then a check of the disk. */
type Case = [string, Args, string | Check, (() => void)?];

const MODE = (path: string) => statSync(path).mode & 0o777;

describe('files tools', async () => {
  const base = realTempDir();
  const ws = join(base, 'ws');
  const at = (...parts: string[]) => join(ws, ...parts);
  const files: Record<string, string | Buffer> = {
    'lines.txt': 'one\ntwo\nthree\nfour\nfive\n',
    'hello.py': 'print("hi")\n',
    script: '#!/usr/bin/env python3\nprint(1)\n',
    Dockerfile: 'FROM node:20\n',
    Makefile: 'all:\n\techo hi\n',
    'blob.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02, 0xff]),
    'pixel.png': TINY_PNG,
    'big.txt': 'x'.repeat(70_000),
    'sub/a.ts': 'export const a = 1;\n',
    'sub/b.ts': 'export const b = 2;\n',
    'info.txt': '12345',
    'data.xyz': 'data\n',
    'list/b.txt': 'bbb',
    'list/a.txt': 'a',
    'tree/.gitignore': 'ignored.txt\nbuild/\n',
    'tree/ignored.txt': 'ignored\n',
    'tree/README.md': '# tree\n',
    'tree/build/out.js': 'built\n',
    'tree/src/main.ts': 'main\n',
    'tree/src/lib/util.ts': 'util\n',
    'tree/node_modules/x/index.js': 'dep\n',
    'search/.gitignore': 'skipped.txt\n',
    'search/a.txt': 'Hello world\nhello again\nHELLO there\nbye\n',
    'search/b.md': 'needle in b\n',
    'search/skipped.txt': 'Hello hidden\n',
    'search/bin.dat': Buffer.concat([Buffer.from('Hello binary'), Buffer.from([0, 1, 2])]),
    'search/ctx.txt': 'l1\nl2\nTARGET\nl4\nl5\n',
    'search/rep.txt': 'rep 1\nrep 2\nrep 3\n',
    'redos/line.txt': `${'a'.repeat(48)}!\n`,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(at(name), '..'), { recursive: true });
    writeFileSync(at(name), content);
  }
  mkdirSync(at('empty-dir'));
  // More entries than dir_list lstats between two turns of the event loop; file i has i bytes.
  mkdirSync(at('many'));
  for (let i = 0; i < 300; i++) writeFileSync(at('many', `f${String(i).padStart(3, '0')}`), 'x'.repeat(i));
  mkdirSync(at('list', 'c-dir'));
  symlinkSync('lines.txt', at('link-to-lines'));
  symlinkSync('a.txt', at('list', 'z-link'));
  // A FIFO: reading it must be refused at once, not wait for a writer that never comes.
  execFileSync('mkfifo', [at('pipe')]);
  execFileSync('mkfifo', [at('search', 'pipe.txt')]);
  mkdirSync(at('fifo-gitignore'));
  execFileSync('mkfifo', [at('fifo-gitignore', '.gitignore')]);
  writeFileSync(at('fifo-gitignore', 'x.txt'), 'x\n');

  const gateway = await filesGateway(base, { roots: ['ws'], maxWriteBytes: 4096, maxReadBytes: 65_536 });
  const { client } = gateway;
  const seen = new Set<string>();

  /** Runs one table row: a failure must carry `expect` as its code, a success passes `expect`. */
  const run = async (tool: string, args: Args, expect: string | Check) => {
    const raw: any = await client.callTool({ name: tool, arguments: args });
    if (raw.isError) {
      const body = resultJson(raw);
      seen.add(body.code);
      assert.equal(typeof expect, 'string', `${tool} failed unexpectedly: ${JSON.stringify(body)}`);
      assert.equal(body.code, expect, body.message);
      assert.equal(typeof body.message, 'string');
      return;
    }
    assert.notEqual(typeof expect, 'string', `${tool} should have failed with ${String(expect)}: ${JSON.stringify(raw).slice(0, 300)}`);
    (expect as Check)(raw.content[0]?.type === 'text' ? resultJson(raw) : undefined, raw);
  };
  const table = (tool: string, cases: Case[]) =>
    describe(tool, () => {
      for (const [label, args, expect, afterwards] of cases) {
        it(`${label}${typeof expect === 'string' ? ` → ${expect}` : ''}`, async () => {
          await run(tool, args, expect);
          afterwards?.();
        });
      }
    });
  const text = (path: string) => readFileSync(at(path), 'utf8');
  const gone = (path: string) => () => assert.equal(existsSync(at(path)), false);

  table('file_read', [
    ['a whole file, with its language', { path: 'hello.py' }, (r) => assert.deepEqual(r, { path: 'hello.py', content: 'print("hi")\n', language: 'python' })],
    ['start_line/end_line', { path: 'lines.txt', start_line: 2, end_line: 3 }, (r) => assert.deepEqual([r.content, r.total_lines], ['two\nthree', 5])],
    ['start_line alone reads to the end', { path: 'lines.txt', start_line: 4 }, (r) => assert.equal(r.content, 'four\nfive')],
    ['head', { path: 'lines.txt', head: 2 }, (r) => assert.deepEqual([r.content, r.total_lines], ['one\ntwo', 5])],
    ['tail', { path: 'lines.txt', tail: 2 }, (r) => assert.equal(r.content, 'four\nfive')],
    ['a start_line past the end', { path: 'lines.txt', start_line: 99 }, (r) => assert.deepEqual([r.content, r.total_lines], ['', 5])],
    ['through a symlink inside, shown by its real path', { path: 'link-to-lines', head: 1 }, (r) => assert.deepEqual([r.path, r.content], ['lines.txt', 'one'])],
    ['a language from the #! line', { path: 'script' }, (r) => assert.equal(r.language, 'python')],
    ['a .txt file', { path: 'info.txt' }, (r) => assert.equal(r.language, 'plaintext')],
    ['an unknown language is null', { path: 'data.xyz' }, (r) => assert.deepEqual([r.content, r.language], ['data\n', null])],
    ['head and tail at once', { path: 'lines.txt', head: 1, tail: 1 }, 'INVALID_ARGUMENTS'],
    ['head and start_line at once', { path: 'lines.txt', head: 1, start_line: 2 }, 'INVALID_ARGUMENTS'],
    ['tail and end_line at once', { path: 'lines.txt', tail: 1, end_line: 2 }, 'INVALID_ARGUMENTS'],
    ['head: 0', { path: 'lines.txt', head: 0 }, 'INVALID_ARGUMENTS'],
    ['a missing file', { path: 'missing.txt' }, 'FILE_NOT_FOUND'],
    ['a folder', { path: 'sub' }, 'IS_A_DIRECTORY'],
    ['a file used as a folder', { path: 'lines.txt/x' }, 'NOT_A_DIRECTORY'],
    ['a binary file', { path: 'blob.bin' }, 'FILE_IS_BINARY'],
    ['a file over maxReadBytes', { path: 'big.txt' }, 'FILE_TOO_LARGE'],
    ['a FIFO (refused, not waited on)', { path: 'pipe' }, 'NOT_A_REGULAR_FILE'],
    ['a Windows-style path', { path: 'notes\\todo.txt' }, 'INVALID_PATH'],
    ['outside the root', { path: '../outside.txt' }, 'OUTSIDE_WORKSPACE'],
  ]);

  table('file_read_many', [
    [
      'good and failing paths: each failure in its own entry',
      { paths: ['lines.txt', 'missing.txt', '../x.txt', 'blob.bin', 'sub', 'hello.py'] },
      (r) => {
        for (const f of r.files) if (f.error) seen.add(f.error.code);
        assert.deepEqual(
          r.files.map((f: any) => [f.path, f.error?.code ?? f.content]),
          [
            ['lines.txt', files['lines.txt']],
            ['missing.txt', 'FILE_NOT_FOUND'],
            ['../x.txt', 'OUTSIDE_WORKSPACE'],
            ['blob.bin', 'FILE_IS_BINARY'],
            ['sub', 'IS_A_DIRECTORY'],
            ['hello.py', files['hello.py']],
          ],
        );
        assert.match(r.files[1].error.message, /missing\.txt/);
      },
    ],
    ['no paths', { paths: [] }, 'INVALID_ARGUMENTS'],
    ['over 50 paths', { paths: Array.from({ length: 51 }, () => 'lines.txt') }, 'INVALID_ARGUMENTS'],
  ]);

  table('file_read_media', [
    [
      'a PNG as MCP image content',
      { path: 'pixel.png' },
      (_, raw) => {
        assert.deepEqual(raw.content, [{ type: 'image', data: TINY_PNG.toString('base64'), mimeType: 'image/png' }]);
        assert.deepEqual(raw.structuredContent, { path: 'pixel.png', mimeType: 'image/png', size: TINY_PNG.length });
      },
    ],
    [
      'an unknown binary as base64',
      { path: 'blob.bin' },
      (r) => assert.deepEqual(r, { path: 'blob.bin', mimeType: 'application/octet-stream', size: 8, base64: Buffer.from(files['blob.bin']!).toString('base64') }),
    ],
    ['a missing file', { path: 'missing.png' }, 'FILE_NOT_FOUND'],
    ['a folder', { path: 'sub' }, 'IS_A_DIRECTORY'],
    ['a file over maxReadBytes', { path: 'big.txt' }, 'FILE_TOO_LARGE'],
  ]);

  table('file_exists', [
    ['a file', { path: 'lines.txt' }, (r) => assert.deepEqual(r, { exists: true, isDir: false })],
    ['a folder', { path: 'sub' }, (r) => assert.deepEqual(r, { exists: true, isDir: true })],
    ['a symlink to a file', { path: 'link-to-lines' }, (r) => assert.deepEqual(r, { exists: true, isDir: false })],
    ['a missing path is exists: false, not an error', { path: 'missing/deeper.txt' }, (r) => assert.deepEqual(r, { exists: false, isDir: false })],
    ['below a file', { path: 'lines.txt/below' }, (r) => assert.deepEqual(r, { exists: false, isDir: false })],
  ]);

  chmodSync(at('info.txt'), 0o640);
  const isoDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
  table('file_info', [
    [
      'a file: size, times, permissions',
      { path: 'info.txt' },
      (r) => {
        assert.deepEqual([r.path, r.type, r.size, r.permissions], ['info.txt', 'file', 5, '0640']);
        for (const key of ['created', 'modified', 'accessed']) assert.match(r[key], isoDate);
        assert.equal('target' in r, false);
      },
    ],
    ['a folder', { path: 'sub' }, (r) => assert.deepEqual([r.type, r.path], ['directory', 'sub'])],
    ['the root as .', { path: '.' }, (r) => assert.deepEqual([r.type, r.path], ['directory', '.'])],
    ['the root by its absolute path (as file_roots gives it)', { path: ws }, (r) => assert.deepEqual([r.type, r.path], ['directory', '.'])],
    ['a symlink, itself, with its target', { path: 'link-to-lines' }, (r) => assert.deepEqual([r.type, r.target, r.path], ['symlink', 'lines.txt', 'link-to-lines'])],
    ['a FIFO', { path: 'pipe' }, (r) => assert.equal(r.type, 'other')],
    ['a missing path', { path: 'missing.txt' }, 'FILE_NOT_FOUND'],
  ]);

  writeFileSync(at('mode664.txt'), 'old');
  chmodSync(at('mode664.txt'), 0o664);
  writeFileSync(at('mode755.sh'), 'old');
  chmodSync(at('mode755.sh'), 0o755);
  table('file_write', [
    [
      'a new file, creating its parents',
      { path: 'new/deep/file.txt', content: 'héllo\n' },
      (r) => assert.deepEqual(r, { path: 'new/deep/file.txt', bytes: 7, created: true }),
      () => assert.equal(text('new/deep/file.txt'), 'héllo\n'),
    ],
    ['overwriting: created is false', { path: 'new/deep/file.txt', content: 'again' }, (r) => assert.equal(r.created, false), () => assert.equal(text('new/deep/file.txt'), 'again')],
    ['overwriting keeps mode 0664 (not narrowed by the umask)', { path: 'mode664.txt', content: 'new' }, () => {}, () => assert.equal(MODE(at('mode664.txt')), 0o664)],
    ['overwriting keeps mode 0755', { path: 'mode755.sh', content: '#!/bin/sh\n' }, () => {}, () => assert.equal(MODE(at('mode755.sh')), 0o755)],
    ['exactly maxWriteBytes', { path: 'cap.txt', content: 'x'.repeat(4096) }, (r) => assert.equal(r.bytes, 4096)],
    ['over maxWriteBytes', { path: 'over.txt', content: 'x'.repeat(4097) }, 'FILE_TOO_LARGE', gone('over.txt')],
    ['over maxWriteBytes counted in bytes, not characters', { path: 'over.txt', content: 'é'.repeat(2049) }, 'FILE_TOO_LARGE', gone('over.txt')],
    ['a folder', { path: 'sub', content: 'x' }, 'IS_A_DIRECTORY'],
    ['below a file', { path: 'lines.txt/x', content: 'x' }, 'NOT_A_DIRECTORY', () => assert.equal(text('lines.txt'), files['lines.txt'])],
    ['content missing', { path: 'x.txt' }, 'INVALID_ARGUMENTS'],
  ]);

  writeFileSync(at('edit-first.txt'), 'a-a-a');
  writeFileSync(at('edit-all.txt'), 'a-a-a');
  writeFileSync(at('edit-dollar.txt'), 'price: X');
  writeFileSync(at('edit-miss.txt'), 'unchanged\n');
  writeFileSync(at('edit-mode.txt'), 'mode');
  chmodSync(at('edit-mode.txt'), 0o664);
  writeFileSync(at('edit-grow.txt'), 'x'.repeat(4000));
  const missMtime = statSync(at('edit-miss.txt')).mtimeMs;
  table('file_edit', [
    ['replaces the first occurrence', { path: 'edit-first.txt', old_string: 'a', new_string: 'b' }, (r) => assert.deepEqual(r, { path: 'edit-first.txt', replacements: 1 }), () => assert.equal(text('edit-first.txt'), 'b-a-a')],
    ['replace_all returns the count', { path: 'edit-all.txt', old_string: 'a', new_string: 'bc', replace_all: true }, (r) => assert.equal(r.replacements, 3), () => assert.equal(text('edit-all.txt'), 'bc-bc-bc')],
    ['new_string is literal ($& is not a pattern)', { path: 'edit-dollar.txt', old_string: 'X', new_string: '$&$1$$' }, () => {}, () => assert.equal(text('edit-dollar.txt'), 'price: $&$1$$')],
    ['keeps the file mode', { path: 'edit-mode.txt', old_string: 'mode', new_string: 'kept' }, () => {}, () => assert.equal(MODE(at('edit-mode.txt')), 0o664)],
    ['an empty old_string', { path: 'edit-miss.txt', old_string: '', new_string: 'x' }, 'EDIT_EMPTY'],
    [
      'no match leaves the file untouched',
      { path: 'edit-miss.txt', old_string: 'absent', new_string: 'x' },
      'EDIT_NO_MATCH',
      () => {
        assert.equal(text('edit-miss.txt'), 'unchanged\n');
        assert.equal(statSync(at('edit-miss.txt')).mtimeMs, missMtime);
      },
    ],
    ['whitespace must match exactly', { path: 'edit-miss.txt', old_string: 'unchanged ', new_string: 'x' }, 'EDIT_NO_MATCH'],
    ['a result over maxWriteBytes', { path: 'edit-grow.txt', old_string: 'x', new_string: 'y'.repeat(200) }, 'FILE_TOO_LARGE', () => assert.equal(text('edit-grow.txt'), 'x'.repeat(4000))],
    ['a binary file', { path: 'blob.bin', old_string: 'E', new_string: 'e' }, 'FILE_IS_BINARY'],
    ['a missing file', { path: 'missing.txt', old_string: 'a', new_string: 'b' }, 'FILE_NOT_FOUND'],
    ['a folder', { path: 'sub', old_string: 'a', new_string: 'b' }, 'IS_A_DIRECTORY'],
  ]);

  const multi = 'hello\nworld\n';
  writeFileSync(at('multi.txt'), multi);
  writeFileSync(at('multi-apply.txt'), multi);
  table('file_multi_edit', [
    [
      'all or nothing: a failing second edit changes nothing',
      { path: 'multi.txt', edits: [{ old_string: 'hello', new_string: 'goodbye' }, { old_string: 'absent', new_string: 'x' }] },
      'EDIT_NO_MATCH',
      () => assert.equal(text('multi.txt'), multi),
    ],
    ['an empty old_string in the second edit', { path: 'multi.txt', edits: [{ old_string: 'hello', new_string: 'x' }, { old_string: '', new_string: 'x' }] }, 'EDIT_EMPTY', () => assert.equal(text('multi.txt'), multi)],
    [
      'dry_run returns a unified diff and leaves the file',
      { path: 'multi.txt', dry_run: true, edits: [{ old_string: 'hello', new_string: 'goodbye' }] },
      (r) => {
        assert.deepEqual([r.path, r.replacements, r.applied], ['multi.txt', 1, false]);
        assert.match(r.diff, /^--- a\/multi\.txt/m);
        assert.match(r.diff, /^\+\+\+ b\/multi\.txt/m);
        assert.match(r.diff, /^-hello$/m);
        assert.match(r.diff, /^\+goodbye$/m);
      },
      () => assert.equal(text('multi.txt'), multi),
    ],
    [
      'edits apply in order, each to the result of the one before',
      { path: 'multi-apply.txt', edits: [{ old_string: 'hello', new_string: 'hi there' }, { old_string: 'hi', new_string: 'oh hi' }, { old_string: 'o', new_string: '0', replace_all: true }] },
      (r) => assert.deepEqual([r.applied, r.replacements], [true, 4]),
      () => assert.equal(text('multi-apply.txt'), '0h hi there\nw0rld\n'),
    ],
    ['no edits', { path: 'multi.txt', edits: [] }, 'INVALID_ARGUMENTS'],
  ]);

  writeFileSync(at('del.txt'), 'x');
  writeFileSync(at('del-target.txt'), 'target');
  symlinkSync('del-target.txt', at('del-link'));
  mkdirSync(at('del-empty'));
  mkdirSync(at('del-full'));
  writeFileSync(at('del-full', 'x'), 'x');
  table('file_delete', [
    ['a file', { path: 'del.txt' }, (r) => assert.deepEqual(r, { path: 'del.txt', deleted: 'file' }), gone('del.txt')],
    [
      'a symlink deletes the link, not its target',
      { path: 'del-link' },
      (r) => assert.equal(r.deleted, 'file'),
      () => {
        assert.throws(() => lstatSync(at('del-link')), { code: 'ENOENT' });
        assert.equal(text('del-target.txt'), 'target');
      },
    ],
    ['an empty folder', { path: 'del-empty' }, (r) => assert.deepEqual(r, { path: 'del-empty', deleted: 'directory' }), gone('del-empty')],
    ['a folder with entries', { path: 'del-full' }, 'DIR_NOT_EMPTY', () => assert.equal(text('del-full/x'), 'x')],
    ['a missing path', { path: 'del-missing' }, 'FILE_NOT_FOUND'],
    ['the root', { path: '.' }, 'DELETE_REFUSED'],
  ]);

  writeFileSync(at('ren-a.txt'), 'ren');
  writeFileSync(at('ren-keep.txt'), 'keep');
  mkdirSync(at('ren-dir'));
  table('file_rename', [
    ['a file', { oldPath: 'ren-a.txt', newPath: 'ren-b.txt' }, (r) => assert.deepEqual(r, { oldPath: 'ren-a.txt', newPath: 'ren-b.txt' }), gone('ren-a.txt')],
    ['creating the parents of newPath', { oldPath: 'ren-b.txt', newPath: 'ren/deep/c.txt' }, () => {}, () => assert.equal(text('ren/deep/c.txt'), 'ren')],
    ['onto an existing file', { oldPath: 'ren-keep.txt', newPath: 'lines.txt' }, 'ALREADY_EXISTS', () => assert.deepEqual([text('ren-keep.txt'), text('lines.txt')], ['keep', files['lines.txt']])],
    ['a missing oldPath', { oldPath: 'ren-missing.txt', newPath: 'anything.txt' }, 'FILE_NOT_FOUND', gone('anything.txt')],
    ['a folder into itself', { oldPath: 'ren-dir', newPath: 'ren-dir/inner/moved' }, 'INVALID_ARGUMENTS', gone('ren-dir/inner')],
    ['below a file', { oldPath: 'ren-keep.txt', newPath: 'lines.txt/x' }, 'NOT_A_DIRECTORY'],
    ['a folder', { oldPath: 'ren-dir', newPath: 'ren-dir-moved' }, () => {}, () => assert.ok(statSync(at('ren-dir-moved')).isDirectory())],
  ]);

  table('dir_create', [
    ['a new folder with its parents', { path: 'made/deep' }, (r) => assert.deepEqual(r, { path: 'made/deep', created: true }), () => assert.ok(statSync(at('made/deep')).isDirectory())],
    ['an existing folder', { path: 'made/deep' }, (r) => assert.deepEqual(r, { path: 'made/deep', created: false })],
    ['where a file is', { path: 'lines.txt' }, 'ALREADY_EXISTS'],
    ['below a file', { path: 'lines.txt/sub' }, 'NOT_A_DIRECTORY'],
  ]);

  table('dir_list', [
    [
      'sorted, with sizes and symlinks',
      { path: 'list' },
      (r) => {
        assert.equal(r.path, 'list');
        assert.deepEqual(r.entries, [
          { name: 'a.txt', path: 'list/a.txt', isDir: false, isSymlink: false, size: 1 },
          { name: 'b.txt', path: 'list/b.txt', isDir: false, isSymlink: false, size: 3 },
          { name: 'c-dir', path: 'list/c-dir', isDir: true, isSymlink: false, size: 0 },
          { name: 'z-link', path: 'list/z-link', isDir: false, isSymlink: true, size: 0 },
        ]);
      },
    ],
    ['names only: folders end in "/", a symlink is a name', { path: 'list', detail: 'names' }, (r) => assert.deepEqual(r, { path: 'list', names: ['a.txt', 'b.txt', 'c-dir/', 'z-link'] })],
    ['the root by default', {}, (r) => assert.equal(r.path, '.')],
    [
      'a FIFO: listed with size 0, never opened',
      {},
      (r) => assert.deepEqual(r.entries.find((e: any) => e.name === 'pipe'), { name: 'pipe', path: 'pipe', isDir: false, isSymlink: false, size: 0 }),
    ],
    [
      'more entries than one batch of lstats: each with its own size',
      { path: 'many' },
      (r) => {
        assert.equal(r.entries.length, 300);
        r.entries.forEach((e: any, i: number) => assert.deepEqual(e, { name: `f${String(i).padStart(3, '0')}`, path: `many/f${String(i).padStart(3, '0')}`, isDir: false, isSymlink: false, size: i }));
      },
    ],
    ['an empty folder', { path: 'empty-dir' }, (r) => assert.deepEqual(r.entries, [])],
    ['an empty folder, names only', { path: 'empty-dir', detail: 'names' }, (r) => assert.deepEqual(r, { path: 'empty-dir', names: [] })],
    ['names only of a file', { path: 'lines.txt', detail: 'names' }, 'NOT_A_DIRECTORY'],
    ['an unknown detail', { path: 'list', detail: 'sizes' }, 'INVALID_ARGUMENTS'],
    ['a file', { path: 'lines.txt' }, 'NOT_A_DIRECTORY'],
    ['a missing folder', { path: 'nowhere' }, 'FILE_NOT_FOUND'],
  ]);

  it('dir_list closes its folder whatever the outcome: no descriptor is left open', async () => {
    const openDescriptors = () => readdirSync('/proc/self/fd').length;
    const calls = [{ path: 'list' }, { path: 'list', detail: 'names' }, { path: 'lines.txt' }, { path: 'nowhere' }, { path: 'many' }];
    for (const args of calls) await client.callTool({ name: 'dir_list', arguments: args });
    const before = openDescriptors();
    for (let i = 0; i < 20; i++) for (const args of calls) await client.callTool({ name: 'dir_list', arguments: args });
    // A leak would leave 100 more; a few may be the gateway's own (its database, a worker).
    assert.ok(openDescriptors() < before + 10, `${openDescriptors() - before} more descriptors open after 100 listings`);
  });

  const names = (nodes: any[]): unknown[] => nodes.map((n) => (n.children ? { [n.name]: names(n.children) } : n.name));
  table('dir_tree', [
    [
      '.gitignore honoured by default',
      { path: 'tree' },
      (r) =>
        assert.deepEqual(names(r.tree), ['.gitignore', 'README.md', { node_modules: [{ x: ['index.js'] }] }, { src: [{ lib: ['util.ts'] }, 'main.ts'] }]),
    ],
    ['depth 1: the folder\'s own entries', { path: 'tree', depth: 1 }, (r) => assert.deepEqual(names(r.tree), ['.gitignore', 'README.md', { node_modules: [] }, { src: [] }])],
    ['depth 2', { path: 'tree', depth: 2 }, (r) => assert.deepEqual(names(r.tree), ['.gitignore', 'README.md', { node_modules: [{ x: [] }] }, { src: [{ lib: [] }, 'main.ts'] }])],
    ['exclude', { path: 'tree', exclude: ['node_modules', '*.md'] }, (r) => assert.deepEqual(names(r.tree), ['.gitignore', { src: [{ lib: ['util.ts'] }, 'main.ts'] }])],
    [
      'gitignore: false',
      { path: 'tree', gitignore: false, exclude: ['node_modules'] },
      (r) => assert.deepEqual(names(r.tree), ['.gitignore', 'README.md', { build: ['out.js'] }, 'ignored.txt', { src: [{ lib: ['util.ts'] }, 'main.ts'] }]),
    ],
    ['a FIFO named .gitignore is not waited on', { path: 'fifo-gitignore' }, (r) => assert.deepEqual(names(r.tree), ['.gitignore', 'x.txt'])],
    ['a file', { path: 'lines.txt' }, 'NOT_A_DIRECTORY'],
    ['depth over 20', { path: 'tree', depth: 21 }, 'INVALID_ARGUMENTS'],
  ]);

  table('file_find', [
    ['a glob on the name', { path: 'tree', pattern: '*.ts' }, (r) => assert.deepEqual(r, { matches: ['tree/src/main.ts', 'tree/src/lib/util.ts'], truncated: false })],
    ['a glob on the path', { path: 'tree', pattern: 'src/lib/*' }, (r) => assert.deepEqual(r.matches, ['tree/src/lib/util.ts'])],
    ['an exact name from the root', { pattern: 'Dockerfile' }, (r) => assert.deepEqual(r.matches, ['Dockerfile'])],
    ['.gitignore honoured', { path: 'tree', pattern: '*.js' }, (r) => assert.deepEqual(r.matches, ['tree/node_modules/x/index.js'])],
    ['gitignore: false', { path: 'tree', pattern: '*.js', gitignore: false }, (r) => assert.deepEqual(r.matches, ['tree/build/out.js', 'tree/node_modules/x/index.js'])],
    ['exclude', { path: 'tree', pattern: '*.js', gitignore: false, exclude: ['node_modules'] }, (r) => assert.deepEqual(r.matches, ['tree/build/out.js'])],
    ['max_results truncates', { path: 'tree', pattern: '*.ts', max_results: 1 }, (r) => assert.deepEqual(r, { matches: ['tree/src/main.ts'], truncated: true })],
    ['exactly max_results matches is not truncated', { path: 'tree', pattern: '*.ts', max_results: 2 }, (r) => assert.deepEqual(r.truncated, false)],
    ['a file as the folder', { path: 'lines.txt', pattern: '*' }, 'NOT_A_DIRECTORY'],
  ]);

  const where = (r: any) => r.matches.map((m: any) => `${m.path}:${m.line}:${m.column}`);
  table('file_search', [
    [
      'a literal, case-sensitive by default (ignored, binary and FIFO files skipped)',
      { path: 'search', query: 'Hello' },
      (r) => {
        assert.deepEqual(r.matches, [{ path: 'search/a.txt', line: 1, column: 1, text: 'Hello world' }]);
        assert.equal(r.truncated, false);
      },
    ],
    ['case-insensitive', { path: 'search', query: 'hello', case_sensitive: false }, (r) => assert.deepEqual(where(r), ['search/a.txt:1:1', 'search/a.txt:2:1', 'search/a.txt:3:1'])],
    ['a regular expression', { path: 'search', query: 'wor?ld|ag[a-z]+', regex: true }, (r) => assert.deepEqual(where(r), ['search/a.txt:1:7', 'search/a.txt:2:7'])],
    ['a regex, case-insensitive', { path: 'search', query: '^h\\w+ t', regex: true, case_sensitive: false }, (r) => assert.deepEqual(where(r), ['search/a.txt:3:1'])],
    ['context lines', { path: 'search', query: 'TARGET', context_lines: 1 }, (r) => assert.deepEqual(r.matches, [{ path: 'search/ctx.txt', line: 3, column: 1, text: 'TARGET', before: ['l2'], after: ['l4'] }])],
    ['an include glob', { path: 'search', query: 'e', include: '*.md' }, (r) => assert.deepEqual(where(r), ['search/b.md:1:2'])],
    ['an include glob that excludes the match', { path: 'search', query: 'needle', include: '*.txt' }, (r) => assert.deepEqual(r.matches, [])],
    ['gitignore: false searches ignored files, still not binary ones', { path: 'search', query: 'Hello', gitignore: false }, (r) => assert.deepEqual(where(r), ['search/a.txt:1:1', 'search/skipped.txt:1:1'])],
    ['max_results truncates', { path: 'search', query: 'rep', max_results: 2 }, (r) => assert.deepEqual([where(r), r.truncated], [['search/rep.txt:1:1', 'search/rep.txt:2:1'], true])],
    ['exactly max_results matches is not truncated', { path: 'search', query: 'rep', max_results: 3 }, (r) => assert.deepEqual([r.matches.length, r.truncated], [3, false])],
    ['an invalid regular expression', { path: 'search', query: '(unclosed', regex: true }, 'INVALID_ARGUMENTS'],
    ['a file as the folder', { path: 'lines.txt', query: 'one' }, 'NOT_A_DIRECTORY'],
    ['a missing folder', { path: 'nowhere', query: 'x' }, 'FILE_NOT_FOUND'],
  ]);

  describe('file_search cancellation', () => {
    it('a catastrophic regex is cancelled from the client; the gateway keeps answering', { timeout: 30_000 }, async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await assert.rejects(
        client.callTool({ name: 'file_search', arguments: { path: 'redos', query: '^(\\w+\\s?)*$', regex: true } }, { signal: controller.signal }),
      );
      clearTimeout(timer);
      assert.ok(Date.now() - started < 10_000, 'the call should end when cancelled, not at the 30 s tool timeout');
      await waitFor(() => gateway.audit('file_search').at(-1)?.outcome === 'CANCELLED');
      const again = resultJson(await client.callTool({ name: 'file_search', arguments: { path: 'search', query: 'needle' } }));
      assert.deepEqual(where(again), ['search/b.md:1:1']);
      assert.equal(resultJson(await client.callTool({ name: 'file_exists', arguments: { path: 'redos/line.txt' } })).exists, true);
    });
  });

  table('file_roots', [['the configured root, real and absolute', {}, (r) => assert.deepEqual(r, { roots: [ws] })]]);

  table('lang_detect', [
    ['by extension (the file need not exist)', { path: 'src/x.ts' }, (r) => assert.deepEqual(r, { path: 'src/x.ts', language: 'typescript', name: 'TypeScript' })],
    ['an upper-case extension', { path: 'LOUD.PY' }, (r) => assert.equal(r.language, 'python')],
    ['Dockerfile', { path: 'Dockerfile' }, (r) => assert.deepEqual([r.language, r.name], ['dockerfile', 'Dockerfile'])],
    ['Dockerfile.prod', { path: 'Dockerfile.prod' }, (r) => assert.equal(r.language, 'dockerfile')],
    ['Makefile', { path: 'Makefile' }, (r) => assert.equal(r.language, 'makefile')],
    ['.env', { path: '.env' }, (r) => assert.equal(r.language, 'dotenv')],
    ['a #!/usr/bin/env python3 file without extension', { path: 'script' }, (r) => assert.deepEqual([r.language, r.name], ['python', 'Python'])],
    ['an unknown extension', { path: 'other.xyz' }, (r) => assert.deepEqual([r.language, r.name], [null, null])],
    ['no extension, no file', { path: 'nothing-here' }, (r) => assert.equal(r.language, null)],
    ['a FIFO without extension is not waited on', { path: 'pipe' }, (r) => assert.equal(r.language, null)],
    ['a binary file without a #! line', { path: 'blob.bin' }, (r) => assert.equal(r.language, null)],
    ['a folder', { path: 'empty-dir' }, (r) => assert.equal(r.language, null)],
  ]);

  table('lang_list', [
    [
      'every language with id, name, extensions and file names',
      {},
      (r) => {
        const ids = r.languages.map((l: any) => l.id);
        assert.equal(new Set(ids).size, ids.length, 'ids are unique');
        const byId = new Map(r.languages.map((l: any) => [l.id, l]));
        assert.deepEqual(byId.get('typescript'), { id: 'typescript', name: 'TypeScript', extensions: ['.ts', '.mts', '.cts'], filenames: [] });
        assert.ok((byId.get('dockerfile') as any).filenames.includes('Dockerfile'));
        for (const l of r.languages) assert.ok(Array.isArray(l.extensions) && Array.isArray(l.filenames) && l.name, l.id);
      },
    ],
  ]);

  it('every error code the plugin declares was produced by some test', () => {
    // Produced by their own files, under a config this gateway does not have.
    // hard-links.test.ts: files with other hard links; permission-denied.test.ts: a folder the OS refuses.
    const elsewhere = new Set(['HARD_LINK_REFUSED', 'PERMISSION_DENIED']);
    // Core's codes the plugin answers with: the sandbox's, and what core's workspace read refuses.
    const core = ['OUTSIDE_WORKSPACE', 'INVALID_PATH', 'INVALID_ARGUMENTS', 'IS_A_DIRECTORY', 'FILE_TOO_LARGE', 'NOT_A_REGULAR_FILE', 'HARD_LINK_REFUSED'];
    const missing = [...Object.keys(fileErrors), ...core].filter((code) => !seen.has(code) && !elsewhere.has(code));
    assert.deepEqual(missing, []);
  });
});
