import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordNotifications, tempDir, waitFor } from '../../helpers.js';
import { awaitBanner, bannerAfter, bannerOf } from './banner-helpers.js';
import { collabGateway } from './collab-helpers.js';
import { collabDb, insertLock, insertPlan, insertTask, lastSeen } from './collab-rows.js';

const HOUR = 3_600_000;

describe('collab presence: list, heartbeat, set presence', () => {
  it('lists agents by name with presence, and filters by activity, project, capability and presence', async () => {
    const c = await collabGateway();
    await c.call('collab_register_agent', { name: 'carol', capabilities: ['go'], project: 'web' });
    await c.call('collab_register_agent', { name: 'bob', capabilities: ['review'], project: 'web' });
    await c.call('collab_register_agent', { name: 'alice', capabilities: ['go', 'review'], project: 'gateway' });
    await lastSeen(c, 'carol', 2 * HOUR);
    const names = async (args: Record<string, unknown>) => (await c.call('collab_list_agents', args)).agents.map((a: any) => a.name);

    const all = await c.call('collab_list_agents', {});
    assert.equal(all.count, 3);
    assert.deepEqual(all.agents.map((a: any) => [a.name, a.presence]), [['alice', 'idle'], ['bob', 'idle'], ['carol', 'offline']]);
    assert.deepEqual(await names({ active_only: true }), ['alice', 'bob']);
    assert.deepEqual(await names({ project: 'web' }), ['bob', 'carol']);
    assert.deepEqual(await names({ capability: 'review' }), ['alice', 'bob']);
    assert.deepEqual(await names({ presence: 'offline' }), ['carol']);
    assert.deepEqual(await names({ presence: 'idle', capability: 'go' }), ['alice']);
    assert.deepEqual(await names({ presence: 'working' }), []);
  });

  it('a heartbeat brings an offline agent back and stores its progress; a bare one keeps it', async () => {
    const c = await collabGateway();
    await c.call('collab_register_agent', { name: 'carol' });
    await lastSeen(c, 'carol', 2 * HOUR);
    const events: any[] = [];
    c.events.subscribe('collab.agent.heartbeat', (event) => events.push(event.data));

    const beat = await c.call('collab_heartbeat', { agent: 'carol', progress: 'reading the parser', step: 2, total_steps: 5 });
    assert.equal(beat.ok, true);
    assert.equal(beat.agent.presence, 'idle');
    assert.deepEqual([beat.agent.progress, beat.agent.step, beat.agent.total_steps], ['reading the parser', 2, 5]);
    assert.ok(Date.now() - Date.parse(beat.agent.last_seen_at) < HOUR);

    const bare = await c.call('collab_heartbeat', { agent: 'carol' });
    assert.deepEqual([bare.agent.progress, bare.agent.step, bare.agent.total_steps], ['reading the parser', 2, 5]);
    const fresh = await c.call('collab_heartbeat', { agent: 'carol', progress: 'writing tests' });
    assert.deepEqual([fresh.agent.progress, fresh.agent.step, fresh.agent.total_steps], ['writing tests', null, null]);
    assert.deepEqual(events[0], { name: 'carol', step: 2, total_steps: 5 });
    assert.equal(events.length, 3);
  });

  it('refuses a heartbeat past its steps, for nobody, or for an unknown agent', async () => {
    const c = await collabGateway();
    await c.call('collab_register_agent', { name: 'carol' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ agent: 'carol', step: 6, total_steps: 5 }, 'INVALID_ARGUMENTS'],
      [{ agent: 'carol', step: -1 }, 'INVALID_ARGUMENTS'],
      [{ agent: 'carol', progress: 'x'.repeat(501) }, 'INVALID_ARGUMENTS'],
      [{}, 'COLLAB_AGENT_REQUIRED'],
      [{ agent: 'nobody' }, 'COLLAB_AGENT_NOT_FOUND'],
    ];
    for (const [args, code] of cases) assert.equal((await c.fail('collab_heartbeat', args)).code, code, JSON.stringify(args));
  });

  it('sets presence with a note and a current task that must exist; the event says so', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    const task = await insertTask(c, { title: 'Parser', assignee: 'alice', status: 'in_progress' });
    const events: any[] = [];
    c.events.subscribe('collab.agent.presence', (event) => events.push(event.data));

    const working = await c.call('collab_set_presence', { status: 'working', note: 'on the parser', current_task_id: task });
    assert.deepEqual([working.agent.presence, working.agent.presence_note, working.agent.current_task_id], ['working', 'on the parser', task]);
    const away = await c.call('collab_set_presence', { status: 'away' });
    assert.deepEqual([away.agent.presence, away.agent.presence_note, away.agent.current_task_id], ['away', null, task]);
    const idle = await c.call('collab_set_presence', { status: 'idle', current_task_id: null });
    assert.equal(idle.agent.current_task_id, null);
    assert.deepEqual(events, [
      { name: 'alice', presence: 'working', current_task_id: task },
      { name: 'alice', presence: 'away', current_task_id: task },
      { name: 'alice', presence: 'idle', current_task_id: null },
    ]);
    const listed = (await c.call('collab_list_agents', { presence: 'idle' })).agents;
    assert.deepEqual(listed.map((a: any) => a.name), ['alice']);

    assert.equal((await c.fail('collab_set_presence', { status: 'working', current_task_id: 999 })).code, 'COLLAB_TASK_NOT_FOUND');
    assert.equal((await c.fail('collab_set_presence', { status: 'offline' })).code, 'INVALID_ARGUMENTS');
    assert.equal((await c.fail('collab_set_presence', { status: 'idle', agent: 'bob' })).code, 'COLLAB_NOT_PERMITTED');
  });
});

describe('collab session context', () => {
  it('gives the agent, unread previews, its tasks, its locks, the last notes, the workspace and the active plan, and marks nothing read', async () => {
    const workspace = tempDir();
    mkdirSync(join(workspace, '.git'));
    writeFileSync(join(workspace, '.git', 'HEAD'), 'ref: refs/heads/feature-x\n');
    const c = await collabGateway({ workspace });
    await c.call('collab_join', { name: 'alice' });
    const bob = await c.session('bob');
    await bob.call('collab_join', { name: 'bob' });
    await bob.call('collab_send_message', { to: 'alice', subject: 'First', body: 'one' });
    await bob.call('collab_send_message', { to: 'alice', subject: 'Second', body: 'b'.repeat(400) });
    const doing = await insertTask(c, { title: 'Doing', assignee: 'alice', status: 'in_progress' });
    const later = await insertTask(c, { title: 'Later', assignee: 'alice', status: 'pending', priority: 3 });
    const urgent = await insertTask(c, { title: 'Urgent', assignee: 'alice', status: 'pending', priority: 1 });
    await insertTask(c, { title: 'Done', assignee: 'alice', status: 'completed' });
    await insertTask(c, { title: 'Bobs', assignee: 'bob', status: 'pending' });
    await insertLock(c, { path: 'src/a.ts', agent: 'alice', expiresInMs: HOUR });
    await insertLock(c, { path: 'src/old.ts', agent: 'alice', expiresInMs: -1000 });
    await insertLock(c, { path: 'src/b.ts', agent: 'bob', expiresInMs: HOUR });
    for (let i = 1; i <= 6; i++) await bob.call('collab_append_note', { content: `note ${i}` });
    await insertPlan(c, { id: 'old', title: 'Old plan', active: false });
    await insertPlan(c, { id: 'v2', title: 'Version 2', active: true });

    const context = await c.call('collab_session_context', {});
    assert.equal(context.agent.name, 'alice');
    assert.equal(context.session_bound, true);
    assert.equal(context.unread_messages, 2);
    assert.deepEqual(context.unread_previews.map((m: any) => [m.subject, m.from, m.kind]), [['Second', 'bob', 'message'], ['First', 'bob', 'message']]);
    assert.equal(context.unread_previews[0].preview, `${'b'.repeat(160)}…`);
    assert.deepEqual(context.tasks.in_progress.map((t: any) => t.id), [doing]);
    assert.deepEqual(context.tasks.pending.map((t: any) => t.id), [urgent, later]);
    assert.deepEqual(context.locks.map((l: any) => l.path), ['src/a.ts']);
    assert.deepEqual(context.notes.map((n: any) => n.content), ['note 6', 'note 5', 'note 4', 'note 3', 'note 2']);
    assert.deepEqual(context.workspace, { name: workspace.split('/').pop(), git_branch: 'feature-x' });
    assert.deepEqual(context.active_plan, { id: 'v2', title: 'Version 2' });
    assert.equal((await c.call('collab_session_context', {})).unread_messages, 2);

    const other = await c.session('other');
    const named = await other.call('collab_session_context', { agent: 'bob' });
    assert.equal(named.session_bound, false);
    assert.deepEqual(named.locks.map((l: any) => l.path), ['src/b.ts']);
    assert.equal((await other.fail('collab_session_context', {})).code, 'COLLAB_AGENT_REQUIRED');
    assert.equal((await c.fail('collab_session_context', { agent: 'bob' })).code, 'COLLAB_NOT_PERMITTED');
  });

  it("reads a linked worktree's branch through its .git file; no git, no branch; no plan, null", async () => {
    const main = tempDir();
    const workspace = tempDir();
    mkdirSync(join(main, 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, 'worktrees', 'wt', 'HEAD'), 'ref: refs/heads/h-msg\n');
    writeFileSync(join(workspace, '.git'), `gitdir: ${join(main, 'worktrees', 'wt')}\n`);
    const c = await collabGateway({ workspace });
    await c.call('collab_join', { name: 'alice' });
    const context = await c.call('collab_session_context', {});
    assert.equal(context.workspace.git_branch, 'h-msg');
    assert.equal(context.active_plan, null);
    assert.deepEqual([context.unread_previews, context.tasks.pending, context.locks, context.notes], [[], [], [], []]);

    const plain = await collabGateway();
    await plain.call('collab_join', { name: 'alice' });
    assert.equal((await plain.call('collab_session_context', {})).workspace.git_branch, null);

    const detached = tempDir();
    mkdirSync(join(detached, '.git'));
    writeFileSync(join(detached, '.git', 'HEAD'), '3c634c5aa1b2c3d4e5f60718293a4b5c6d7e8f90\n');
    const d = await collabGateway({ workspace: detached });
    assert.equal((await d.call('collab_session_context', { agent: (await d.call('collab_join', { name: 'alice' })).agent.name })).workspace.git_branch, null);
  });
});

describe('collab cancel agent', () => {
  it('cancels the target\'s tasks in progress, idles it, and tells it STOP by message, notification and banner', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    const alice = await c.session('alice');
    await alice.call('collab_join', { name: 'alice' });
    const heard = recordNotifications(alice.client);
    const first = await insertTask(c, { title: 'Parser', assignee: 'alice', status: 'in_progress' });
    const second = await insertTask(c, { title: 'Lexer', assignee: 'alice', status: 'in_progress' });
    const queued = await insertTask(c, { title: 'Docs', assignee: 'alice', status: 'pending' });
    await alice.call('collab_set_presence', { status: 'working', current_task_id: first });
    const events: any[] = [];
    c.events.subscribe('collab.**', (event) => events.push({ channel: event.channel, data: event.data }));

    const stopped = await c.call('collab_cancel_agent', { target: 'alice', reason: 'the spec changed' });
    assert.deepEqual(stopped.cancelled_tasks, [{ id: first, title: 'Parser' }, { id: second, title: 'Lexer' }]);
    assert.deepEqual([stopped.agent.presence, stopped.agent.current_task_id], ['idle', null]);
    const rows = await collabDb(c).selectFrom('collab_tasks').select(['id', 'status', 'version']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { id: first, status: 'cancelled', version: 2 },
      { id: second, status: 'cancelled', version: 2 },
      { id: queued, status: 'pending', version: 1 },
    ]);
    const updates = events.filter((e) => e.channel === 'collab.task.updated').map((e) => e.data);
    assert.deepEqual(updates.map((u) => [u.id, u.status, u.previous_status, u.by, u.assignee]), [
      [first, 'cancelled', 'in_progress', 'driver', 'alice'],
      [second, 'cancelled', 'in_progress', 'driver', 'alice'],
    ]);
    assert.deepEqual(events.find((e) => e.channel === 'collab.agent.stopped').data, { name: 'alice', by: 'driver', tasks: [first, second], message_id: stopped.message_id });

    await waitFor(() => heard.filter((n) => n.method === 'notifications/claude/channel').length === 3);
    const channels = heard.filter((n) => n.method === 'notifications/claude/channel').map((n) => [n.params.channel, n.params.data.kind ?? n.params.data.status]);
    assert.deepEqual(channels, [['collab.message', 'stop'], ['collab.task', 'cancelled'], ['collab.task', 'cancelled']]);
    // The STOP comes at once; the unread count a moment later (a query).
    assert.match((await bannerAfter(alice.client))!, new RegExp(`^\\[collab\\] alice: STOP: task #${second} was cancelled by driver`));

    const read = await alice.call('collab_read_messages', {});
    assert.equal(read.count, 1);
    const [stop] = read.messages;
    assert.deepEqual([stop.from, stop.kind, stop.subject, stop.id], ['system', 'stop', 'STOP', stopped.message_id]);
    assert.match(stop.body, /^STOP: driver stopped your work: the spec changed\. Cancelled: #\d+ Parser; #\d+ Lexer\./);

    const again = await c.call('collab_cancel_agent', { target: 'alice' });
    assert.deepEqual(again.cancelled_tasks, []);
    assert.equal((await c.fail('collab_cancel_agent', { target: 'nobody' })).code, 'COLLAB_AGENT_NOT_FOUND');
    assert.equal((await c.fail('collab_cancel_agent', { target: 'alice', agent: 'alice' })).code, 'COLLAB_NOT_PERMITTED');
  });

  it('an agent that stops itself hears no STOP banner for its own doing, but gets the message', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    await insertTask(c, { title: 'Parser', assignee: 'alice', status: 'in_progress' });
    const result = await c.client.callTool({ name: 'collab_cancel_agent', arguments: { target: 'alice' } });
    assert.equal(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).cancelled_tasks.length, 1);
    // The news is worked out (a query) while the call is answered: its own result may carry it,
    // else the next one does.
    const banner = bannerOf(result) ?? (await awaitBanner(c.client));
    assert.equal(banner, '[collab] alice: 1 unread message (collab_read_messages)');
  });
});
