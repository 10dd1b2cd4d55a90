// The whole collab story with real processes: a driver plans the work and the gateway starts
// agents for it (test/fixtures/collab-agent in `work` mode, speaking MCP back over TCP); they
// claim, lock, report progress, hand off and complete; messages reach the right sessions only;
// an agent that hangs is found, restarted, given up on, and its task done by another; nothing
// is left running.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordNotifications, tempDir, TESTS } from '../../helpers.js';
import { isGone, waitFor } from '../process/process-helpers.js';
import { collabGateway } from './collab-helpers.js';

const AGENT = join(TESTS, 'fixtures', 'collab-agent', 'agent.js');

describe('collab: a driver, two workers the gateway starts, and one that hangs', () => {
  it('plans, claims, locks, reports, hands off, completes, recovers from the hang, and leaves nothing running', async () => {
    const workspace = tempDir();
    for (const file of ['parser.ts', 'cli.ts', 'docs.md', 'flaky.ts']) writeFileSync(join(workspace, file), `// ${file}\n`);
    const c = await collabGateway({
      workspace,
      plugins: {
        collab: {
          config: {
            workers: {
              kinds: {
                agent: { command: [process.execPath, AGENT, 'work'], maxInstances: 2, worktree: 'never' },
                stuck: { command: [process.execPath, AGENT, 'hang'], restarts: 1, worktree: 'never' },
              },
              degradedAfterSeconds: 1,
              unhealthyAfterSeconds: 5,
              healthCheckSeconds: 1,
            },
          },
        },
      },
    });
    await c.listen({ tcp: true });
    const driverHeard = recordNotifications(c.client);
    await c.call('collab_join', { name: 'driver' });
    const observer = await c.session('observer');
    const observerHeard = recordNotifications(observer.client);
    await observer.call('collab_join', { name: 'observer' });

    // The plan and its tasks: the CLI waits for the parser; the docs go to worker-a, who hands them to worker-b.
    await c.call('collab_create_plan', { id: 'release', title: 'Release 1.0', goal: 'Ship the parser with its CLI and docs.' });
    const task = async (args: Record<string, unknown>) => (await c.call('collab_create_task', args)).task.id as number;
    const parser = await task({ title: 'Write the parser', relevant_files: ['parser.ts'], priority: 1, plan_id: 'release' });
    const cli = await task({ title: 'Wire the CLI', relevant_files: ['cli.ts'], depends_on: [parser], priority: 1, plan_id: 'release' });
    const flaky = await task({ title: 'Fix the flaky test', relevant_files: ['flaky.ts'], priority: 2 });

    // The stuck agent takes the flaky test first and never says a word again.
    await c.call('collab_spawn_worker', { kind: 'stuck', name: 'stuck-1', task_id: flaky });
    await c.call('collab_spawn_worker', { kind: 'agent', name: 'worker-a' });
    await c.call('collab_spawn_worker', { kind: 'agent', name: 'worker-b' });
    // What the workers printed (a line may come a moment after the call it reports).
    const outputOf = async (name: string) => (await c.call('collab_worker_output', { name, max_bytes: 16384 })).stdout as string;
    const printed = async (names: string[], pattern: RegExp) => {
      let all = '';
      await waitFor(async () => pattern.test((all = (await Promise.all(names.map(outputOf))).join('\n'))), `${names.join(' or ')} to print ${pattern}: ${all}`, 10_000);
    };
    // Both are in before the docs task exists: the handoff between them must reach worker-b's session.
    await printed(['worker-a'], /joined worker-a/);
    await printed(['worker-b'], /joined worker-b/);
    const docs = await task({ title: 'Write the docs', description: 'handoff:worker-b', relevant_files: ['docs.md'], assignee: 'worker-a', priority: 3 });

    const tasks = [parser, cli, flaky, docs];
    const rows = async () => (await c.call('collab_list_tasks', { limit: 50 })).tasks.filter((t: any) => tasks.includes(t.id));
    await waitFor(async () => (await rows()).every((t: any) => t.status === 'completed'), 'every task to be completed', 60_000);

    const byId = new Map((await rows()).map((t: any) => [t.id, t]));
    const get = (id: number) => byId.get(id) as any;
    // The dependency held: the CLI started only once the parser was done.
    assert.ok(get(cli).started_at >= get(parser).finished_at, `cli started ${get(cli).started_at}, parser finished ${get(parser).finished_at}`);
    // The docs were handed from worker-a to worker-b, who completed them; the flaky test went to a worker after the stuck one failed.
    assert.equal(get(docs).assignee, 'worker-b');
    assert.match(get(flaky).assignee, /^worker-[ab]$/);
    for (const id of tasks) assert.equal(get(id).progress_note, 'halfway there', `task ${id} reported progress`);

    const workers = new Map((await c.call('collab_list_workers')).workers.map((w: any) => [w.name, w]));
    assert.equal((workers.get('stuck-1') as any).status, 'failed');
    assert.equal((workers.get('stuck-1') as any).restarts, 1);
    await printed(['worker-a'], new RegExp(`claimed #${docs} locked \\["docs.md"\\]`));
    await printed(['worker-a'], new RegExp(`handed off #${docs} to worker-b`));
    await printed(['worker-b'], /notified collab.message handoff/);
    await printed(['worker-b'], /read handoff #\d+ from worker-a/);
    await printed(['worker-a', 'worker-b'], new RegExp(`completed #${flaky}`));
    // The locks went with the tasks.
    assert.deepEqual((await c.call('collab_list_locks')).locks, []);

    // The driver heard every "done" and the alert about the stuck agent; the observer heard none of it.
    const channels = (heard: typeof driverHeard) => heard.filter((n) => n.method === 'notifications/claude/channel').map((n) => n.params as any);
    await waitFor(() => channels(driverHeard).filter((p) => p.data.kind === 'message').length >= tasks.length, 'a done message per task', 10_000);
    assert.ok(channels(driverHeard).some((p) => p.data.kind === 'alert' && p.data.from === 'system'), 'the alert about stuck-1');
    assert.deepEqual(channels(observerHeard), []);
    const done = (await c.call('collab_read_messages', { filter: 'unread', limit: 50 })).messages.filter((m: any) => m.kind === 'message');
    assert.deepEqual(done.map((m: any) => m.subject).sort(), tasks.map((id) => `done #${id}`).sort());

    // Shutdown stops every worker.
    const pids = [...workers.values()].map((w: any) => w.pid).filter((pid: unknown): pid is number => typeof pid === 'number');
    assert.ok(pids.length >= 2, JSON.stringify([...workers.values()]));
    await c.close();
    await waitFor(() => pids.every(isGone), 'every worker process to be gone', 10_000);
  });
});
