import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import {
  bootProcess,
  fail,
  grandchildOf,
  IGNORES_SIGTERM,
  isGone,
  ok,
  startNode,
  waitFor,
  waitForOutput,
  WITH_GRANDCHILD,
} from './process-helpers.js';

const TOOLS = [
  'process_free_port',
  'process_input',
  'process_kill',
  'process_list',
  'process_output',
  'process_run',
  'process_start',
  'process_stop',
];

describe('process plugin: start, output, input, stop', async () => {
  const { gateway, client, dir } = await bootProcess({ allowShell: true });
  const events: GatewayEvent[] = [];
  gateway.events.subscribe('process.*', (event) => events.push(event));

  it('offers its eight tools, each with a description, closed schema and annotations', async () => {
    const { tools } = await client.listTools();
    const mine = tools.filter((t) => t.name.startsWith('process_'));
    assert.deepEqual(mine.map((t) => t.name).sort(), TOOLS);
    for (const tool of mine) {
      assert.ok(tool.description && tool.description.length > 40, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      // The definition's: the lean listing leaves out `additionalProperties: false` and the hints equal to the defaults (readOnlyHint: false).
      const { definition } = gateway.tools().find((t) => t.name === tool.name)!;
      assert.equal(definition.inputSchema.additionalProperties, false, tool.name);
      assert.equal(typeof definition.annotations.readOnlyHint, 'boolean', tool.name);
    }
  });

  it('captures stdout and stderr in their own streams and log files, and returns the view', async () => {
    const view = await startNode(client, "console.log('to out'); console.error('to err');", {
      tags: { role: 'demo', branch: 'main' },
      ports: [4321],
    });
    assert.match(view.id, /^proc-\d+$/);
    assert.equal(view.status, 'running');
    assert.equal(view.command, process.execPath);
    assert.deepEqual(view.tags, { role: 'demo', branch: 'main' });
    assert.deepEqual(view.ports, [4321]);
    assert.equal(view.cwd, gateway.workspace);
    assert.ok(Number.isInteger(view.pid));
    await waitFor(async () => (await ok(client, 'process_list', {})).processes[0].status !== 'running', 'the exit');
    const out = await ok(client, 'process_output', { id: view.id, stream: 'stdout' });
    const err = await ok(client, 'process_output', { id: view.id, stream: 'stderr' });
    assert.equal(out.text, 'to out\n');
    assert.equal(err.text, 'to err\n');
    const both = await ok(client, 'process_output', { id: view.id });
    assert.equal(both.stdout.text, 'to out\n');
    assert.equal(both.stderr.text, 'to err\n');
    assert.deepEqual(both.next_offset, { stdout: 7, stderr: 7 });
    assert.ok(existsSync(view.logs.stdout) && existsSync(view.logs.stderr));
    const [final] = (await ok(client, 'process_list', {})).processes;
    assert.equal(final.status, 'exited');
    assert.equal(final.exit_code, 0);
    assert.ok(final.exited_at >= final.started_at);
  });

  it('runs in a cwd inside the workspace with extra environment variables', async () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const view = await startNode(client, 'console.log(process.cwd(), process.env.GREETING)', { cwd: 'sub', env: { GREETING: 'hi' } });
    assert.equal(view.cwd, join(gateway.workspace, 'sub'));
    assert.equal(await waitForOutput(client, view.id, /hi/), `${join(gateway.workspace, 'sub')} hi\n`);
  });

  it('echoes stdin, and closing stdin ends a process waiting for EOF', async () => {
    const view = await startNode(
      client,
      "process.stdin.on('data', (d) => process.stdout.write('echo: ' + d)); process.stdin.on('end', () => { console.log('eof'); process.exit(7); });",
    );
    assert.deepEqual(await ok(client, 'process_input', { id: view.id, input: 'hello\n' }), { id: view.id, bytes_written: 6, stdin_open: true });
    await waitForOutput(client, view.id, /echo: hello\n/);
    await ok(client, 'process_input', { id: view.id, input: 'bye\n', close: true });
    await waitForOutput(client, view.id, /eof/);
    await waitFor(async () => (await ok(client, 'process_output', { id: view.id, stream: 'stdout' })).status === 'failed', 'exit 7');
    const [final] = (await ok(client, 'process_list', { tags: {} })).processes.filter((p: { id: string }) => p.id === view.id);
    assert.equal(final.exit_code, 7);
    assert.equal((await ok(client, 'process_output', { id: view.id, stream: 'stdout' })).text, 'echo: hello\necho: bye\neof\n');
  });

  it('follows output incrementally with offsets, tail_lines and max_bytes', async () => {
    const view = await startNode(client, "process.stdin.on('data', (d) => { for (const n of String(d).trim().split(' ')) console.log('line ' + n); });");
    await ok(client, 'process_input', { id: view.id, input: '1 2 3\n' });
    await waitForOutput(client, view.id, /line 3\n/);
    const first = await ok(client, 'process_output', { id: view.id, stream: 'stdout' });
    assert.equal(first.text, 'line 1\nline 2\nline 3\n');
    assert.equal(first.next_offset, 21);
    const nothing = await ok(client, 'process_output', { id: view.id, stream: 'stdout', offset: first.next_offset });
    assert.equal(nothing.text, '');
    assert.equal(nothing.next_offset, 21);

    await ok(client, 'process_input', { id: view.id, input: '4 5\n' });
    await waitForOutput(client, view.id, /line 5\n/);
    const next = await ok(client, 'process_output', { id: view.id, stream: 'stdout', offset: first.next_offset });
    assert.equal(next.text, 'line 4\nline 5\n');
    assert.equal(next.offset, 21);
    assert.equal(next.next_offset, 35);

    const tail = await ok(client, 'process_output', { id: view.id, stream: 'stdout', tail_lines: 2 });
    assert.equal(tail.text, 'line 4\nline 5\n');
    assert.equal(tail.next_offset, 35);
    const tailAfter = await ok(client, 'process_output', { id: view.id, stream: 'stdout', tail_lines: 10, offset: 28 });
    assert.equal(tailAfter.text, 'line 5\n');

    const page = await ok(client, 'process_output', { id: view.id, stream: 'stdout', max_bytes: 64, offset: 0 });
    assert.equal(page.more, false);
    const both = await ok(client, 'process_output', { id: view.id, offset: { stdout: 28 } });
    assert.equal(both.stdout.text, 'line 5\n');
    assert.deepEqual(both.next_offset, { stdout: 35, stderr: 0 });
    await ok(client, 'process_kill', { id: view.id });
  });

  it('pages long output with max_bytes and never splits a UTF-8 character', async () => {
    const view = await startNode(client, "process.stdout.write('é'.repeat(100)); setInterval(() => {}, 1000);");
    await waitFor(async () => (await ok(client, 'process_output', { id: view.id, stream: 'stdout' })).total_bytes === 200, 'the output');
    let offset = 0;
    let text = '';
    for (let page = 0; page < 10 && offset < 200; page++) {
      const chunk = await ok(client, 'process_output', { id: view.id, stream: 'stdout', offset, max_bytes: 65 });
      assert.ok(!chunk.text.includes('\uFFFD'), 'no broken character');
      assert.equal(chunk.more, chunk.next_offset < 200);
      text += chunk.text;
      offset = chunk.next_offset;
    }
    assert.equal(text, 'é'.repeat(100));
    await ok(client, 'process_kill', { id: view.id });
  });

  it('stops a process: SIGTERM, and the final view carries the signal', async () => {
    const view = await startNode(client, "console.log('up'); setInterval(() => {}, 1000);");
    await waitForOutput(client, view.id, /up/);
    const final = await ok(client, 'process_stop', { id: view.id });
    assert.equal(final.status, 'killed');
    assert.equal(final.signal, 'SIGTERM');
    assert.equal(final.exit_code, null);
    assert.ok(final.exited_at);
    assert.ok(isGone(view.pid));
  });

  it('kills a child that ignores SIGTERM once the grace has passed', async () => {
    const view = await startNode(client, IGNORES_SIGTERM);
    await waitForOutput(client, view.id, /ready/);
    const before = Date.now();
    const final = await ok(client, 'process_stop', { id: view.id, grace_ms: 400 });
    assert.ok(Date.now() - before >= 350, 'it waited for the grace');
    assert.equal(final.status, 'killed');
    assert.equal(final.signal, 'SIGKILL');
    assert.ok(isGone(view.pid));
  });

  it('stops the grandchildren with the process (the whole group)', async () => {
    const view = await startNode(client, WITH_GRANDCHILD);
    const grandchild = await grandchildOf(client, view.id);
    assert.equal(isGone(grandchild), false);
    await ok(client, 'process_stop', { id: view.id, grace_ms: 2000 });
    await waitFor(() => isGone(view.pid) && isGone(grandchild), 'the group to be gone', 3000);
  });

  it('process_kill sends SIGKILL to the whole group at once', async () => {
    const view = await startNode(client, `${IGNORES_SIGTERM} ${WITH_GRANDCHILD}`);
    const grandchild = await grandchildOf(client, view.id);
    const final = await ok(client, 'process_kill', { id: view.id });
    assert.equal(final.status, 'killed');
    assert.equal(final.signal, 'SIGKILL');
    await waitFor(() => isGone(view.pid) && isGone(grandchild), 'the group to be gone', 3000);
  });

  it('stops a group whose leader already exited but whose grandchild still runs', async () => {
    const view = await startNode(
      client,
      "const g = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('grandchild ' + g.pid); g.unref(); setTimeout(() => process.exit(0), 100);",
    );
    const grandchild = await grandchildOf(client, view.id);
    await waitFor(() => isGone(view.pid), 'the leader to exit');
    const final = await ok(client, 'process_stop', { id: view.id, grace_ms: 1000 });
    assert.equal(final.status, 'exited');
    await waitFor(() => isGone(grandchild), 'the orphaned grandchild to be stopped', 3000);
    assert.equal((await fail(client, 'process_stop', { id: view.id })).code, 'PROCESS_EXITED');
  });

  it('runs a shell line when shell: true', async () => {
    const view = await ok(client, 'process_start', { command: "echo 'hello world' | tr a-z A-Z", shell: true });
    assert.equal(await waitForOutput(client, view.id, /HELLO/), 'HELLO WORLD\n');
    const quoted = await ok(client, 'process_start', { command: 'printf "%s|"', args: ["it's", 'a b', '$HOME'], shell: true });
    assert.equal(await waitForOutput(client, quoted.id, /\|$/), "it's|a b|$HOME|");
  });

  it('lists newest first, filtering by tags, running state and exit age', async () => {
    const api = await startNode(client, 'setInterval(() => {}, 1000)', { tags: { role: 'api', branch: 'feat' } });
    const web = await startNode(client, 'setInterval(() => {}, 1000)', { tags: { role: 'web', branch: 'feat' } });
    const all = (await ok(client, 'process_list', {})).processes;
    assert.deepEqual(all.slice(0, 2).map((p: { id: string }) => p.id), [web.id, api.id]);
    const feat = (await ok(client, 'process_list', { tags: { branch: 'feat' } })).processes;
    assert.deepEqual(feat.map((p: { id: string }) => p.id), [web.id, api.id]);
    const apiOnly = (await ok(client, 'process_list', { tags: { branch: 'feat', role: 'api' } })).processes;
    assert.deepEqual(apiOnly.map((p: { id: string }) => p.id), [api.id]);
    assert.deepEqual((await ok(client, 'process_list', { tags: { role: 'nobody' } })).processes, []);

    await ok(client, 'process_stop', { id: web.id });
    const running = (await ok(client, 'process_list', { running_only: true })).processes;
    assert.ok(running.every((p: { status: string }) => p.status === 'running'));
    assert.ok(running.some((p: { id: string }) => p.id === api.id));
    assert.ok(!running.some((p: { id: string }) => p.id === web.id));

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const recent = (await ok(client, 'process_list', { exited_within_s: 1 })).processes;
    assert.ok(recent.some((p: { id: string }) => p.id === api.id), 'running ones are always listed');
    assert.ok(!recent.some((p: { id: string }) => p.id === web.id), 'exited over a second ago');
    assert.ok((await ok(client, 'process_list', { exited_within_s: 3600 })).processes.some((p: { id: string }) => p.id === web.id));
    assert.equal((await ok(client, 'process_list', { limit: 1 })).processes.length, 1);
    await ok(client, 'process_stop', { id: api.id });
  });

  it('publishes process.start, batched process.output and process.exit', async () => {
    events.length = 0;
    const view = await startNode(client, "for (let i = 0; i < 500; i++) console.log('row ' + i);");
    await waitFor(() => events.some((e) => e.channel === 'process.exit' && (e.data as { id: string }).id === view.id), 'process.exit');
    const mine = events.filter((e) => (e.data as { id: string }).id === view.id);
    assert.equal(mine[0]!.channel, 'process.start');
    assert.equal(mine.at(-1)!.channel, 'process.exit');
    assert.deepEqual(
      { ...(mine.at(-1)!.data as object), duration_ms: 0 },
      { id: view.id, kind: 'start', pid: view.pid, status: 'exited', exit_code: 0, signal: null, duration_ms: 0 },
    );
    const outputs = mine.filter((e) => e.channel === 'process.output').map((e) => e.data as { offset: number; text: string; truncated: boolean; next_offset: number });
    assert.ok(outputs.length >= 1 && outputs.length < 50, `batched: ${outputs.length} events for 500 lines`);
    assert.equal(outputs[0]!.offset, 0);
    for (let i = 1; i < outputs.length; i++) assert.equal(outputs[i]!.offset, outputs[i - 1]!.next_offset, 'contiguous');
    const expected = Array.from({ length: 500 }, (_, i) => `row ${i}\n`).join('');
    assert.equal(outputs.at(-1)!.next_offset, Buffer.byteLength(expected));
    if (outputs.every((o) => !o.truncated)) assert.equal(outputs.map((o) => o.text).join(''), expected);
    assert.ok(mine.every((e) => e.source === 'process'));
  });

  it('returns a free loopback port that can be bound', async () => {
    const { port, host } = await ok(client, 'process_free_port', {});
    assert.equal(host, '127.0.0.1');
    assert.ok(port > 0 && port < 65536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('process plugin: output retention', async () => {
  const { client } = await bootProcess({ maxOutputBytes: 8192, pollIntervalMs: 50 });

  it('keeps at most about maxOutputBytes per stream, with offsets that never go back', async () => {
    const view = await startNode(
      client,
      "let i = 0; const t = setInterval(() => { for (let j = 0; j < 20; j++) console.log(String(i++).padStart(9, '0')); if (i >= 4000) { clearInterval(t); } }, 2);",
    );
    await waitFor(async () => (await ok(client, 'process_output', { id: view.id, stream: 'stdout' })).status !== 'running', 'the exit');
    const total = 4000 * 10;
    const all = await ok(client, 'process_output', { id: view.id, stream: 'stdout', offset: 0, max_bytes: 1024 * 1024 });
    // The gateway copies the child's pipe itself, so a cut loses nothing: every byte is counted.
    assert.equal(all.total_bytes, total);
    assert.ok(all.skipped_bytes > 0, 'older output was dropped');
    assert.ok(all.text.length <= 8192 + 4096, `kept ${all.text.length} bytes`);
    assert.equal(all.offset, all.skipped_bytes);
    assert.equal(all.next_offset, all.total_bytes);
    assert.ok(all.text.endsWith('000003999\n'));
    const tail = await ok(client, 'process_output', { id: view.id, stream: 'stdout', tail_lines: 3 });
    assert.equal(tail.text, '000003997\n000003998\n000003999\n');
  });
});
