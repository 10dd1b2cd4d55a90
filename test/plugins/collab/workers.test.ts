// collab workers: agents the gateway starts (test/fixtures/collab-agent) through the process
// plugin, reaching the gateway back over TCP; health, restarts, worktrees, and nothing left.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { recordNotifications, tempDir, TESTS } from '../../helpers.js';
import { isGone, track, waitFor } from '../process/process-helpers.js';
import { KEEP_ENDED_WORKERS } from '../../../plugins/collab/workers/workers.js';
import { collabGateway, type CollabGateway } from './collab-helpers.js';

const AGENT = join(TESTS, 'fixtures', 'collab-agent', 'agent.js');
const agent = (mode: string, ...extra: string[]) => [process.execPath, AGENT, mode, ...extra];

const KINDS = {
  beat: { command: agent('heartbeat') },
  echo: { command: agent('echo'), maxInstances: 2 },
  args: { command: agent('exit', '--agent={agent}', '{task_id}', '{worktree}/out', '{unknown}', '$(touch smuggled)') },
  hang: { command: agent('hang'), restarts: 2 },
  crash: { command: [process.execPath, '-e', 'process.exit(3)'], restarts: 1 },
  brief: { command: ['true'], maxInstances: 10 },
};

/** A gateway with collab workers configured and a TCP listener the workers dial back. */
async function workersGateway(workers: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Promise<CollabGateway> {
  const c = await collabGateway({ plugins: { collab: { config: { workers: { kinds: KINDS, ...workers } } } }, ...overrides });
  await c.listen({ tcp: true });
  return c;
}

/** Waits until the worker's status is `status`; returns its view. */
async function statusOf(c: CollabGateway, name: string, status: string, timeoutMs = 20_000): Promise<any> {
  let view: any;
  await waitFor(async () => {
    view = (await c.call('collab_list_workers')).workers.find((w: any) => w.name === name);
    return view?.status === status;
  }, `${name} to be ${status} (is ${view?.status})`, timeoutMs);
  return view;
}

/** Waits until the worker printed a line matching `pattern`; returns its stdout. */
async function printed(c: CollabGateway, name: string, pattern: RegExp): Promise<string> {
  let stdout = '';
  await waitFor(async () => {
    stdout = (await c.call('collab_worker_output', { name, max_bytes: 16384 })).stdout;
    return pattern.test(stdout);
  }, `${name} to print ${pattern}`, 20_000);
  return stdout;
}

const collabDb = (c: CollabGateway) => c.store('collab').db as any;

async function insertTask(c: CollabGateway, title: string, assignee = 'any'): Promise<number> {
  const now = new Date().toISOString();
  const row = await collabDb(c)
    .insertInto('collab_tasks')
    .values({ title, description: null, kind: 'task', priority: 2, status: 'pending', assignee, created_by: 'driver', relevant_files: '[]', constraints: '[]', background: null, expected_duration_s: null, progress_percent: null, progress_note: null, eta_at: null, blocked_reason: null, plan_id: null, plan_item_id: null, created_at: now, updated_at: now, started_at: null, finished_at: null, last_progress_at: null, stuck_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const taskRow = (c: CollabGateway, id: number) => collabDb(c).selectFrom('collab_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('collab workers', () => {
  it('spawns a configured kind: it is told who it is and where the gateway is, joins over TCP as a worker, and is dismissed', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const task = await insertTask(c, 'Write the parser');
    const spawned = await c.call('collab_spawn_worker', { kind: 'beat', task_id: task });
    track(spawned.pid);
    assert.equal(spawned.name, 'beat-1');
    assert.equal(spawned.driver, 'driver');
    assert.equal(spawned.task_id, task);
    assert.equal(spawned.worktree, null, 'the workspace is no git repository');
    const stdout = await printed(c, 'beat-1', /^joined beat-1 kind worker$/m);
    const env = JSON.parse(/^env (.*)$/m.exec(stdout)![1]!);
    assert.deepEqual(env, { agent: 'beat-1', task: String(task), worktree: c.workspace, cwd: c.workspace });
    assert.equal((await taskRow(c, task)).assignee, 'beat-1');
    const running = await statusOf(c, 'beat-1', 'running');
    assert.equal(running.pid, spawned.pid);
    assert.equal(running.restarts, 0);

    const dismissed = await c.call('collab_dismiss_worker', { name: 'beat-1' });
    assert.equal(dismissed.worker.status, 'dismissed');
    assert.equal(dismissed.commit, null);
    assert.ok(isGone(spawned.pid));
    const released = await taskRow(c, task);
    assert.deepEqual([released.status, released.assignee], ['pending', 'any']);
    // Its name is free again.
    const again = await c.call('collab_spawn_worker', { kind: 'beat' });
    track(again.pid);
    assert.equal(again.name, 'beat-1');
  });

  it('refuses what is not configured or not allowed, with stable codes', async () => {
    const c = await workersGateway();
    const other = await c.session();
    assert.equal((await c.fail('collab_spawn_worker', { kind: 'beat' })).code, 'COLLAB_AGENT_REQUIRED');
    await c.call('collab_join', { name: 'driver' });
    await other.call('collab_join', { name: 'intruder' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'rm' }, 'COLLAB_WORKER_KIND_UNKNOWN'],
      [{ kind: 'echo', command: ['rm', '-rf', '/'] }, 'INVALID_ARGUMENTS'],
      [{ kind: 'echo', name: 'system' }, 'COLLAB_AGENT_NAME_RESERVED'],
      [{ kind: 'echo', name: 'intruder' }, 'COLLAB_WORKER_NAME_TAKEN'],
      [{ kind: 'echo', task_id: 999 }, 'COLLAB_TASK_NOT_FOUND'],
      [{ kind: 'echo', input: 'x'.repeat(50_001) }, 'INVALID_ARGUMENTS'],
    ];
    for (const [args, code] of cases) assert.equal((await c.fail('collab_spawn_worker', args)).code, code, JSON.stringify(args).slice(0, 80));
    const done = await insertTask(c, 'Done already');
    await collabDb(c).updateTable('collab_tasks').set({ status: 'completed' }).where('id', '=', done).execute();
    assert.equal((await c.fail('collab_spawn_worker', { kind: 'echo', task_id: done })).code, 'COLLAB_TRANSITION_INVALID');
    // Another agent's pending task is not the intruder's to give to a worker of its own.
    const drivers = await insertTask(c, "The driver's own", 'driver');
    const taken = await other.fail('collab_spawn_worker', { kind: 'echo', task_id: drivers });
    assert.deepEqual([taken.code, taken.details.assignee], ['COLLAB_NOT_PERMITTED', 'driver']);
    assert.equal((await taskRow(c, drivers)).assignee, 'driver');

    const echo = await c.call('collab_spawn_worker', { kind: 'echo', name: 'echoer' });
    track(echo.pid);
    assert.equal((await c.fail('collab_spawn_worker', { kind: 'echo', name: 'echoer' })).code, 'COLLAB_WORKER_NAME_TAKEN');
    for (const tool of ['collab_worker_output', 'collab_send_worker_input', 'collab_dismiss_worker', 'collab_commit_worker']) {
      assert.equal((await c.fail(tool, argsFor(tool, 'nobody'))).code, 'COLLAB_WORKER_NOT_FOUND', tool);
    }
    for (const tool of ['collab_send_worker_input', 'collab_dismiss_worker', 'collab_commit_worker']) {
      assert.equal((await other.fail(tool, argsFor(tool, 'echoer'))).code, 'COLLAB_NOT_PERMITTED', tool);
    }
    await c.call('collab_dismiss_worker', { name: 'echoer' });
    assert.equal((await c.fail('collab_send_worker_input', { name: 'echoer', input: 'late\n' })).code, 'COLLAB_WORKER_NOT_RUNNING');
  });

  it('runs only the configured command: placeholders fill single argv elements, and nothing from a call reaches a shell', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const task = await insertTask(c, '$(touch pwned); `touch pwned2` && touch pwned3 | tee pwned4');
    const spawned = await c.call('collab_spawn_worker', { kind: 'args', task_id: task, input: '$(touch pwned5)\n' });
    track(spawned.pid);
    const view = await statusOf(c, 'args-1', 'exited');
    assert.equal(view.exit_code, 0);
    const stdout = (await c.call('collab_worker_output', { name: 'args-1' })).stdout;
    const argv = JSON.parse(/^argv (.*)$/m.exec(stdout)![1]!);
    const root = c.workspace;
    assert.deepEqual(argv, ['exit', '--agent=args-1', String(task), `${root}/out`, '{unknown}', '$(touch smuggled)']);
    assert.deepEqual(readdirSync(root), [], 'no shell ran anything in the workspace');
  });

  it('a worker that exits with code 0 without finishing its task gives it back to everyone, and its driver is alerted', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const task = await insertTask(c, 'Left unfinished');
    track((await c.call('collab_spawn_worker', { kind: 'args', task_id: task })).pid);
    await statusOf(c, 'args-1', 'exited');
    const alertTo = () => collabDb(c).selectFrom('collab_messages').selectAll().where('to_agent', '=', 'driver').where('kind', '=', 'alert').execute();
    await waitFor(async () => (await alertTo()).length === 1, 'the alert to the driver');
    const released = await taskRow(c, task);
    assert.deepEqual([released.status, released.assignee], ['pending', 'any'], 'no dead agent holds it');
    const [alert] = await alertTo();
    assert.equal(alert.task_id, task);
    assert.match(alert.body, /args-1.*exited with code 0 without completing its task.*pending again/s);

    // A completed task stays as it is, and there is nothing to say.
    const done = await insertTask(c, 'Done by the worker');
    track((await c.call('collab_spawn_worker', { kind: 'args', name: 'finisher', task_id: done })).pid);
    await collabDb(c).updateTable('collab_tasks').set({ status: 'completed' }).where('id', '=', done).execute();
    await statusOf(c, 'finisher', 'exited');
    await c.call('collab_list_workers');
    assert.deepEqual([(await taskRow(c, done)).status, (await taskRow(c, done)).assignee], ['completed', 'finisher']);
    assert.equal((await alertTo()).length, 1);
  });

  it('is never given a task another agent has in progress; one for anyone in progress becomes its current task, assigned before it starts', async () => {
    const c = await workersGateway();
    const alice = await c.session();
    await c.call('collab_join', { name: 'driver' });
    await alice.call('collab_join', { name: 'alice' });
    const taken = await insertTask(c, 'Alice works on it');
    assert.equal((await alice.call('collab_claim_next')).task.id, taken);
    const before = await taskRow(c, taken);
    const starts: unknown[] = [];
    c.events.subscribe('process.start', (event: GatewayEvent) => starts.push(event.data));
    const refused = await c.fail('collab_spawn_worker', { kind: 'beat', task_id: taken });
    assert.equal(refused.code, 'COLLAB_TRANSITION_INVALID');
    assert.equal(refused.details.assignee, 'alice');
    assert.deepEqual(await taskRow(c, taken), before, 'the task is untouched');
    assert.deepEqual(starts, [], 'no process was started');
    assert.deepEqual((await c.call('collab_list_workers')).workers, []);

    const open = await insertTask(c, 'In progress, for anyone');
    await collabDb(c).updateTable('collab_tasks').set({ status: 'in_progress' }).where('id', '=', open).execute();
    const events: any[] = [];
    c.events.subscribe('collab.task.updated', (event: GatewayEvent) => events.push(event.data));
    // The task is the worker's before its process runs: the first process.start sees it assigned.
    let assignedAtStart: string | undefined;
    c.events.subscribe('process.start', () => void taskRow(c, open).then((row: any) => (assignedAtStart ??= row.assignee)));
    track((await c.call('collab_spawn_worker', { kind: 'beat', task_id: open })).pid);
    await waitFor(() => assignedAtStart !== undefined, 'the start');
    assert.equal(assignedAtStart, 'beat-1');
    const row = await taskRow(c, open);
    assert.deepEqual([row.status, row.assignee], ['in_progress', 'beat-1']);
    const agentRow = await collabDb(c).selectFrom('collab_agents').selectAll().where('name', '=', 'beat-1').executeTakeFirst();
    assert.equal(agentRow.current_task_id, open);
    assert.deepEqual(
      events.map((e) => [e.id, e.assignee, e.previous_assignee, e.previous_status, e.by]),
      [[open, 'beat-1', 'any', 'in_progress', 'driver']],
    );
  });

  it('a failed or dismissed worker gives its task back with its locks, and is no longer working on it', async () => {
    const c = await workersGateway({ healthCheckSeconds: 1, degradedAfterSeconds: 1, unhealthyAfterSeconds: 1 });
    await c.call('collab_join', { name: 'driver' });
    const released: any[] = [];
    const updates: any[] = [];
    c.events.subscribe('collab.lock.released', (event: GatewayEvent) => released.push(event.data));
    c.events.subscribe('collab.task.updated', (event: GatewayEvent) => updates.push(event.data));
    /** As the worker would have it after a claim: in progress, its current task, a file locked for it. */
    const working = async (name: string, task: number, path: string) => {
      await collabDb(c).updateTable('collab_tasks').set({ status: 'in_progress' }).where('id', '=', task).execute();
      await collabDb(c).updateTable('collab_agents').set({ current_task_id: task }).where('name', '=', name).execute();
      const now = Date.now();
      await collabDb(c).insertInto('collab_locks').values({ path, agent: name, reason: `task #${task}`, task_id: task, locked_at: new Date(now).toISOString(), expires_at: new Date(now + 600_000).toISOString() }).execute();
      await collabDb(c).insertInto('collab_locks').values({ path: `${path}.other`, agent: name, reason: null, task_id: null, locked_at: new Date(now).toISOString(), expires_at: new Date(now + 600_000).toISOString() }).execute();
    };
    const check = async (name: string, task: number, path: string) => {
      const row = await taskRow(c, task);
      assert.deepEqual([row.status, row.assignee, row.started_at], ['pending', 'any', null]);
      const agentRow = await collabDb(c).selectFrom('collab_agents').selectAll().where('name', '=', name).executeTakeFirst();
      assert.equal(agentRow.current_task_id, null);
      const locks = await collabDb(c).selectFrom('collab_locks').select('path').where('agent', '=', name).execute();
      assert.deepEqual(locks.map((l: any) => l.path), [`${path}.other`], 'only the lock taken for the task goes');
      assert.ok(released.some((e) => e.path === path && e.agent === name && e.task_id === task));
      const update = updates.find((e) => e.id === task && e.assignee === 'any');
      assert.deepEqual([update.status, update.previous_status, update.previous_assignee], ['pending', 'in_progress', name]);
    };

    const dismissedTask = await insertTask(c, 'Dismissed midway');
    track((await c.call('collab_spawn_worker', { kind: 'echo', task_id: dismissedTask })).pid);
    await working('echo-1', dismissedTask, 'src/a.ts');
    await c.call('collab_dismiss_worker', { name: 'echo-1' });
    await check('echo-1', dismissedTask, 'src/a.ts');

    const failedTask = await insertTask(c, 'Fails midway');
    track((await c.call('collab_spawn_worker', { kind: 'hang', name: 'stuck', task_id: failedTask })).pid);
    await working('stuck', failedTask, 'src/b.ts');
    await statusOf(c, 'stuck', 'failed', 60_000);
    await waitFor(async () => (await taskRow(c, failedTask)).assignee === 'any', 'the task to be given back');
    await check('stuck', failedTask, 'src/b.ts');
  });

  it('a worker dismissed while it is being restarted stays dismissed: the new run is stopped', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const exits: any[] = [];
    c.events.subscribe('process.exit', (event: GatewayEvent) => exits.push(event.data));
    // The dismissal lands while the restart waits for the new process to start.
    let dismissing: Promise<unknown> | undefined;
    c.events.subscribe('collab.worker.restarting', () => {
      dismissing ??= c.call('collab_dismiss_worker', { name: 'crash-1' });
    });
    track((await c.call('collab_spawn_worker', { kind: 'crash' })).pid);
    await waitFor(() => dismissing !== undefined, 'the restart');
    const dismissed: any = await dismissing;
    assert.equal(dismissed.worker.status, 'dismissed');
    // Both runs are over, the second one without a word: no restart, no failure.
    await waitFor(() => exits.length === 2, 'the second run to end');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const view = (await c.call('collab_list_workers')).workers[0];
    assert.deepEqual([view.status, view.pid, view.restarts], ['dismissed', null, 1]);
    const alerts = await collabDb(c).selectFrom('collab_messages').selectAll().where('to_agent', '=', 'driver').execute();
    assert.deepEqual(alerts, []);
  });

  it('keeps only the last ended workers; a default name is never one another gateway\'s live worker uses', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    // w0 first, then the others ten at a time (maxProcesses is 16).
    for (let first = 0; first <= KEEP_ENDED_WORKERS; first += first === 0 ? 1 : 10) {
      const batch = Array.from({ length: first === 0 ? 1 : Math.min(10, KEEP_ENDED_WORKERS + 1 - first) }, (_, i) => `w${first + i}`);
      await Promise.all(batch.map(async (name) => track((await c.call('collab_spawn_worker', { kind: 'brief', name })).pid)));
      await Promise.all(batch.map((name) => c.call('collab_dismiss_worker', { name })));
    }
    const names = (await c.call('collab_list_workers')).workers.map((w: any) => w.name);
    assert.equal(names.length, KEEP_ENDED_WORKERS);
    assert.ok(!names.includes('w0') && names.includes('w1') && names.includes(`w${KEEP_ENDED_WORKERS}`));
    assert.equal((await c.fail('collab_worker_output', { name: 'w0' })).code, 'COLLAB_WORKER_NOT_FOUND');

    // Agent rows as other gateways on the same store leave them: a worker seen just now, one long gone, an agent.
    const now = Date.now();
    const row = (name: string, kind: string, msAgo: number) => ({ name, display_name: null, capabilities: '[]', project: null, presence: 'idle', presence_note: null, current_task_id: null, progress: null, step: null, total_steps: null, kind, registered_at: new Date(now - msAgo).toISOString(), last_seen_at: new Date(now - msAgo).toISOString() });
    await collabDb(c).insertInto('collab_agents').values([row('echo-1', 'worker', 1000), row('echo-2', 'agent', 1000), row('echo-3', 'worker', 3_600_000)]).execute();
    const spawned = await c.call('collab_spawn_worker', { kind: 'echo' });
    track(spawned.pid);
    assert.equal(spawned.name, 'echo-3', 'a worker not seen for staleSeconds is over');
  });

  it('sends input to a worker and reads its output back, control characters removed', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const spawned = await c.call('collab_spawn_worker', { kind: 'echo', input: 'first\n' });
    track(spawned.pid);
    await printed(c, 'echo-1', /^echo: first$/m);
    const sent = await c.call('collab_send_worker_input', { name: 'echo-1', input: 'second \u001b[31mred\u001b[0m\u0007\n' });
    assert.equal(sent.chars, 'second \u001b[31mred\u001b[0m\u0007\n'.length);
    const stdout = await printed(c, 'echo-1', /^echo: second red$/m);
    assert.doesNotMatch(stdout, /[\u0000-\u0008\u000b-\u001f]/);
    const small = await c.call('collab_worker_output', { name: 'echo-1', max_bytes: 64 });
    assert.ok(Buffer.byteLength(small.stdout) <= 64);
    assert.ok(small.stdout.endsWith('echo: second red\n'));
  });

  it('maxInstances holds, also for spawns at the same moment', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const results = await Promise.all([1, 2, 3].map(() => c.client.callTool({ name: 'collab_spawn_worker', arguments: { kind: 'echo' } })));
    const ok = results.filter((r) => !r.isError);
    assert.equal(ok.length, 2);
    for (const r of ok) track((r.structuredContent as any).pid);
    const refused = results.find((r) => r.isError)!;
    const body = JSON.parse((refused.content as any)[0].text);
    assert.equal((body.error ?? body).code, 'COLLAB_WORKER_LIMIT');
    await c.call('collab_dismiss_worker', { name: 'echo-1' });
    const third = await c.call('collab_spawn_worker', { kind: 'echo' });
    track(third.pid);
    assert.equal(third.name, 'echo-1');
  });

  it('a hanging worker is degraded, unhealthy, restarted, then failed: its task goes back to pending and its driver is alerted', async () => {
    const c = await workersGateway({ healthCheckSeconds: 1, degradedAfterSeconds: 1, unhealthyAfterSeconds: 2 });
    const notes = recordNotifications(c.client);
    await c.call('collab_join', { name: 'driver' });
    const task = await insertTask(c, 'Hang forever');
    const seen: string[] = [];
    c.events.subscribe('collab.worker.*', (event: GatewayEvent) => {
      if ((event.data as any).name === 'hang-1') seen.push((event.data as any).status);
    });
    const spawned = await c.call('collab_spawn_worker', { kind: 'hang', task_id: task });
    track(spawned.pid);
    const failed = await statusOf(c, 'hang-1', 'failed', 60_000);
    assert.equal(failed.restarts, 2);
    // Failed first (so that its exit is not taken for a crash), then stopped.
    await waitFor(async () => (await c.call('collab_list_workers')).workers[0].pid === null, 'the failed worker to be stopped');
    assert.match(failed.reason, /silent for \d+ s; restarted 2 times already/);
    for (const status of ['degraded', 'unhealthy', 'restarting', 'failed']) assert.ok(seen.includes(status), `saw ${status}: ${seen.join(' ')}`);
    assert.equal(seen.filter((s) => s === 'restarting').length, 2);
    assert.ok(isGone(spawned.pid));
    // The alert is the last step of a failure, after the task is given back.
    const alertTo = () => collabDb(c).selectFrom('collab_messages').selectAll().where('to_agent', '=', 'driver').executeTakeFirst();
    await waitFor(async () => (await alertTo()) !== undefined, 'the alert to the driver');
    const alert = await alertTo();
    const released = await taskRow(c, task);
    assert.deepEqual([released.status, released.assignee], ['pending', 'any']);
    assert.deepEqual([alert.from_agent, alert.kind, alert.task_id], ['system', 'alert', task]);
    assert.match(alert.body, /hang-1.*failed.*pending again/s);
    await waitFor(() => notes.some((n) => n.method === 'notifications/claude/channel' && n.params?.data?.kind === 'alert'), 'the alert notification');
  });

  it('works in its own git worktree: created, committed, removed with the branch kept', async () => {
    const repo = tempDir('mcpgw-repo-');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' });
    git('init', '--quiet', '-b', 'main');
    writeFileSync(join(repo, 'README.md'), 'hello\n');
    mkdirSync(join(repo, 'src'));
    writeFileSync(join(repo, 'src', 'a.txt'), 'a\n');
    git('add', '--all');
    git('commit', '--quiet', '-m', 'start');
    const c = await workersGateway({}, { workspace: join(repo, 'src') });
    await c.call('collab_join', { name: 'driver' });
    const spawned = await c.call('collab_spawn_worker', { kind: 'echo', name: 'coder' });
    track(spawned.pid);
    assert.equal(spawned.branch, 'collab/coder');
    const worktree: string = spawned.worktree;
    assert.ok(existsSync(join(worktree, 'README.md')));
    const env = JSON.parse(/^env (.*)$/m.exec(await printed(c, 'coder', /^env /m))![1]!);
    assert.equal(env.cwd, join(worktree, 'src'), 'it runs at the workspace\'s place in its worktree');
    assert.match(git('worktree', 'list'), /collab\/coder/);

    writeFileSync(join(worktree, 'src', 'b.txt'), 'b\n');
    const first = await c.call('collab_commit_worker', { name: 'coder', message: 'Add b' });
    assert.deepEqual([first.committed, first.files, first.branch], [true, 1, 'collab/coder']);
    assert.match(first.commit, /^[0-9a-f]{40}$/);
    const nothing = await c.call('collab_commit_worker', { name: 'coder', message: 'Again' });
    assert.deepEqual([nothing.committed, nothing.commit], [false, null]);

    writeFileSync(join(worktree, 'c.txt'), 'c\n');
    const dismissed = await c.call('collab_dismiss_worker', { name: 'coder', commit: true });
    assert.equal(dismissed.commit.committed, true);
    assert.ok(!existsSync(worktree), 'the worktree is removed');
    assert.doesNotMatch(git('worktree', 'list'), /collab\/coder/);
    assert.equal(git('log', '--format=%s %an', 'collab/coder'), 'Work of coder coder\nAdd b coder\nstart t\n');
    assert.equal(git('branch', '--show-current').trim(), 'main');
    assert.deepEqual(git('status', '--porcelain'), '', 'the main checkout is untouched');
  });

  it('runs nothing the repository\'s config names: no hooks, no fsmonitor, no filters, no signing program', async () => {
    const repo = tempDir('mcpgw-repo-');
    const marks = tempDir('mcpgw-marks-');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' });
    const program = (name: string) => {
      const path = join(marks, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\ntouch '${join(marks, name)}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    git('init', '--quiet', '-b', 'main');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n');
    git('add', '--all');
    git('commit', '--quiet', '-m', 'start');
    // What anyone who can write the workspace can write: the repository's config and hooks.
    git('config', 'core.fsmonitor', program('fsmonitor'));
    git('config', 'filter.evil.clean', program('clean'));
    git('config', 'filter.evil.smudge', program('smudge'));
    git('config', 'filter.evil.required', 'true');
    git('config', 'commit.gpgSign', 'true');
    git('config', 'gpg.program', program('gpg'));
    const hooks = ['post-checkout', 'pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-index-change', 'reference-transaction', 'pre-auto-gc', 'post-rewrite'];
    for (const hook of hooks) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${join(marks, hook)}'\n`);
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    const c = await workersGateway({}, { workspace: repo });
    await c.call('collab_join', { name: 'driver' });
    const spawned = await c.call('collab_spawn_worker', { kind: 'echo', name: 'coder' });
    track(spawned.pid);
    assert.ok(existsSync(join(spawned.worktree, 'a.txt')));
    writeFileSync(join(spawned.worktree, 'b.txt'), 'b\n');
    assert.equal((await c.call('collab_commit_worker', { name: 'coder', message: 'Add b' })).committed, true);
    writeFileSync(join(spawned.worktree, 'c.txt'), 'c\n');
    assert.equal((await c.call('collab_dismiss_worker', { name: 'coder', commit: true })).commit.committed, true);
    assert.deepEqual(readdirSync(marks).filter((name) => !name.endsWith('.sh')), [], 'nothing the config names ran');
    assert.equal(git('log', '--format=%s', 'collab/coder'), 'Work of coder\nAdd b\nstart\n');
  });

  it('leaves nothing running after the gateway shuts down', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const pids = [];
    for (const kind of ['beat', 'echo', 'hang']) pids.push(track((await c.call('collab_spawn_worker', { kind })).pid));
    await printed(c, 'beat-1', /^joined/m);
    await c.close();
    for (const pid of pids) assert.ok(isGone(pid), `pid ${pid} is gone`);
  });
});

function argsFor(tool: string, name: string): Record<string, unknown> {
  if (tool === 'collab_send_worker_input') return { name, input: 'x\n' };
  if (tool === 'collab_commit_worker') return { name, message: 'm' };
  return { name };
}
