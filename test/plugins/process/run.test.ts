import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { bootProcess, fail, isGone, NODE, ok, script, track, waitFor } from './process-helpers.js';

describe('process plugin: process_run', async () => {
  const { gateway, client } = await bootProcess({ progressIntervalMs: 100, defaultGraceMs: 500, allowShell: true });
  const starts: GatewayEvent[] = [];
  gateway.events.subscribe('process.start', (event) => {
    starts.push(event);
    track((event.data as { pid: number }).pid);
  });

  it('runs to completion and returns exit code, duration and both tails', async () => {
    const result = await ok(client, 'process_run', {
      command: NODE,
      args: script("console.log('built'); console.error('1 warning'); process.exitCode = 0;"),
    });
    assert.equal(result.status, 'exited');
    assert.equal(result.exit_code, 0);
    assert.equal(result.signal, null);
    assert.equal(result.timed_out, false);
    assert.equal(result.stdout, 'built\n');
    assert.equal(result.stderr, '1 warning\n');
    assert.ok(result.duration_ms >= 0 && result.duration_ms < 30_000);
    assert.match(result.id, /^proc-\d+$/);
    // Runs are not in process_list, but their full output stays readable by id.
    const listed = (await ok(client, 'process_list', {})).processes;
    assert.ok(!listed.some((p: { id: string }) => p.id === result.id));
    assert.equal((await ok(client, 'process_output', { id: result.id, stream: 'stdout' })).text, 'built\n');
  });

  it('reports a failing command with its exit code, and keeps only the tail of long output', async () => {
    const result = await ok(client, 'process_run', {
      command: NODE,
      args: script("for (let i = 1; i <= 500; i++) console.log('test ' + i); process.exit(3);"),
    });
    assert.equal(result.status, 'failed');
    assert.equal(result.exit_code, 3);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 100);
    assert.equal(lines[0], 'test 401');
    assert.equal(lines.at(-1), 'test 500');
    assert.ok(result.stdout_bytes > Buffer.byteLength(result.stdout));
  });

  it('stops a run that outlives timeout_ms, reporting timed_out', async () => {
    const result = await ok(client, 'process_run', {
      command: NODE,
      args: script("console.log('working'); setInterval(() => {}, 1000);"),
      // Long enough for node to boot and print, even on a loaded machine.
      timeout_ms: 3000,
    });
    assert.equal(result.timed_out, true);
    assert.equal(result.status, 'killed');
    assert.equal(result.signal, 'SIGTERM');
    assert.equal(result.stdout, 'working\n');
    const pid = (starts.at(-1)!.data as { pid: number }).pid;
    assert.ok(isGone(pid));
  });

  it('escalates to SIGKILL when a timed-out run ignores SIGTERM', async () => {
    const result = await ok(client, 'process_run', {
      command: NODE,
      args: script("process.on('SIGTERM', () => console.log('ignored')); setInterval(() => {}, 1000);"),
      timeout_ms: 3000,
    });
    assert.equal(result.timed_out, true);
    assert.equal(result.signal, 'SIGKILL');
    assert.equal(result.stdout, 'ignored\n');
  });

  it('kills the run (and its grandchild) when the call is cancelled', async () => {
    const controller = new AbortController();
    const before = starts.length;
    const pending = client.callTool(
      {
        name: 'process_run',
        arguments: {
          command: NODE,
          args: script(
            "const g = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('grandchild ' + g.pid); setInterval(() => {}, 1000);",
          ),
          timeout_ms: 60_000,
        },
      },
      { signal: controller.signal },
    );
    await waitFor(() => starts.length > before, 'the run to start');
    const { id, pid } = starts.at(-1)!.data as { id: string; pid: number };
    let grandchild = 0;
    await waitFor(async () => {
      const match = /grandchild (\d+)/.exec((await ok(client, 'process_output', { id, stream: 'stdout' })).text);
      grandchild = match ? track(Number(match[1])) : 0;
      return grandchild > 0;
    }, 'the grandchild');
    controller.abort();
    await assert.rejects(pending);
    await waitFor(() => isGone(pid) && isGone(grandchild), 'the cancelled run to be killed', 5000);
    await waitFor(async () => (await ok(client, 'process_output', { id, stream: 'stdout' })).status === 'killed', 'the record');
  });

  it('sends progress notifications while it runs when the client asks for them', async () => {
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'process_run', arguments: { command: NODE, args: script("console.log('step one'); setTimeout(() => {}, 700);"), timeout_ms: 10_000 } },
      { onprogress: (update) => updates.push(update) },
    );
    assert.equal(result.isError, undefined);
    assert.ok(updates.length >= 2, `${updates.length} progress notifications`);
    for (let i = 1; i < updates.length; i++) assert.ok(updates[i]!.progress > updates[i - 1]!.progress, 'progress increases');
    assert.equal(updates[0]!.total, 10_000);
    assert.ok(updates.some((u) => /step one/.test(u.message ?? '')), JSON.stringify(updates));
  });

  it('runs a shell line, whose missing command is exit code 127 rather than an error', async () => {
    const piped = await ok(client, 'process_run', { command: 'printf "a\\nb\\nc\\n" | wc -l', shell: true });
    assert.equal(piped.stdout.trim(), '3');
    const missing = await ok(client, 'process_run', { command: 'no-such-command-xyz', shell: true });
    assert.equal(missing.exit_code, 127);
    assert.equal(missing.status, 'failed');
  });

  it('refuses what process_start refuses', async () => {
    assert.equal((await fail(client, 'process_run', { command: 'no-such-command-xyz' })).code, 'PROCESS_COMMAND_NOT_FOUND');
    assert.equal((await fail(client, 'process_run', { command: NODE, cwd: '..' })).code, 'OUTSIDE_WORKSPACE');
  });
});
