import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { tempDir } from '../../helpers.js';
import { aliceAndBob } from './collab-helpers.js';

describe('collab file locks', () => {
  it('locks (a file not created yet too), extends for its owner, refuses another, checks, lists, unlocks', async () => {
    const { c, alice, bob } = await aliceAndBob();
    const events: GatewayEvent[] = [];
    c.events.subscribe('collab.lock.*', (event) => void events.push(event));
    const first = await alice.call('collab_lock_file', { path: './src/new-file.ts', reason: 'creating it', duration_minutes: 5 });
    assert.equal(first.extended, false);
    assert.equal(first.lock.path, 'src/new-file.ts');
    assert.equal(first.lock.agent, 'alice');
    assert.equal(first.lock.task_id, null);
    const again = await alice.call('collab_lock_file', { path: 'src/new-file.ts', duration_minutes: 60 });
    assert.equal(again.extended, true);
    assert.equal(again.lock.reason, 'creating it');
    assert.equal(again.lock.locked_at, first.lock.locked_at);
    assert.ok(again.lock.expires_at > first.lock.expires_at);

    const refused = await bob.fail('collab_lock_file', { path: join(c.workspace, 'src/new-file.ts') });
    assert.equal(refused.code, 'COLLAB_FILE_LOCKED');
    assert.equal(refused.details.lock.agent, 'alice');
    assert.equal((await bob.fail('collab_unlock_file', { path: 'src/new-file.ts' })).code, 'COLLAB_FILE_LOCKED');

    await bob.call('collab_lock_file', { path: 'README.md' });
    assert.deepEqual((await bob.call('collab_check_lock', { path: 'src/new-file.ts' })).lock.agent, 'alice');
    assert.deepEqual(await bob.call('collab_check_lock', { path: 'other.md' }), { path: 'other.md', locked: false, lock: null });
    assert.deepEqual((await bob.call('collab_list_locks', {})).locks.map((l: any) => l.path), ['src/new-file.ts', 'README.md']);
    assert.deepEqual((await bob.call('collab_list_locks', { agent: 'bob' })).locks.map((l: any) => l.path), ['README.md']);

    assert.deepEqual(await alice.call('collab_unlock_file', { path: 'src/new-file.ts' }), { path: 'src/new-file.ts', released: true, forced: false, holder: 'alice' });
    assert.deepEqual(await alice.call('collab_unlock_file', { path: 'src/new-file.ts' }), { path: 'src/new-file.ts', released: false, forced: false, holder: null });
    assert.deepEqual(
      events.map((e) => e.channel),
      ['collab.lock.acquired', 'collab.lock.acquired', 'collab.lock.acquired', 'collab.lock.released'],
    );
  });

  it('force unlock is audited: an event, and an alert message from system to the holder', async () => {
    const { c, alice, bob } = await aliceAndBob();
    const events: GatewayEvent[] = [];
    c.events.subscribe('collab.**', (event) => void events.push(event));
    await bob.call('collab_lock_file', { path: 'README.md', reason: 'rewriting' });
    assert.deepEqual(await alice.call('collab_unlock_file', { path: 'README.md', force: true }), { path: 'README.md', released: true, forced: true, holder: 'bob' });
    const forced = events.find((e) => e.channel === 'collab.lock.forced')!;
    assert.deepEqual(forced.data, { path: 'README.md', agent: 'bob', by: 'alice' });
    const sent = events.find((e) => e.channel === 'collab.message.sent')!.data as any;
    assert.equal(sent.from, 'system');
    assert.equal(sent.to, 'bob');
    assert.equal(sent.kind, 'alert');
    assert.equal((await bob.call('collab_check_lock', { path: 'README.md' })).locked, false);
  });

  it('an expired lock is purged: anyone may take the file', async () => {
    const { c, alice, bob } = await aliceAndBob();
    await alice.call('collab_lock_file', { path: 'README.md', duration_minutes: 1 });
    await c.store('collab').db.updateTable('collab_locks').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    assert.equal((await bob.call('collab_check_lock', { path: 'README.md' })).locked, false);
    assert.equal((await bob.call('collab_lock_file', { path: 'README.md' })).lock.agent, 'bob');
    assert.equal((await c.store('collab').db.selectFrom('collab_locks').selectAll().execute()).length, 1);
  });

  it('refuses paths outside the workspace (.., absolute, through a symlink) and bad durations', async () => {
    const { c, alice } = await aliceAndBob();
    const outside = tempDir('mcpgw-outside-');
    mkdirSync(join(c.workspace, 'src'), { recursive: true });
    symlinkSync(outside, join(c.workspace, 'src', 'escape'));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: '../x' }, 'OUTSIDE_WORKSPACE'],
      [{ path: join(outside, 'x.ts') }, 'OUTSIDE_WORKSPACE'],
      [{ path: 'src/escape/x.ts' }, 'OUTSIDE_WORKSPACE'],
      [{ path: 'a\0b' }, 'INVALID_PATH'],
      [{ path: 'x', duration_minutes: 0 }, 'INVALID_ARGUMENTS'],
      [{ path: 'x', duration_minutes: 121 }, 'INVALID_ARGUMENTS'],
      [{ path: 'x', task_id: 999 }, 'COLLAB_TASK_NOT_FOUND'],
    ];
    for (const [args, code] of cases) assert.equal((await alice.fail('collab_lock_file', args)).code, code, JSON.stringify(args));
    assert.equal((await alice.fail('collab_check_lock', { path: '../x' })).code, 'OUTSIDE_WORKSPACE');
    assert.equal((await alice.fail('collab_unlock_file', { path: 'src/escape/x.ts' })).code, 'OUTSIDE_WORKSPACE');
  });
});
