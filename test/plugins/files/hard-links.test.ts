import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fails, filesGateway, ok, realTempDir } from './files-helpers.js';

const REFUSED = 'HARD_LINK_REFUSED';

/** base/ws is the root; ws/linked.txt and ws/.gitignore are hard links to files outside it. */
function layout() {
  const base = realTempDir();
  const outside = realTempDir('mcpgw-outside-');
  mkdirSync(join(base, 'ws'));
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  writeFileSync(join(outside, 'rules'), 'probe-*.txt\n');
  linkSync(join(outside, 'secret.txt'), join(base, 'ws', 'linked.txt'));
  linkSync(join(outside, 'rules'), join(base, 'ws', '.gitignore'));
  writeFileSync(join(base, 'ws', 'plain.txt'), 'plain TOP\n');
  writeFileSync(join(base, 'ws', 'probe-1.txt'), '');
  return { base, outside };
}

describe('files: refuseHardLinks on (the default)', async () => {
  const { base, outside } = layout();
  const gateway = await filesGateway(base, { roots: ['ws'] });
  const { client } = gateway;

  const refused: Array<[string, Record<string, unknown>]> = [
    ['file_read', { path: 'linked.txt' }],
    ['file_read_media', { path: 'linked.txt' }],
    ['file_edit', { path: 'linked.txt', old_string: 'TOP', new_string: 'PWNED' }],
    ['file_multi_edit', { path: 'linked.txt', edits: [{ old_string: 'TOP', new_string: 'X' }], dry_run: true }],
    ['file_write', { path: 'linked.txt', content: 'over\n' }],
  ];
  for (const [tool, args] of refused) {
    it(`${tool} of a file with two links → ${REFUSED}`, async () => {
      const error = await fails(client, tool, args, REFUSED);
      assert.match(error.message, /hard links/);
      assert.doesNotMatch(error.message, /TOP SECRET/);
    });
  }

  it('file_search skips it, dir_tree and file_find do not use a hard-linked .gitignore; single-link files work', async () => {
    const search = await ok(client, 'file_search', { query: 'TOP', gitignore: true });
    assert.deepEqual(search.matches.map((m: any) => m.path), ['plain.txt']);
    assert.deepEqual((await ok(client, 'file_find', { pattern: 'probe-*' })).matches, ['probe-1.txt']);
    assert.equal((await ok(client, 'file_read', { path: 'plain.txt' })).content, 'plain TOP\n');
    await ok(client, 'file_write', { path: 'plain.txt', content: 'new\n' });
  });

  it('the outside files are untouched and still linked', () => {
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
    assert.equal(statSync(join(outside, 'secret.txt')).nlink, 2);
  });
});

describe('files: refuseHardLinks off', async () => {
  const { base } = layout();
  const gateway = await filesGateway(base, { roots: ['ws'] }, { refuseHardLinks: false });
  const { client } = gateway;

  it('a hard-linked file is read like any other (package managers link files on purpose)', async () => {
    assert.equal((await ok(client, 'file_read', { path: 'linked.txt' })).content, 'TOP SECRET\n');
    assert.deepEqual((await ok(client, 'file_find', { pattern: 'probe-*' })).matches, []);
  });
});
