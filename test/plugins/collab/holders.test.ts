// A task's holder: what happens to it, its locks and its news when someone else moves, cancels,
// reassigns or completes its task; and what the gateway says itself, whatever the caps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bannerAfter, awaitBanner } from './banner-helpers.js';
import { collabGateway } from './collab-helpers.js';

async function team(overrides: Record<string, unknown> = {}) {
  const c = await collabGateway(overrides);
  await c.call('collab_join', { name: 'lead' });
  const alice = await c.session('alice-client');
  await alice.call('collab_join', { name: 'alice' });
  const bob = await c.session('bob-client');
  await bob.call('collab_join', { name: 'bob' });
  return { c, lead: c, alice, bob };
}

describe('collab: a task and its holder', () => {
  it('collab_cancel_agent releases the locks of the tasks it cancels', async () => {
    const { lead, alice } = await team();
    const { task } = await lead.call('collab_create_task', { title: 'T', relevant_files: ['src/a.ts'] });
    const claimed = await alice.call('collab_claim_next', {});
    assert.equal(claimed.task.id, task.id);
    assert.deepEqual(claimed.locked, ['src/a.ts']);
    await lead.call('collab_cancel_agent', { target: 'alice', reason: 'wrong thing' });
    assert.equal((await lead.call('collab_get_task', { id: task.id })).task.status, 'cancelled');
    const locks = await lead.call('collab_list_locks', {});
    assert.equal(locks.count, 0, `locks left after cancel: ${JSON.stringify(locks.locks)}`);
  });

  it('a handoff of another agent\'s task releases the holder\'s locks', async () => {
    const { lead, alice } = await team();
    const { task } = await lead.call('collab_create_task', { title: 'T', relevant_files: ['src/b.ts'] });
    await alice.call('collab_claim_next', {});
    const handed = await lead.call('collab_handoff', { to: 'bob', summary: 's', next_steps: 'n', task_id: task.id });
    assert.equal(handed.task.assignee, 'bob');
    const locks = await lead.call('collab_list_locks', {});
    assert.equal(locks.count, 0, `alice still holds ${JSON.stringify(locks.locks.map((l: any) => l.agent + ':' + l.path))} for a task now bob's`);
  });

  it('a forced unlock of a long path succeeds: the alert to the holder is cut to the subject cap', async () => {
    const { alice, bob } = await team();
    const path = `src/${'d'.repeat(190)}.ts`;
    await alice.call('collab_lock_file', { path });
    const res = await bob.client.callTool({ name: 'collab_unlock_file', arguments: { path, force: true } });
    const still = await bob.call('collab_check_lock', { path });
    assert.equal(res.isError, undefined, `force unlock answered an error (${JSON.stringify(res.content).slice(0, 200)}) but locked=${still.locked}`);
  });

  it('updating the work context of a cancelled task does not send STOP again', async () => {
    const { lead, alice } = await team();
    const { task } = await lead.call('collab_create_task', { title: 'T', assignee: 'alice' });
    await alice.call('collab_claim_next', {});
    await lead.call('collab_update_task', { id: task.id, status: 'cancelled' });
    const first = await awaitBanner(alice.client);
    assert.match(first, /STOP/);
    await alice.call('collab_read_messages', {});
    await lead.call('collab_update_work_context', { task_id: task.id, key: 'post-mortem', value: 'x' });
    await new Promise((r) => setTimeout(r, 200));
    const again = await bannerAfter(alice.client);
    assert.ok(again === undefined || !/STOP/.test(again), `second STOP: ${again}`);
  });

  it('the previous holder hears STOP when its task in progress is given to another', async () => {
    const { lead, alice } = await team();
    const { task } = await lead.call('collab_create_task', { title: 'T' });
    await alice.call('collab_claim_next', {});
    await alice.call('collab_read_messages', {});
    await lead.call('collab_update_task', { id: task.id, assignee: 'bob' });
    await new Promise((r) => setTimeout(r, 200));
    const banner = await bannerAfter(alice.client);
    assert.ok(banner !== undefined, 'alice is not told that her task in progress went to bob');
  });

  it("only the holder or the creator moves a task in progress: a third agent is refused", async () => {
    const { lead, alice, bob } = await team();
    const { task } = await lead.call('collab_create_task', { title: 'T' });
    await alice.call('collab_claim_next', {});
    for (const [tool, args] of [
      ['collab_update_task', { id: task.id, status: 'completed' }],
      ['collab_update_task', { id: task.id, assignee: 'bob' }],
      ['collab_handoff', { task_id: task.id, to: 'bob', summary: 's', next_steps: 'n' }],
    ] as const) {
      const refused = await bob.fail(tool, args);
      assert.equal(refused.code, 'COLLAB_NOT_PERMITTED');
      assert.deepEqual(refused.details, { id: task.id, holder: 'alice', created_by: 'lead' });
    }
    assert.equal((await lead.call('collab_update_task', { id: task.id, status: 'completed' })).task.status, 'completed');
  });

  it('two sessions of one agent claiming at once get one task between them', async () => {
    const { c, lead, alice } = await team();
    for (const title of ['T1', 'T2']) await lead.call('collab_create_task', { title });
    const again = await c.session('alice-second-window');
    await again.call('collab_join', { name: 'alice' });
    const answers = await Promise.all([alice.call('collab_claim_next', {}), again.call('collab_claim_next', {})]);
    assert.deepEqual(answers.map((a) => a.action).sort(), ['claimed', 'continue_task']);
    assert.equal(answers[0].task.id, answers[1].task.id);
    const mine = await lead.call('collab_list_tasks', { assignee: 'alice', exact: true, status: 'in_progress' });
    assert.equal(mine.tasks.length, 1);
  });

  it('what the gateway says itself is cut to the caps: STOP with a small body cap', async () => {
    const { lead, alice } = await team({ plugins: { collab: { config: { messages: { maxBodyChars: 100 } } } } });
    await lead.call('collab_create_task', { title: 'A task with a long enough title to push the STOP body over the cap' });
    await alice.call('collab_claim_next', {});
    const res = await lead.client.callTool({ name: 'collab_cancel_agent', arguments: { target: 'alice', reason: 'stop' } });
    assert.equal(res.isError, undefined, `cancel_agent failed: ${JSON.stringify(res.content).slice(0, 200)}`);
  });

});
