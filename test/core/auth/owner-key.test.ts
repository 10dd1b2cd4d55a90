import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadOwnerKey } from '../../../core/auth/owner-key.js';
import { ROOT, tempDir } from '../../helpers.js';

/** Runs loadOwnerKey on every folder of `dirs` in a child process, starting at `at` (ms since epoch). */
function loadInChild(dirs: string[], at: number): Promise<string[]> {
  const script = `
    import { loadOwnerKey } from ${JSON.stringify(import.meta.resolve('../../../core/auth/owner-key.js'))};
    const dirs = ${JSON.stringify(dirs)};
    while (Date.now() < ${at});
    const out = dirs.map((d) => { try { return loadOwnerKey(d).key; } catch (err) { return 'ERROR ' + err.message; } });
    process.stdout.write(JSON.stringify(out));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`child exited ${code}`)))));
}

describe('the owner key', () => {
  it('is made whole exactly once when two gateways start on a fresh data folder at the same moment', async () => {
    const base = tempDir();
    const dirs = Array.from({ length: 200 }, (_, i) => join(base, `d${i}`));
    const at = Date.now() + 3000; // both children loaded by then
    const [a, b] = await Promise.all([loadInChild(dirs, at), loadInChild(dirs, at)]);
    assert.deepEqual(a.filter((k) => k.startsWith('ERROR')), []);
    assert.deepEqual(b.filter((k) => k.startsWith('ERROR')), []);
    assert.deepEqual(a, b);
  });

  it('refuses an owner.key that is a symlink, or that others could read', () => {
    const planted = tempDir();
    writeFileSync(join(planted, 'elsewhere'), 'mgw_planted\n');
    symlinkSync(join(planted, 'elsewhere'), join(planted, 'owner.key'));
    assert.throws(() => loadOwnerKey(planted), (err: any) => err.code === 'CONFIG_INVALID' && /owner\.key is a symlink/.test(err.message));
    const loose = tempDir();
    const { key } = loadOwnerKey(loose);
    chmodSync(join(loose, 'owner.key'), 0o644);
    assert.throws(() => loadOwnerKey(loose), /must be a regular file of this user's with mode 0600/);
    chmodSync(join(loose, 'owner.key'), 0o600);
    assert.equal(loadOwnerKey(loose).key, key);
  });

  it('refuses a data folder of another user that others may write to', (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root to give a folder to another user');
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir);
    chownSync(dir, 65534, 65534);
    chmodSync(dir, 0o777);
    assert.throws(() => loadOwnerKey(dir), (err: any) => err.code === 'CONFIG_INVALID' && /belongs to another user and others may write to it/.test(err.message));
    assert.equal(statSync(dir).mode & 0o777, 0o777);
  });
});
