import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { recordNotifications, waitFor } from '../../helpers.js';
import { aliceAndBob, collabGateway } from './collab-helpers.js';

describe('collab tasks: create, list, get', () => {
  it('creates with defaults, stores files relative to the workspace, lists with filters and pages', async () => {
    const { alice, bob } = await aliceAndBob();
    const first = (await alice.call('collab_create_task', { title: 'Parse the config', relevant_files: ['./src/../src/config.ts', 'README.md'], constraints: ['no new dependencies'] })).task;
    assert.equal(first.status, 'pending');
    assert.equal(first.priority, 3);
    assert.equal(first.assignee, 'any');
    assert.equal(first.created_by, 'alice');
    assert.equal(first.kind, 'task');
    assert.deepEqual(first.relevant_files, ['src/config.ts', 'README.md']);
    const second = (await alice.call('collab_create_task', { title: 'Wire it in', assignee: 'bob', priority: 1, depends_on: [first.id], expected_duration_seconds: 600 })).task;
    assert.deepEqual(second.depends_on, [first.id]);
    await bob.call('collab_create_task', { title: 'Alice only', assignee: 'alice' });

    const ids = (r: any) => r.tasks.map((t: any) => t.title);
    assert.deepEqual(ids(await bob.call('collab_list_tasks', { assignee: 'bob' })), ['Parse the config', 'Wire it in'], 'tasks for any match every assignee');
    assert.deepEqual(ids(await bob.call('collab_list_tasks', { assignee: 'bob', exact: true })), ['Wire it in']);
    assert.deepEqual(ids(await bob.call('collab_list_tasks', { created_by: 'bob' })), ['Alice only']);
    assert.equal((await bob.call('collab_list_tasks', { status: 'in_progress' })).count, 0);
    const page1 = await bob.call('collab_list_tasks', { limit: 2 });
    assert.deepEqual(ids(page1), ['Parse the config', 'Wire it in']);
    const page2 = await bob.call('collab_list_tasks', { limit: 2, cursor: page1.next_cursor });
    assert.deepEqual(ids(page2), ['Alice only']);
    assert.equal(page2.next_cursor, undefined);

    const got = await bob.call('collab_get_task', { id: first.id });
    assert.deepEqual(got.dependents, [{ id: second.id, title: 'Wire it in', status: 'pending' }]);
    assert.deepEqual(got.dependencies, []);
    assert.deepEqual((await bob.call('collab_get_task', { id: second.id })).dependencies, [{ id: first.id, title: 'Parse the config', status: 'pending' }]);
  });

  it('refuses bad input, each with its code', async () => {
    const { alice } = await aliceAndBob();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['collab_create_task', { title: 'x', assignee: 'nobody' }, 'COLLAB_AGENT_NOT_FOUND'],
      ['collab_create_task', { title: 'x', depends_on: [999] }, 'COLLAB_DEPENDENCY_INVALID'],
      ['collab_create_task', { title: 'x', relevant_files: ['../outside.ts'] }, 'OUTSIDE_WORKSPACE'],
      ['collab_create_task', { title: 'x', plan_id: 'no-such-plan' }, 'COLLAB_PLAN_NOT_FOUND'],
      ['collab_create_task', { title: 'x', priority: 5 }, 'INVALID_ARGUMENTS'],
      ['collab_create_task', { title: '' }, 'INVALID_ARGUMENTS'],
      ['collab_get_task', { id: 999 }, 'COLLAB_TASK_NOT_FOUND'],
      ['collab_update_task', { id: 999, status: 'completed' }, 'COLLAB_TASK_NOT_FOUND'],
      ['collab_create_task', { title: 'x', agent: 'bob' }, 'COLLAB_NOT_PERMITTED'],
    ];
    for (const [tool, args, code] of cases) assert.equal((await alice.fail(tool, args)).code, code, `${tool} ${JSON.stringify(args)}`);
    const anonymous = await (await collabGateway()).fail('collab_create_task', { title: 'x' });
    assert.equal(anonymous.code, 'COLLAB_AGENT_REQUIRED');
  });

  it('a task alice creates for bob reaches bob’s session, not alice’s', async () => {
    const { c, alice, bob } = await aliceAndBob();
    const toBob = recordNotifications(bob.client);
    const toAlice = recordNotifications(alice.client);
    const events: GatewayEvent[] = [];
    c.events.subscribe('collab.task.*', (event) => void events.push(event));
    const { task } = await alice.call('collab_create_task', { title: 'Review the parser', assignee: 'bob' });
    await waitFor(() => toBob.some((n) => n.method === 'notifications/claude/channel'));
    const channel = toBob.find((n) => n.method === 'notifications/claude/channel')!;
    assert.equal(channel.params.channel, 'collab.task');
    assert.equal(channel.params.data.change, 'created');
    assert.equal(channel.params.data.id, task.id);
    assert.ok(toBob.some((n) => n.method === 'notifications/message'));
    assert.equal(events[0]!.channel, 'collab.task.created');
    assert.deepEqual(events[0]!.data, { id: task.id, title: 'Review the parser', status: 'pending', assignee: 'bob', priority: 3, by: 'alice' });
    const listed = await bob.client.callTool({ name: 'collab_list_tasks', arguments: {} });
    assert.ok(JSON.stringify(listed.content).includes('1 pending task'), 'the next result of bob carries the banner');
    assert.equal(toAlice.filter((n) => n.method === 'notifications/claude/channel').length, 0);
  });
});

describe('collab tasks: the state machine and dependencies', () => {
  it('moves along the transitions, refuses the others with from/to/allowed, and refuses starting before dependencies are done', async () => {
    const { alice, bob } = await aliceAndBob();
    const base = (await alice.call('collab_create_task', { title: 'Base' })).task;
    const top = (await alice.call('collab_create_task', { title: 'Top', depends_on: [base.id] })).task;
    const open = await bob.fail('collab_update_task', { id: top.id, status: 'in_progress' });
    assert.equal(open.code, 'COLLAB_DEPENDENCY_OPEN');
    assert.deepEqual(open.details.open, [{ id: base.id, title: 'Base', status: 'pending' }]);

    const started = await bob.call('collab_update_task', { id: base.id, status: 'in_progress' });
    assert.equal(started.task.assignee, 'bob', 'a task for any that bob starts is his');
    assert.ok(started.task.started_at);
    assert.equal((await bob.call('collab_join', { name: 'bob' })).agent.current_task_id, base.id);
    const done = await bob.call('collab_update_task', { id: base.id, status: 'completed' });
    assert.equal(done.task.status, 'completed');
    assert.ok(done.task.finished_at);
    assert.equal((await bob.call('collab_join', { name: 'bob' })).agent.current_task_id, null);
    const again = await bob.fail('collab_update_task', { id: base.id, status: 'in_progress' });
    assert.equal(again.code, 'COLLAB_TRANSITION_INVALID');
    assert.deepEqual(again.details, { from: 'completed', to: 'in_progress', allowed: [] });

    assert.equal((await bob.call('collab_update_task', { id: top.id, status: 'in_progress' })).task.status, 'in_progress');
    const blocked = await bob.call('collab_update_task', { id: top.id, blocked_by: 'waiting for the schema' });
    assert.equal(blocked.task.status, 'blocked');
    assert.equal(blocked.task.blocked_reason, 'waiting for the schema');
    const stuck = await bob.fail('collab_update_task', { id: top.id, status: 'in_progress' });
    assert.deepEqual(stuck.details, { from: 'blocked', to: 'in_progress', allowed: ['cancelled'] });
    assert.match(stuck.message, /collab_replay_task/);
  });

  it('refuses self-dependencies, missing ones and cycles (details.cycle); removes them', async () => {
    const { alice } = await aliceAndBob();
    const t1 = (await alice.call('collab_create_task', { title: 't1' })).task;
    const t2 = (await alice.call('collab_create_task', { title: 't2', depends_on: [t1.id] })).task;
    const t3 = (await alice.call('collab_create_task', { title: 't3', depends_on: [t2.id] })).task;
    const self = await alice.fail('collab_update_task', { id: t1.id, add_dependency: t1.id });
    assert.equal(self.code, 'COLLAB_DEPENDENCY_INVALID');
    assert.equal(self.details.reason, 'self');
    assert.equal((await alice.fail('collab_update_task', { id: t1.id, add_dependency: 999 })).details.reason, 'missing');
    const cycle = await alice.fail('collab_update_task', { id: t1.id, add_dependency: t3.id });
    assert.equal(cycle.code, 'COLLAB_DEPENDENCY_INVALID');
    assert.deepEqual(cycle.details.cycle, [t1.id, t3.id, t2.id, t1.id]);
    assert.deepEqual((await alice.call('collab_get_task', { id: t1.id })).task.depends_on, [], 'nothing was added');
    const removed = await alice.call('collab_update_task', { id: t3.id, remove_dependency: t2.id });
    assert.deepEqual(removed.task.depends_on, []);
    const added = await alice.call('collab_update_task', { id: t1.id, add_dependency: t3.id, priority: 1 });
    assert.deepEqual(added.task.depends_on, [t3.id]);
    assert.equal(added.task.priority, 1);
  });

  it('two agents updating one task at once: both changes land', async () => {
    const { alice, bob } = await aliceAndBob();
    const deps = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await alice.call('collab_create_task', { title: `dep ${n}` })).task.id));
    const task = (await alice.call('collab_create_task', { title: 'Many hands' })).task;
    await Promise.all(deps.map((dep, i) => (i % 2 === 0 ? alice : bob).call('collab_update_task', { id: task.id, add_dependency: dep })));
    assert.deepEqual((await alice.call('collab_get_task', { id: task.id })).task.depends_on, deps);
  });

  it('replays a blocked or cancelled task to pending, for any, someone, or its assignee', async () => {
    const { alice, bob } = await aliceAndBob();
    const task = (await alice.call('collab_create_task', { title: 'Flaky', assignee: 'bob' })).task;
    assert.equal((await alice.fail('collab_replay_task', { id: task.id })).code, 'COLLAB_TRANSITION_INVALID');
    await bob.call('collab_update_task', { id: task.id, status: 'in_progress' });
    await bob.call('collab_update_task', { id: task.id, blocked_by: 'CI is down' });
    const kept = await alice.call('collab_replay_task', { id: task.id, keep: true });
    assert.equal(kept.task.status, 'pending');
    assert.equal(kept.task.assignee, 'bob');
    assert.equal(kept.task.blocked_reason, null);
    assert.equal(kept.task.started_at, null);
    await alice.call('collab_update_task', { id: task.id, status: 'cancelled' });
    assert.equal((await alice.call('collab_replay_task', { id: task.id })).task.assignee, 'any');
    await alice.call('collab_update_task', { id: task.id, status: 'cancelled' });
    assert.equal((await alice.call('collab_replay_task', { id: task.id, reassign_to: 'alice' })).task.assignee, 'alice');
    await alice.call('collab_update_task', { id: task.id, status: 'cancelled' });
    assert.equal((await alice.fail('collab_replay_task', { id: task.id, reassign_to: 'nobody' })).code, 'COLLAB_AGENT_NOT_FOUND');
  });
});

describe('collab tasks: progress and work context', () => {
  it('progress only on your task in progress; it updates the task and your presence', async () => {
    const { alice, bob } = await aliceAndBob();
    const task = (await alice.call('collab_create_task', { title: 'Port the parser', assignee: 'bob' })).task;
    const early = await bob.fail('collab_report_progress', { task_id: task.id, description: 'starting' });
    assert.equal(early.code, 'COLLAB_TASK_NOT_IN_PROGRESS');
    assert.equal(early.details.status, 'pending');
    await bob.call('collab_update_task', { id: task.id, status: 'in_progress' });
    assert.equal((await alice.fail('collab_report_progress', { task_id: task.id, description: 'not mine' })).code, 'COLLAB_TASK_NOT_IN_PROGRESS');
    assert.equal((await bob.fail('collab_report_progress', { task_id: 999, description: 'x' })).code, 'COLLAB_TASK_NOT_FOUND');
    assert.equal((await bob.fail('collab_report_progress', { task_id: task.id, description: 'x', percent: 101 })).code, 'INVALID_ARGUMENTS');
    const reported = await bob.call('collab_report_progress', { task_id: task.id, description: 'lexer done', percent: 40, eta_seconds: 300 });
    assert.equal(reported.task.progress_percent, 40);
    assert.equal(reported.task.progress_note, 'lexer done');
    assert.ok(Date.parse(reported.task.eta_at) > Date.now());
    assert.equal((await bob.call('collab_join', { name: 'bob' })).agent.progress, 'lexer done');
  });

  it('work context: files, background, constraints and shared notes, upserted per key', async () => {
    const { alice, bob } = await aliceAndBob();
    const task = (await alice.call('collab_create_task', { title: 'Docs', relevant_files: ['docs/a.md'], background: 'Old docs.' })).task;
    await alice.call('collab_update_work_context', { task_id: task.id, key: 'decision', value: 'Use tables.' });
    const context = await bob.call('collab_update_work_context', { task_id: task.id, key: 'decision', value: 'Use lists.', add_files: ['docs/b.md', 'docs/a.md'], add_constraints: ['short'], background: 'New docs.' });
    assert.deepEqual(context.relevant_files, ['docs/a.md', 'docs/b.md']);
    assert.deepEqual(context.constraints, ['short']);
    assert.equal(context.background, 'New docs.');
    assert.equal(context.notes.length, 1);
    assert.equal(context.notes[0].value, 'Use lists.');
    assert.equal(context.notes[0].author, 'bob');
    assert.deepEqual(await alice.call('collab_get_work_context', { task_id: task.id }), context);
    assert.equal((await alice.fail('collab_update_work_context', { task_id: task.id, key: 'only-a-key' })).code, 'INVALID_ARGUMENTS');
    assert.equal((await alice.fail('collab_update_work_context', { task_id: task.id, add_files: ['/etc/passwd'] })).code, 'OUTSIDE_WORKSPACE');
    assert.equal((await alice.fail('collab_get_work_context', { task_id: 999 })).code, 'COLLAB_TASK_NOT_FOUND');
  });
});
