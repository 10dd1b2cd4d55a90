import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { openDir, writeAtomicIn } from '../../../core/index.js';
import { resultJson } from '../../helpers.js';
import { filesGateway, realTempDir, snapshot } from './files-helpers.js';

/**
 * Swaps `<ws>/d` between a real folder and a symlink to `<outside>/d`, as fast as it can, with
 * atomic renames: d → d.real, d.link → d, d → d.link, d.real → d. Prints "swapping" once,
 * and runs until killed.
 */
const SWAPPER = `
const { renameSync } = require('node:fs');
const [ws] = process.argv.slice(1);
const at = (name) => ws + '/' + name;
let aside = 0;
// A call may create d while it is missing (file_write makes parents): move that one aside,
// as often as calls make it again in between.
const put = (from, to) => {
  for (let tries = 0; ; tries++) {
    try {
      renameSync(at(from), at(to));
      return;
    } catch (err) {
      if (tries >= 1000 || !['ENOTEMPTY', 'EEXIST', 'EISDIR', 'ENOTDIR'].includes(err.code)) throw err;
      try {
        renameSync(at(to), at('aside-' + aside++));
      } catch {
        // gone again meanwhile: just retry
      }
    }
  }
};
let first = true;
for (;;) {
  put('d', 'd.real');
  put('d.link', 'd');
  put('d', 'd.link');
  put('d.real', 'd');
  if (first) { process.stdout.write('swapping\\n'); first = false; }
}`;

/** Codes a call may fail with while its folder is being swapped: all say "not here", none leaks. */
const RACE_CODES = new Set(['OUTSIDE_WORKSPACE', 'FILE_NOT_FOUND', 'NOT_A_DIRECTORY']);
const ROUNDS = 150;

describe('files: a folder swapped for a symlink to outside, in a tight loop, during calls', async () => {
  const base = realTempDir();
  const ws = join(base, 'ws');
  const outside = realTempDir('mcpgw-outside-');
  mkdirSync(join(ws, 'd', 'sub'), { recursive: true });
  writeFileSync(join(ws, 'd', 'inside.txt'), 'inside\n');
  mkdirSync(join(outside, 'd', 'deep'), { recursive: true });
  writeFileSync(join(outside, 'd', 'OUTSIDE-MARKER.txt'), 'outside secret\n');
  writeFileSync(join(outside, 'd', 'deep', 'OUTSIDE-DEEP.txt'), 'outside secret\n');
  writeFileSync(join(outside, 'd', 'victim.txt'), 'must survive\n');
  symlinkSync(join(outside, 'd'), join(ws, 'd.link'));
  const gateway = await filesGateway(base, { roots: ['ws'] });
  const { client } = gateway;
  const before = snapshot(outside);

  it(`over ${ROUNDS} rounds of calls, nothing outside is listed, described, written, deleted or left behind`, async (t) => {
    const swapper = spawn(process.execPath, ['-e', SWAPPER, ws], { stdio: ['ignore', 'pipe', 'inherit'] });
    const refusals = new Map<string, number>();
    try {
      await new Promise<void>((resolve, reject) => {
        swapper.stdout.once('data', () => resolve());
        swapper.once('exit', (code) => reject(new Error(`swapper exited (${code}) before swapping`)));
      });
      for (let round = 0; round < ROUNDS; round++) {
        await Promise.all([
          call(client, 'dir_list', { path: 'd' }, refusals),
          call(client, 'dir_tree', { path: '.', depth: 5, gitignore: false }, refusals),
          call(client, 'file_find', { pattern: '**/*', gitignore: false }, refusals),
          call(client, 'file_info', { path: 'd/OUTSIDE-MARKER.txt' }, refusals, 'must fail'),
          call(client, 'file_exists', { path: 'd/OUTSIDE-MARKER.txt' }, refusals, (r) => assert.equal(r.exists, false, 'an outside file was seen to exist')),
          call(client, 'file_write', { path: `d/new-${round}.txt`, content: 'new\n' }, refusals),
          call(client, 'dir_create', { path: `d/made-${round}` }, refusals),
          call(client, 'file_delete', { path: 'd/victim.txt' }, refusals, 'must fail'),
          call(client, 'file_rename', { oldPath: 'd/victim.txt', newPath: `moved-${round}.txt` }, refusals, 'must fail'),
          call(client, 'file_read', { path: 'd/OUTSIDE-MARKER.txt' }, refusals, 'must fail'),
        ]);
      }
      assert.equal(swapper.exitCode, null, 'the swapper stopped before the calls did: the race did not last');
    } finally {
      swapper.kill('SIGKILL');
    }
    t.diagnostic(`refusals while swapping: ${JSON.stringify(Object.fromEntries(refusals))}`);
    assert.deepEqual(snapshot(outside), before);
  });
});

/**
 * One call under the race. A failure must carry one of RACE_CODES; a success must name
 * nothing from outside and pass `check` ('must fail': success itself means something leaked).
 */
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  refusals: Map<string, number>,
  check?: 'must fail' | ((result: any) => void),
): Promise<void> {
  const raw = await client.callTool({ name, arguments: args });
  const body = resultJson(raw);
  if (raw.isError) {
    assert.ok(RACE_CODES.has(body.code), `${name} ${JSON.stringify(args)}: ${body.code} ${body.message}`);
    refusals.set(body.code, (refusals.get(body.code) ?? 0) + 1);
    return;
  }
  assert.notEqual(check, 'must fail', `${name} ${JSON.stringify(args)} reached outside: ${JSON.stringify(body).slice(0, 300)}`);
  assert.doesNotMatch(JSON.stringify(body), /OUTSIDE-|outside secret/, `${name} ${JSON.stringify(args)} listed an outside entry`);
  if (typeof check === 'function') check(body);
}

describe('VerifiedDir: what is left (README, "What is left")', () => {
  it('a checked folder moved out of the root afterwards still receives the write; a link put in its place never does', async () => {
    const root = realTempDir();
    const outside = realTempDir('mcpgw-outside-');
    mkdirSync(join(root, 'w'));
    mkdirSync(join(outside, 'other'));
    const dir = await openDir(join(root, 'w'));
    try {
      // Only someone who can write outside the root can do this move; the sandbox cannot undo it.
      renameSync(join(root, 'w'), join(outside, 'moved'));
      symlinkSync(join(outside, 'other'), join(root, 'w'));
      await writeAtomicIn(dir, 'f.txt', 'data');
    } finally {
      await dir.close();
    }
    assert.deepEqual(readdirSync(join(outside, 'moved')), ['f.txt']);
    assert.deepEqual(readdirSync(join(outside, 'other')), []);
  });
});
