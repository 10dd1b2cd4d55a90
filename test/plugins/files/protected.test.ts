import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeConfig } from '../../helpers.js';
import { fails, filesGateway, ok, realTempDir, snapshot } from './files-helpers.js';

const PROTECTED = 'PROTECTED_PATH';

describe('files: protected paths (the config file, dataDir, protectedPaths)', async () => {
  // base/ is the workspace and holds the config file; dataDir is state/data.
  const base = realTempDir();
  const configFile = writeConfig(base, {
    auth: 'none',
    logLevel: 'silent',
    registries: [],
    plugins: { files: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
    dataDir: 'state/data',
    workspace: '.',
    protectedPaths: ['.git', 'secrets/keys.txt'],
  });
  mkdirSync(join(base, '.git'));
  writeFileSync(join(base, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(base, 'sub', '.git'), { recursive: true });
  writeFileSync(join(base, 'sub', '.git', 'x'), 'x\n');
  mkdirSync(join(base, 'secrets'));
  writeFileSync(join(base, 'secrets', 'keys.txt'), 'k\n');
  mkdirSync(join(base, 'src'));
  writeFileSync(join(base, 'src', 'a.txt'), 'a\n');
  symlinkSync('gateway.config.yaml', join(base, 'link-to-config'));
  symlinkSync('.git', join(base, 'link-to-git'));
  // The gateway reads that file, as with --config: it is the gateway's own, and protected.
  const gateway = await filesGateway(base, {}, {}, { configFile, store: { storage: { shared: 'sqlite' }, dataDir: join(base, 'state', 'data') } });
  const { client } = gateway;
  const configText = readFileSync(configFile, 'utf8');
  // sub/ moves to sub2/ below; its .git is checked by content.
  const guarded = () => snapshot(base, ['state', 'src', 'sub', 'sub2', 'moved']);
  const before = guarded();

  const w = (path: string) => ({ path, content: 'pwned\n' });
  const refused: Array<[string, string, Record<string, unknown>]> = [
    ['overwriting the config file', 'file_write', w('gateway.config.yaml')],
    ['the config file spelt with ..', 'file_write', w('src/../gateway.config.yaml')],
    ['the config file by absolute path', 'file_write', w(configFile)],
    ['the config file through a symlink', 'file_write', w('link-to-config')],
    ['editing the config file', 'file_edit', { path: 'gateway.config.yaml', old_string: 'files', new_string: 'x' }],
    ['multi-editing the config file', 'file_multi_edit', { path: 'link-to-config', edits: [{ old_string: 'files', new_string: 'x' }] }],
    ['deleting the config file', 'file_delete', { path: 'gateway.config.yaml' }],
    ['renaming the config file away', 'file_rename', { oldPath: 'gateway.config.yaml', newPath: 'old.yaml' }],
    ['moving a file over the config file', 'file_rename', { oldPath: 'src/a.txt', newPath: 'gateway.config.yaml' }],
    ['writing in dataDir', 'file_write', w('state/data/new.txt')],
    ['creating a folder in dataDir', 'dir_create', { path: 'state/data/plugins/x' }],
    ['deleting the database', 'file_delete', { path: 'state/data/gateway.db' }],
    ['deleting dataDir', 'file_delete', { path: 'state/data' }],
    ['moving the folder that holds dataDir', 'file_rename', { oldPath: 'state', newPath: 'moved' }],
    ['writing in .git', 'file_write', w('.git/HEAD')],
    ['writing in a nested .git', 'file_write', w('sub/.git/x')],
    ['writing in .git through a symlink', 'file_write', w('link-to-git/config')],
    ['creating a .git anywhere', 'dir_create', { path: 'src/deep/.git' }],
    ['creating a file under a new .git', 'file_write', w('new/.git/hooks/pre-commit')],
    ['moving a file into .git', 'file_rename', { oldPath: 'src/a.txt', newPath: '.git/a.txt' }],
    ['renaming .git', 'file_rename', { oldPath: '.git', newPath: 'git-old' }],
    ['deleting in .git', 'file_delete', { path: '.git/HEAD' }],
    ['a protectedPaths entry with a slash', 'file_write', w('secrets/keys.txt')],
    ['deleting it', 'file_delete', { path: 'secrets/keys.txt' }],
    ['moving the folder that holds it', 'file_rename', { oldPath: 'secrets', newPath: 'moved' }],
  ];
  for (const [label, tool, args] of refused) {
    it(`${tool}: ${label} → ${PROTECTED}`, async () => {
      const error = await fails(client, tool, args, PROTECTED);
      assert.match(error.message, /protected/);
    });
  }

  it('reading them stays allowed', async () => {
    assert.equal((await ok(client, 'file_read', { path: 'gateway.config.yaml' })).content, configText);
    assert.equal((await ok(client, 'file_read', { path: 'link-to-git/HEAD' })).content, 'ref: refs/heads/main\n');
    assert.deepEqual((await ok(client, 'dir_list', { path: '.git' })).entries.map((e: any) => e.name), ['HEAD']);
    const dry = await ok(client, 'file_multi_edit', { path: 'gateway.config.yaml', edits: [{ old_string: 'files', new_string: 'x' }], dry_run: true });
    assert.equal(dry.applied, false);
  });

  it('a folder holding a .git moves (the name stays protected where it lands); a link to the config is deleted itself', async () => {
    await ok(client, 'file_rename', { oldPath: 'sub', newPath: 'sub2' });
    await fails(client, 'file_write', w('sub2/.git/x'), PROTECTED);
    await ok(client, 'file_write', w('secrets/other.txt'));
    await ok(client, 'file_delete', { path: 'link-to-config' });
    await ok(client, 'file_write', w('link-to-config'));
  });

  it('after all of that the protected files are unchanged', () => {
    assert.equal(readFileSync(configFile, 'utf8'), configText);
    assert.equal(readFileSync(join(base, 'sub2', '.git', 'x'), 'utf8'), 'x\n');
    const after = guarded();
    delete after['link-to-config'];
    delete after['secrets/other.txt'];
    delete before['link-to-config'];
    assert.deepEqual(after, before);
  });
});
