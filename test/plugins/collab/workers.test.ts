// collab workers: agents the gateway starts (test/fixtures/collab-agent) through the process
// plugin, reaching the gateway back over TCP; health, restarts, worktrees, and nothing left.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { recordNotifications, ROOT, tempDir } from '../../helpers.js';
import { isGone, track, waitFor } from '../process/process-helpers.js';
import { collabGateway, type CollabGateway } from './collab-helpers.js';

const AGENT = join(ROOT, 'test', 'fixtures', 'collab-agent', 'agent.js');
const agent = (mode: string, ...extra: string[]) => [process.execPath, AGENT, mode, ...extra];

const KINDS = {
  beat: { command: agent('heartbeat') },
  echo: { command: agent('echo'), maxInstances: 2 },
  args: { command: agent('exit', '--agent={agent}', '{task_id}', '{worktree}/out', '{unknown}', '$(touch smuggled)') },
  hang: { command: agent('hang'), restarts: 2 },
};

/** A gateway with collab workers configured and a TCP listener the workers dial back. */
async function workersGateway(workers: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Promise<CollabGateway> {
  const c = await collabGateway({ plugins: { collab: { config: { workers: { kinds: KINDS, ...workers } } } }, ...overrides });
  await listenSocket(c.gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, c.gateway.config.transports.tcp);
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

const collabDb = (c: CollabGateway) => c.gateway.store.forPlugin('collab').db as any;

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
    assert.deepEqual(env, { agent: 'beat-1', task: String(task), worktree: c.gateway.config.workspace, cwd: c.gateway.config.workspace });
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
    const root = c.gateway.config.workspace;
    assert.deepEqual(argv, ['exit', '--agent=args-1', String(task), `${root}/out`, '{unknown}', '$(touch smuggled)']);
    assert.deepEqual(readdirSync(root), [], 'no shell ran anything in the workspace');
    // An exit with code 0 leaves its task as it was.
    assert.equal((await taskRow(c, task)).assignee, 'args-1');
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
    c.gateway.events.subscribe('collab.worker.*', (event: GatewayEvent) => {
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

  it('leaves nothing running after the gateway shuts down', async () => {
    const c = await workersGateway();
    await c.call('collab_join', { name: 'driver' });
    const pids = [];
    for (const kind of ['beat', 'echo', 'hang']) pids.push(track((await c.call('collab_spawn_worker', { kind })).pid));
    await printed(c, 'beat-1', /^joined/m);
    await c.gateway.close();
    for (const pid of pids) assert.ok(isGone(pid), `pid ${pid} is gone`);
  });
});

function argsFor(tool: string, name: string): Record<string, unknown> {
  if (tool === 'collab_send_worker_input') return { name, input: 'x\n' };
  if (tool === 'collab_commit_worker') return { name, message: 'm' };
  return { name };
}
