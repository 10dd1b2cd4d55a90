import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { TestStore } from '../../../core/testing.js';
import { storeMatrix } from '../../support/test-stores.js';
import { collabGateway, type CollabGateway, type CollabSession } from './collab-helpers.js';

describe('collab_claim_next: what to do next, in order', () => {
  it('claims the most urgent, then oldest, ready task; locks its files; continues it; then idles', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    const bob = await c.session();
    await bob.call('collab_join', { name: 'bob' });
    assert.deepEqual(await bob.call('collab_claim_next', {}), { action: 'idle', dry_run: false });

    const base = (await c.call('collab_create_task', { title: 'Base', priority: 4 })).task;
    await c.call('collab_create_task', { title: 'Waits for base', priority: 1, depends_on: [base.id] });
    await c.call('collab_create_task', { title: 'For alice only', priority: 1, assignee: 'alice' });
    const older = (await c.call('collab_create_task', { title: 'Older', priority: 2, relevant_files: ['src/a.ts', 'src/b.ts'] })).task;
    await c.call('collab_create_task', { title: 'Newer', priority: 2 });
    await c.call('collab_lock_file', { path: 'src/b.ts', reason: 'refactoring' });

    const dry = await bob.call('collab_claim_next', { dry_run: true });
    assert.equal(dry.action, 'claimed');
    assert.equal(dry.dry_run, true);
    assert.equal(dry.task.id, older.id);
    assert.equal(dry.task.status, 'pending', 'a dry run changes nothing');
    assert.deepEqual(dry.locked, ['src/a.ts']);

    const claimed = await bob.call('collab_claim_next', {});
    assert.equal(claimed.action, 'claimed');
    assert.equal(claimed.task.id, older.id);
    assert.equal(claimed.task.status, 'in_progress');
    assert.equal(claimed.task.assignee, 'bob');
    assert.ok(claimed.task.started_at);
    assert.deepEqual(claimed.locked, ['src/a.ts']);
    assert.deepEqual(claimed.lock_conflicts.map((l: any) => [l.path, l.agent, l.reason]), [['src/b.ts', 'alice', 'refactoring']]);
    const lock = (await bob.call('collab_check_lock', { path: 'src/a.ts' })).lock;
    assert.equal(lock.agent, 'bob');
    assert.equal(lock.task_id, older.id);
    assert.equal((await bob.call('collab_join', { name: 'bob' })).agent.current_task_id, older.id);

    const again = await bob.call('collab_claim_next', {});
    assert.equal(again.action, 'continue_task');
    assert.equal(again.task.id, older.id);
    await bob.call('collab_update_task', { id: older.id, status: 'completed' });
    assert.equal((await bob.call('collab_check_lock', { path: 'src/a.ts' })).locked, false, 'completing the task released its locks');
    assert.equal((await bob.call('collab_claim_next', {})).task.title, 'Newer');
    await bob.call('collab_update_task', { id: (await bob.call('collab_claim_next', {})).task.id, status: 'completed' });
    const baseClaim = await bob.call('collab_claim_next', {});
    assert.equal(baseClaim.task.title, 'Base', 'the urgent task waits for its dependency; alice’s is not bob’s');
    await bob.call('collab_update_task', { id: base.id, status: 'completed' });
    assert.equal((await bob.call('collab_claim_next', {})).task.title, 'Waits for base');
  });

  it('unread messages come before new tasks; an open plan item after them', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    const bob = await c.session();
    await bob.call('collab_join', { name: 'bob' });
    // A force-unlock sends bob an alert: a message he has not read.
    await bob.call('collab_lock_file', { path: 'notes.md' });
    await c.call('collab_unlock_file', { path: 'notes.md', force: true });
    await c.call('collab_create_task', { title: 'Waiting' });
    assert.deepEqual(await bob.call('collab_claim_next', {}), { action: 'read_messages', unread: 1, dry_run: false });

    const db = c.store('collab').db;
    const now = new Date().toISOString();
    await db.insertInto('collab_plans').values({ id: 'launch', title: 'Launch', goal: 'Ship it', context: null, created_by: 'alice', active: 1, created_at: now, updated_at: now }).execute();
    const item = { plan_id: 'launch', description: null, owner: null, status: 'pending', reasoning: null, constraints: '[]', dependencies: '[]', blockers: '[]', notes: '[]', created_at: now, updated_at: now, version: 1 };
    await db.insertInto('collab_plan_items').values({ ...item, id: 'owned', position: 1, title: 'Owned', priority: 1, owner: 'bob', acceptance: '[]' }).execute();
    await db.insertInto('collab_plan_items').values({ ...item, id: 'docs', position: 2, title: 'Docs', priority: 2, acceptance: '["README updated"]' }).execute();
    const alice = await c.call('collab_claim_next', {});
    assert.equal(alice.task.title, 'Waiting');
    await c.call('collab_update_task', { id: alice.task.id, status: 'completed' });
    assert.deepEqual(await c.call('collab_claim_next', {}), {
      action: 'work_on_plan_item',
      plan_id: 'launch',
      item: { id: 'docs', title: 'Docs', description: null, priority: 2, acceptance: ['README updated'] },
      dry_run: false,
    });
  });

  it('needs an acting agent', async () => {
    const c = await collabGateway();
    assert.equal((await c.fail('collab_claim_next', {})).code, 'COLLAB_AGENT_REQUIRED');
    assert.equal((await c.fail('collab_claim_next', { agent: 'ghost' })).code, 'COLLAB_AGENT_NOT_FOUND');
  });
});

/** `count` sessions on `gateway`, each joined as `<prefix>-<n>`. */
async function claimers(gateway: CollabGateway, prefix: string, count: number): Promise<CollabSession[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const session = await gateway.session(`${prefix}-${n}`);
      await session.call('collab_join', { name: `${prefix}-${n}` });
      return session;
    }),
  );
}

/** Every claimer calls collab_claim_next at once; answers the claimed task ids and the idle count. */
async function race(sessions: CollabSession[]): Promise<{ claimed: number[]; idle: number }> {
  const answers = await Promise.all(sessions.map((s) => s.call('collab_claim_next', {})));
  return { claimed: answers.filter((a) => a.action === 'claimed').map((a) => a.task.id), idle: answers.filter((a) => a.action === 'idle').length };
}

for (const backend of storeMatrix()) {
  describe(`collab_claim_next races on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.close());

    it('16 concurrent claimers, 10 tasks: every task claimed exactly once, 6 idle', async () => {
      const c = await collabGateway({}, await backend.fresh());
      await c.call('collab_join', { name: 'driver' });
      const ids: number[] = [];
      for (let n = 0; n < 10; n++) ids.push((await c.call('collab_create_task', { title: `task ${n}`, priority: 1 + (n % 4), relevant_files: [`src/shared.ts`, `src/f${n}.ts`] })).task.id);
      const { claimed, idle } = await race(await claimers(c, 'agent', 16));
      assert.deepEqual([...claimed].sort((a, b) => a - b), ids);
      assert.equal(idle, 6);
      const listed = await c.call('collab_list_tasks', { status: 'in_progress', limit: 50 });
      assert.equal(listed.count, 10);
      assert.equal(new Set(listed.tasks.map((t: any) => t.assignee)).size, 10, 'ten different agents hold them');
      const shared = (await c.call('collab_check_lock', { path: 'src/shared.ts' })).lock;
      assert.ok(listed.tasks.some((t: any) => t.assignee === shared.agent), 'the shared file went to exactly one claimer');
      assert.equal((await c.call('collab_list_locks', {})).count, 11);
    });

    it('two gateways on one store, 8 claimers each: no task claimed twice', { skip: backend.name === 'sqlite' ? 'two gateways share a store on PostgreSQL' : false }, async () => {
      const store: TestStore = await backend.fresh();
      const a = await collabGateway({}, store);
      const b = await collabGateway({}, store);
      await a.call('collab_join', { name: 'driver' });
      const ids: number[] = [];
      for (let n = 0; n < 10; n++) ids.push((await a.call('collab_create_task', { title: `task ${n}` })).task.id);
      const [onA, onB] = await Promise.all([claimers(a, 'a', 8), claimers(b, 'b', 8)]);
      const { claimed, idle } = await race([...onA!, ...onB!]);
      assert.deepEqual([...claimed].sort((x, y) => x - y), ids);
      assert.equal(idle, 6);
    });
  });
}
