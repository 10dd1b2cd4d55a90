// Who may start, cancel, block, reassign, hand off or replay a task that is not yet in progress,
// and the one-task-in-progress rule on every path that starts one (issue 34, item 6: any agent
// started or cancelled another's pending task, a pinned agent's too, and then held two).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collabGateway, restCollabGateway, type CollabSession } from './collab-helpers.js';

/** lead (the creator), alice and bob, each joined on a session of one gateway. */
async function team() {
  const c = await collabGateway();
  await c.call('collab_join', { name: 'lead' });
  const alice = await c.session('alice-client');
  await alice.call('collab_join', { name: 'alice' });
  const bob = await c.session('bob-client');
  await bob.call('collab_join', { name: 'bob' });
  return { c, lead: c as CollabSession, alice, bob };
}

const taskOf = async (s: CollabSession, id: number) => (await s.call('collab_get_task', { id })).task;

describe('collab: a task not in progress is its assignee\'s', () => {
  it('a third agent may not start, cancel, block, reassign, hand off or replay it; nothing changes', async () => {
    const { lead, alice, bob } = await team();
    const { task: hers } = await lead.call('collab_create_task', { title: 'For alice', assignee: 'alice' });
    const { task: open } = await lead.call('collab_create_task', { title: 'For anyone' });
    const { task: stuck } = await lead.call('collab_create_task', { title: 'Blocked, alice\'s', assignee: 'alice' });
    await alice.call('collab_update_task', { id: stuck.id, blocked_by: 'waiting for CI' });
    const before = await Promise.all([hers, open, stuck].map((t) => taskOf(lead, t.id)));

    const cases: Array<[string, Record<string, unknown>, { id: number; status: string; assignee: string }]> = [
      ['collab_update_task', { id: hers.id, status: 'in_progress' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_update_task', { id: hers.id, status: 'cancelled' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_update_task', { id: hers.id, blocked_by: 'mine now' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_update_task', { id: hers.id, assignee: 'bob' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_update_task', { id: hers.id, status: 'in_progress', assignee: 'bob' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_handoff', { task_id: hers.id, to: 'bob', summary: 's', next_steps: 'n' }, { id: hers.id, status: 'pending', assignee: 'alice' }],
      ['collab_replay_task', { id: stuck.id, reassign_to: 'bob' }, { id: stuck.id, status: 'blocked', assignee: 'alice' }],
      ['collab_update_task', { id: stuck.id, status: 'cancelled' }, { id: stuck.id, status: 'blocked', assignee: 'alice' }],
      // Open to anyone means open to take, not to cancel or give away.
      ['collab_update_task', { id: open.id, status: 'cancelled' }, { id: open.id, status: 'pending', assignee: 'any' }],
      ['collab_update_task', { id: open.id, assignee: 'alice' }, { id: open.id, status: 'pending', assignee: 'any' }],
      ['collab_handoff', { task_id: open.id, to: 'alice', summary: 's', next_steps: 'n' }, { id: open.id, status: 'pending', assignee: 'any' }],
    ];
    for (const [tool, args, expected] of cases) {
      const refused = await bob.fail(tool, args);
      assert.equal(refused.code, 'COLLAB_NOT_PERMITTED', `${tool} ${JSON.stringify(args)}`);
      assert.deepEqual(refused.details, { ...expected, created_by: 'lead' }, `${tool} ${JSON.stringify(args)}`);
    }
    assert.deepEqual(await Promise.all([hers, open, stuck].map((t) => taskOf(lead, t.id))), before, 'no task changed');
  });

  it('its assignee and its creator may; anyone takes a task for any for itself', async () => {
    const { lead, alice, bob } = await team();
    const { task: hers } = await lead.call('collab_create_task', { title: 'For alice', assignee: 'alice' });
    assert.equal((await alice.call('collab_update_task', { id: hers.id, status: 'in_progress' })).task.status, 'in_progress');
    assert.equal((await alice.call('collab_update_task', { id: hers.id, status: 'completed' })).task.status, 'completed');

    const { task: cancelled } = await lead.call('collab_create_task', { title: 'Not needed', assignee: 'alice' });
    assert.equal((await lead.call('collab_update_task', { id: cancelled.id, status: 'cancelled' })).task.status, 'cancelled');
    assert.equal((await lead.call('collab_replay_task', { id: cancelled.id, reassign_to: 'bob' })).task.assignee, 'bob');
    assert.equal((await bob.call('collab_handoff', { task_id: cancelled.id, to: 'alice', summary: 's', next_steps: 'n' })).task.assignee, 'alice');

    const { task: open } = await lead.call('collab_create_task', { title: 'For anyone' });
    assert.equal((await bob.call('collab_update_task', { id: open.id, assignee: 'bob' })).task.assignee, 'bob', 'taken, not started');
    const { task: other } = await lead.call('collab_create_task', { title: 'Also for anyone' });
    const started = (await alice.call('collab_update_task', { id: other.id, status: 'in_progress' })).task;
    assert.deepEqual([started.status, started.assignee], ['in_progress', 'alice']);
    // Priority and dependencies stay open to all.
    assert.equal((await bob.call('collab_update_task', { id: hers.id, priority: 1 })).task.priority, 1);
  });
});

describe('collab: one task in progress per agent, on every path', () => {
  it('refuses to start a second task for an agent, whoever starts it, and lets it once the first is done', async () => {
    const { lead, alice, bob } = await team();
    const { task: first } = await lead.call('collab_create_task', { title: 'First', assignee: 'alice', priority: 1 });
    const { task: second } = await lead.call('collab_create_task', { title: 'Second', assignee: 'alice' });
    const { task: open } = await lead.call('collab_create_task', { title: 'For anyone' });
    const { task: bobs } = await lead.call('collab_create_task', { title: 'Bob\'s', assignee: 'bob' });
    assert.equal((await alice.call('collab_claim_next', {})).task.id, first.id);
    await bob.call('collab_update_task', { id: bobs.id, status: 'in_progress' });

    const busy = { agent: 'alice', task_id: first.id };
    const cases: Array<[CollabSession, Record<string, unknown>]> = [
      [alice, { id: second.id, status: 'in_progress' }],
      [alice, { id: open.id, status: 'in_progress' }],
      [lead, { id: second.id, status: 'in_progress' }],
      [lead, { id: bobs.id, assignee: 'alice' }],
    ];
    for (const [who, args] of cases) {
      const refused = await who.fail('collab_update_task', args);
      assert.equal(refused.code, 'COLLAB_AGENT_BUSY', JSON.stringify(args));
      assert.deepEqual(refused.details, busy, JSON.stringify(args));
    }
    const inProgress = async () => (await lead.call('collab_list_tasks', { status: 'in_progress' })).tasks.map((t: any) => [t.id, t.assignee]);
    assert.deepEqual(await inProgress(), [[first.id, 'alice'], [bobs.id, 'bob']]);

    await alice.call('collab_update_task', { id: first.id, status: 'completed' });
    assert.equal((await alice.call('collab_update_task', { id: second.id, status: 'in_progress' })).task.status, 'in_progress');
    // Giving an agent's own task in progress to it again is no second task.
    assert.equal((await lead.call('collab_update_task', { id: second.id, assignee: 'alice' })).task.assignee, 'alice');
  });

  it('two sessions of one agent starting two tasks at once: one starts, the other is refused', async () => {
    const { c, lead, alice } = await team();
    const again = await c.session('alice-second-window');
    await again.call('collab_join', { name: 'alice' });
    const ids = await Promise.all(['A', 'B'].map(async (title) => (await lead.call('collab_create_task', { title, assignee: 'alice' })).task.id));
    const answers = await Promise.all([alice, again].map((s, i) => s.client.callTool({ name: 'collab_update_task', arguments: { id: ids[i], status: 'in_progress' } })));
    const codes = answers.map((a) => (a.isError ? JSON.parse((a.content as Array<{ text: string }>)[0]!.text).code : 'ok')).sort();
    assert.deepEqual(codes, ['COLLAB_AGENT_BUSY', 'ok']);
    assert.equal((await lead.call('collab_list_tasks', { assignee: 'alice', exact: true, status: 'in_progress' })).count, 1);
  });
});

describe('collab over REST: a pinned agent\'s pending task is its own', async () => {
  const { owner, ci, other, rest } = await restCollabGateway();

  it('another key\'s agent can neither start nor cancel it; the pinned key starts it', async () => {
    for (const name of ['lead', 'builder', 'alice']) await rest(owner, 'collab_register_agent', { name });
    const { data } = await rest(owner, 'collab_create_task', { agent: 'lead', title: 'Build main', assignee: 'builder' });
    for (const status of ['in_progress', 'cancelled']) {
      const refused = await rest(other.key, 'collab_update_task', { agent: 'alice', id: data.task.id, status });
      assert.deepEqual([refused.status, refused.error.code, refused.error.details.assignee], [403, 'COLLAB_NOT_PERMITTED', 'builder'], status);
    }
    const started = await rest(ci.key, 'collab_update_task', { id: data.task.id, status: 'in_progress' });
    assert.deepEqual([started.status, started.data.task.status, started.data.task.assignee], [200, 'in_progress', 'builder']);
  });
});
