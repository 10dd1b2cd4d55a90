// The process API other plugins use (ctx.api('process')): start, stdin, recent output, last
// output time, exit subscription, stop, and the same rules and shutdown as the tools.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ProcessApi } from '../../../plugins/process/api.js';
import { received } from '../../fixtures/process-api-plugin/index.js';
import { startTestGateway } from '../../../core/testing.js';
import { tempDir, TESTS } from '../../helpers.js';
import { ECHO_REGISTRY, IGNORES_SIGTERM, isGone, NODE, script, track, waitFor } from './process-helpers.js';

const REGISTRY = join(TESTS, 'fixtures', 'process-api-plugin', 'registry');

async function bootApi(config: Record<string, unknown> = {}, dir = tempDir('mcpgw-procapi-')) {
  const before = received.length;
  const gateway = await startTestGateway({
    registries: [ECHO_REGISTRY, REGISTRY],
    builtinRegistry: true,
    plugins: { echo: {}, process: { config }, procuser: {} },
    workspace: dir,
    store: { storage: { shared: 'sqlite' }, dataDir: join(dir, 'data') },
  });
  after(() => gateway.close());
  assert.equal(received.length, before + 1);
  const api: ProcessApi = received.at(-1)!;
  return { gateway, api, dir };
}

const ECHO = "process.stdin.on('data', (d) => process.stdout.write('got:' + d)); console.error('on stderr');";

describe('process API', () => {
  it('starts a child with env and cwd, writes to its stdin, tails its output and knows when it last wrote', async () => {
    const { api, dir } = await bootApi();
    mkdirSync(join(dir, 'sub'));
    const handle = await api.start({ command: NODE, args: script(`console.log(process.env.WHO + ' in ' + process.cwd()); ${ECHO}`), cwd: 'sub', env: { WHO: 'tester' }, label: 'echo' });
    track(handle.pid);
    assert.match(handle.id, /^proc-\d+$/);
    assert.equal(handle.label, 'echo');
    assert.equal(handle.running, true);
    await waitFor(() => handle.tail('stdout', 1024).includes('tester in'), 'the greeting');
    assert.ok(handle.tail('stdout', 1024).endsWith(`${join(dir, 'sub')}\n`));
    await waitFor(() => handle.tail('stderr', 1024) === 'on stderr\n', 'stderr');
    const firstOutput = handle.lastOutputMs();
    assert.ok(firstOutput !== undefined && firstOutput >= handle.startedMs);
    await handle.write('hello\n');
    await waitFor(() => handle.tail('stdout', 1024).endsWith('got:hello\n'), 'the echo');
    assert.ok(handle.lastOutputMs()! >= firstOutput);
    assert.equal(handle.tail('stdout', 10), 'got:hello\n');
    const exit = await handle.stop(1000);
    assert.equal(exit.status, 'killed');
    assert.equal(exit.signal, 'SIGTERM');
    assert.equal(handle.running, false);
    assert.deepEqual(await handle.stop(), exit, 'stopping twice answers the same exit');
    await assert.rejects(handle.write('late\n'), (err: any) => err.code === 'PROCESS_EXITED');
  });

  it('tells exit subscribers how the child ended; a quiet child has no last output time', async () => {
    const { api } = await bootApi();
    const handle = await api.start({ command: NODE, args: script("process.stdin.once('data', () => process.exit(3))"), label: 'exit-3' });
    track(handle.pid);
    assert.equal(handle.lastOutputMs(), undefined);
    const seen: unknown[] = [];
    handle.onExit((exit) => seen.push(exit));
    const unsubscribed: unknown[] = [];
    handle.onExit((exit) => unsubscribed.push(exit))();
    await handle.write('go\n');
    assert.deepEqual(await handle.exited, { status: 'failed', exit_code: 3, signal: null });
    await waitFor(() => seen.length === 1, 'the exit listener');
    assert.deepEqual(seen, [{ status: 'failed', exit_code: 3, signal: null }]);
    assert.deepEqual(unsubscribed, []);
    const late: unknown[] = [];
    handle.onExit((exit) => late.push(exit));
    await waitFor(() => late.length === 1, 'a listener added after the exit');
  });

  it('a child that ignores SIGTERM is killed after the grace period', async () => {
    const { api } = await bootApi();
    const handle = await api.start({ command: NODE, args: script(IGNORES_SIGTERM), label: 'stubborn' });
    track(handle.pid);
    await waitFor(() => handle.tail('stdout', 100) === 'ready\n', 'ready');
    const exit = await handle.stop(200);
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(isGone(handle.pid));
  });

  it('applies the plugin rules: allow/deny, missing command, cwd outside the workspace and data folder, maxProcesses', async () => {
    const { api, gateway } = await bootApi({ deny: ['rm'], maxProcesses: 1 });
    const refused = async (request: Parameters<ProcessApi['start']>[0], code: string) =>
      assert.rejects(api.start(request), (err: any) => err.code === code);
    await refused({ command: 'rm', args: ['-rf', 'x'], label: 'rm' }, 'PROCESS_NOT_ALLOWED');
    await refused({ command: 'no-such-command-here', label: 'x' }, 'PROCESS_COMMAND_NOT_FOUND');
    await refused({ command: NODE, cwd: '/', label: 'x' }, 'OUTSIDE_WORKSPACE');
    await refused({ command: NODE, cwd: '../..', label: 'x' }, 'OUTSIDE_WORKSPACE');
    await refused({ command: NODE, cwd: 'missing', label: 'x' }, 'PROCESS_CWD_NOT_FOUND');
    // The gateway's data folder is a place plugins may run children in (collab's worktrees).
    const own = join(gateway.dataDir, 'plugins', 'procuser');
    const first = await api.start({ command: NODE, args: script('console.log(process.cwd()); setInterval(() => {}, 1000)'), cwd: own, label: 'in-data' });
    track(first.pid);
    await waitFor(() => first.tail('stdout', 4096).trim().endsWith(join('plugins', 'procuser')), 'its cwd');
    await refused({ command: NODE, args: script(''), label: 'second' }, 'PROCESS_LIMIT_REACHED');
    await first.stop(0);
  });

  it('is not listed by process_list, no process tool reaches it, and nothing it started survives shutdown, whatever onShutdown says', async () => {
    const { api, gateway } = await bootApi({ onShutdown: 'keep' });
    const { call, fail } = await gateway.session('test-client');
    const handle = await api.start({ command: NODE, args: script("process.stdin.on('data', (d) => process.stdout.write(d))"), label: 'worker' });
    track(handle.pid);
    assert.deepEqual((await call('process_list', {})).processes, []);
    // Its owner's rules (collab: only a worker's driver writes to it or stops it) would be bypassed otherwise.
    const cases: Array<[string, Record<string, unknown>]> = [
      ['process_output', { id: handle.id, stream: 'stdout' }],
      ['process_input', { id: handle.id, input: 'smuggled\n' }],
      ['process_stop', { id: handle.id, grace_ms: 0 }],
      ['process_kill', { id: handle.id }],
    ];
    for (const [tool, args] of cases) {
      const error = await fail(tool, args);
      assert.equal(error.code, 'PROCESS_NOT_FOUND', tool);
      assert.equal(error.message, `No process has id "${handle.id}". List them with process_list.`, 'the same answer as for an unknown id');
    }
    assert.equal(handle.running, true);
    assert.equal(handle.tail('stdout', 1024), '', 'no input reached it');
    await gateway.close();
    assert.ok(isGone(handle.pid), 'the child is gone after shutdown');
    assert.equal((await handle.exited).status, 'killed');
  });
});
