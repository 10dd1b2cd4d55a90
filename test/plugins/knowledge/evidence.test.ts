import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createWorkspace } from '../../../core/index.js';
import { normalise, verifyEvidence } from '../../../plugins/knowledge/graph/evidence.js';
import { tempDir } from '../../helpers.js';

const limits = { maxFileBytes: 1024 * 1024 };

function workspace() {
  const root = tempDir();
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'const alpha = 1;\n\n   const   beta = 2;\nexport { alpha, beta };\n');
  return { root, ws: createWorkspace(root) };
}

describe('evidence verification', () => {
  it('normalises spacing and blank lines before comparing', async () => {
    assert.equal(normalise('  a   b \n\n\t c\r\n'), 'a b\nc');
    const { ws } = workspace();
    const v = await verifyEvidence([{ path: 'src/a.ts', start_line: 1, end_line: 3, snippet: 'const alpha = 1;\nconst beta = 2;' }], ws, limits);
    assert.equal(v.status, 'verified');
    assert.equal(v.adjustment, 0.1);
    assert.equal(v.items[0]!.actual, 'const alpha = 1;\n\n   const   beta = 2;');
  });

  it('scores a changed snippet by its best window of words, and a grep_pattern as a weaker fallback', async () => {
    const { ws } = workspace();
    const near = await verifyEvidence([{ path: 'src/a.ts', snippet: 'const alpha = 1; export alpha' }], ws, limits);
    assert.equal(near.items[0]!.status, 'partial');
    assert.ok(near.items[0]!.similarity > 0.5);
    const grep = await verifyEvidence([{ path: 'src/a.ts', snippet: 'something else entirely', grep_pattern: 'export { alpha' }], ws, limits);
    assert.equal(grep.items[0]!.status, 'partial');
    assert.equal(grep.items[0]!.similarity, 0.6);
    // A grep_pattern is literal text: regular-expression syntax matches nothing.
    const literal = await verifyEvidence([{ path: 'src/a.ts', snippet: 'nothing', grep_pattern: '(a+)+$' }], ws, limits);
    assert.equal(literal.status, 'rejected');
  });

  it('fails lines past the end of the file and an end before the start', async () => {
    const { ws } = workspace();
    const past = await verifyEvidence([{ path: 'src/a.ts', start_line: 99 }], ws, limits);
    assert.equal(past.status, 'rejected');
    assert.match(past.items[0]!.reason!, /only 4 lines/, 'a final line break starts no fifth line');
    const last = await verifyEvidence([{ path: 'src/a.ts', start_line: 5, snippet: 'export' }], ws, limits);
    assert.equal(last.items[0]!.lines_match, false);
    const backwards = await verifyEvidence([{ path: 'src/a.ts', start_line: 3, end_line: 2 }], ws, limits);
    assert.match(backwards.items[0]!.reason!, /end_line 2 is before start_line 3/);
  });

  it('refuses paths out of the sandbox — .., absolute, a symlink out, /proc — without reading them', async () => {
    const { root, ws } = workspace();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), 'const alpha = 1;\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'src', 'link.ts'));
    // A sibling folder whose name starts like the root's: a string-prefix check would let it in.
    const sibling = `${root}-evil`;
    mkdirSync(sibling, { recursive: true });
    writeFileSync(join(sibling, 'x.ts'), 'const alpha = 1;\n');
    const v = await verifyEvidence(
      ['../secret.txt', join(outside, 'secret.txt'), 'src/link.ts', '/proc/self/environ', `../${sibling.split('/').at(-1)}/x.ts`].map((path) => ({ path, snippet: 'const alpha = 1;' })),
      ws,
      limits,
    );
    assert.equal(v.status, 'rejected');
    for (const item of v.items) {
      assert.equal(item.file_exists, false, item.path);
      assert.match(item.reason!, /outside/i, item.path);
    }
  });

  it('does not open a FIFO, a directory, a binary file or one over the size limit', async () => {
    const { root, ws } = workspace();
    execFileSync('mkfifo', [join(root, 'src', 'pipe')]);
    writeFileSync(join(root, 'src', 'blob.bin'), Buffer.from([1, 0, 2, 0]));
    writeFileSync(join(root, 'src', 'big.txt'), '');
    truncateSync(join(root, 'src', 'big.txt'), 2 * 1024 * 1024 * 1024); // sparse: 2 GiB that take no disk
    const v = await verifyEvidence(['src/pipe', 'src', 'src/blob.bin', 'src/big.txt'].map((path) => ({ path })), ws, limits);
    // Refused by core's workspace read, with its codes; a binary file is read, then left.
    assert.deepEqual(
      v.items.map((i) => i.code),
      ['NOT_A_REGULAR_FILE', 'IS_A_DIRECTORY', undefined, 'FILE_TOO_LARGE'],
    );
    assert.match(v.items[0]!.reason!, /"src\/pipe" is a device, FIFO or socket, not a regular file/);
    assert.match(v.items[1]!.reason!, /"src" is a folder/);
    assert.equal(v.items[2]!.reason, 'binary file');
    assert.equal(v.items[3]!.reason, '"src/big.txt" is 2147483648 bytes, over the 1048576-byte read cap (graph.maxFileBytes)');
  });

  it('does not read a hard link (another may be an outside file) unless the workspace allows them', async () => {
    const { root } = workspace();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), 'const alpha = 1;\n');
    linkSync(join(outside, 'secret.txt'), join(root, 'src', 'linked.ts'));
    const cite = [{ path: 'src/linked.ts', snippet: 'const alpha = 1;' }];
    const refused = await verifyEvidence(cite, createWorkspace(root), limits);
    assert.equal(refused.status, 'rejected');
    assert.equal(refused.items[0]!.code, 'HARD_LINK_REFUSED');
    assert.equal(refused.items[0]!.file_hash, undefined);
    assert.equal((await verifyEvidence(cite, createWorkspace(root, { refuseHardLinks: false }), limits)).status, 'verified');
  });

  it('verifies nothing from a path alone, lines alone, or a grep_pattern alone', async () => {
    const { ws } = workspace();
    const v = await verifyEvidence(
      [{ path: 'src/a.ts' }, { path: 'src/a.ts', start_line: 1, end_line: 2 }, { path: 'src/a.ts', grep_pattern: 'export { alpha' }, { path: 'src/a.ts', grep_pattern: 'nowhere in the file' }],
      ws,
      limits,
    );
    assert.deepEqual(
      v.items.map((i) => [i.status, i.reason]),
      [
        ['partial', 'cites no text: add the snippet the claim rests on to verify it'],
        ['partial', 'cites no text: add the snippet the claim rests on to verify it'],
        ['partial', 'only grep_pattern cited: found, but a snippet would verify it'],
        ['failed', 'grep_pattern not found in the file'],
      ],
    );
    assert.equal(v.status, 'partial');
    assert.equal(v.adjustment, -0.1);
  });

  it('answers unverified for a node without evidence', async () => {
    const { ws } = workspace();
    assert.deepEqual((await verifyEvidence([], ws, limits)).status, 'unverified');
  });
});
