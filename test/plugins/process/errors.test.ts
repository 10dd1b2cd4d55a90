import assert from 'node:assert/strict';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers.js';
import { bootProcess, call, fail, NODE, ok, script, startNode, waitFor } from './process-helpers.js';

/** 3.2 MB of environment: over Linux's ARG_MAX, so the kernel refuses the exec (E2BIG). */
const hugeEnv = () => Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`BIG_${i}`, 'x'.repeat(32_000)]));

interface Case {
  label: string;
  tool: string;
  args: () => Record<string, unknown>;
  code: string;
  status: number;
}

describe('process plugin: error codes', async () => {
  const { gateway, client, dir } = await bootProcess({ deny: ['rm', '* --dangerous*'], allowShell: true });
  writeFileSync(join(dir, 'data.txt'), 'not a program\n');
  writeFileSync(join(dir, 'script.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, 'script.sh'), 0o644); // not executable
  symlinkSync(tempDir('mcpgw-outside-'), join(dir, 'escape'));

  const exited = await startNode(client, '');
  await waitFor(async () => (await ok(client, 'process_output', { id: exited.id, stream: 'stdout' })).status === 'exited', 'the exit');
  const closedStdin = await startNode(client, 'setInterval(() => {}, 1000)');
  await ok(client, 'process_input', { id: closedStdin.id, input: '', close: true });
  const node = (extra: Record<string, unknown> = {}) => () => ({ command: NODE, args: script('0'), ...extra });

  const cases: Case[] = [
    { label: 'an unknown id', tool: 'process_stop', args: () => ({ id: 'proc-999999' }), code: 'PROCESS_NOT_FOUND', status: 404 },
    { label: 'an id that is not one', tool: 'process_output', args: () => ({ id: 'not-an-id' }), code: 'PROCESS_NOT_FOUND', status: 404 },
    { label: 'an unknown id', tool: 'process_kill', args: () => ({ id: 'proc-0' }), code: 'PROCESS_NOT_FOUND', status: 404 },
    { label: 'an unknown id', tool: 'process_input', args: () => ({ id: 'proc-424242', input: 'x' }), code: 'PROCESS_NOT_FOUND', status: 404 },
    { label: 'a denied command name', tool: 'process_start', args: () => ({ command: 'rm', args: ['-rf', 'x'] }), code: 'PROCESS_NOT_ALLOWED', status: 403 },
    { label: 'a denied command line', tool: 'process_start', args: node({ args: ['x.js', '--dangerous'] }), code: 'PROCESS_NOT_ALLOWED', status: 403 },
    { label: 'a denied shell line', tool: 'process_start', args: () => ({ command: 'rm -rf x', shell: true }), code: 'PROCESS_NOT_ALLOWED', status: 403 },
    { label: 'a denied command', tool: 'process_run', args: () => ({ command: '/bin/rm', args: ['x'] }), code: 'PROCESS_NOT_ALLOWED', status: 403 },
    { label: 'a command not on PATH', tool: 'process_start', args: () => ({ command: 'no-such-command-xyz' }), code: 'PROCESS_COMMAND_NOT_FOUND', status: 404 },
    { label: 'a missing path', tool: 'process_start', args: () => ({ command: './missing.sh' }), code: 'PROCESS_COMMAND_NOT_FOUND', status: 404 },
    { label: 'a file that is not executable', tool: 'process_start', args: () => ({ command: './script.sh' }), code: 'PROCESS_COMMAND_NOT_FOUND', status: 404 },
    { label: 'a cwd that does not exist', tool: 'process_start', args: node({ cwd: 'nope' }), code: 'PROCESS_CWD_NOT_FOUND', status: 404 },
    { label: 'a cwd that is a file', tool: 'process_run', args: node({ cwd: 'data.txt' }), code: 'PROCESS_CWD_NOT_FOUND', status: 404 },
    { label: 'a cwd above the workspace', tool: 'process_start', args: node({ cwd: '..' }), code: 'OUTSIDE_WORKSPACE', status: 403 },
    { label: 'an absolute cwd outside', tool: 'process_start', args: node({ cwd: '/' }), code: 'OUTSIDE_WORKSPACE', status: 403 },
    { label: 'a cwd through a symlink out', tool: 'process_run', args: node({ cwd: 'escape' }), code: 'OUTSIDE_WORKSPACE', status: 403 },
    { label: 'an exited process', tool: 'process_stop', args: () => ({ id: exited.id }), code: 'PROCESS_EXITED', status: 409 },
    { label: 'an exited process', tool: 'process_kill', args: () => ({ id: exited.id }), code: 'PROCESS_EXITED', status: 409 },
    { label: 'an exited process', tool: 'process_input', args: () => ({ id: exited.id, input: 'x' }), code: 'PROCESS_EXITED', status: 409 },
    { label: 'a closed stdin', tool: 'process_input', args: () => ({ id: closedStdin.id, input: 'x' }), code: 'PROCESS_STDIN_CLOSED', status: 409 },
    {
      label: 'an environment the system refuses (E2BIG)',
      tool: 'process_start',
      args: () => ({ command: NODE, args: script('0'), env: hugeEnv() }),
      code: 'PROCESS_SPAWN_FAILED',
      status: 500,
    },
    {
      label: 'a command line over maxCommandBytes',
      tool: 'process_start',
      args: () => ({ command: NODE, args: Array.from({ length: 100 }, () => 'x'.repeat(32_000)) }),
      code: 'PROCESS_COMMAND_TOO_LARGE',
      status: 413,
    },
    { label: 'a NUL byte in cwd', tool: 'process_start', args: node({ cwd: 'a\u0000b' }), code: 'INVALID_ARGUMENTS', status: 400 },
    { label: 'an unknown key', tool: 'process_start', args: node({ detach: true }), code: 'INVALID_ARGUMENTS', status: 400 },
    { label: 'a bad env name', tool: 'process_run', args: node({ env: { 'A-B': '1' } }), code: 'INVALID_ARGUMENTS', status: 400 },
    { label: 'a non-string env value', tool: 'process_run', args: node({ env: { A: 1 } }), code: 'INVALID_ARGUMENTS', status: 400 },
    { label: 'a port out of range', tool: 'process_start', args: node({ ports: [70000] }), code: 'INVALID_ARGUMENTS', status: 400 },
    { label: 'a grace over the maximum', tool: 'process_stop', args: () => ({ id: exited.id, grace_ms: 10_000_000 }), code: 'INVALID_ARGUMENTS', status: 400 },
    {
      label: 'a number offset with stream both',
      tool: 'process_output',
      args: () => ({ id: exited.id, offset: 5 }),
      code: 'INVALID_ARGUMENTS',
      status: 400,
    },
    { label: 'an unknown stream', tool: 'process_output', args: () => ({ id: exited.id, stream: 'stdin' }), code: 'INVALID_ARGUMENTS', status: 400 },
  ];

  for (const c of cases) {
    it(`${c.tool} with ${c.label}: ${c.code} (${c.status})`, async () => {
      const body = await fail(client, c.tool, c.args());
      assert.equal(body.code, c.code, body.message);
      assert.equal(gateway.errorStatus(c.code), c.status);
      assert.ok(body.message.length > 20, 'the message says what to do');
    });
  }

  it('carries the final view in the details of PROCESS_EXITED', async () => {
    const body = await fail(client, 'process_stop', { id: exited.id });
    assert.equal(body.details.id, exited.id);
    assert.equal(body.details.status, 'exited');
    assert.equal(body.details.exit_code, 0);
  });

  it('leaves no record behind for a process that could not start', async () => {
    const before = (await ok(client, 'process_list', {})).processes.length;
    await fail(client, 'process_start', { command: NODE, args: script('0'), env: hugeEnv() });
    assert.equal((await ok(client, 'process_list', {})).processes.length, before);
  });
});

describe('process plugin: the concurrency cap', async () => {
  const { gateway, client } = await bootProcess({ maxProcesses: 2 });

  it('refuses a process over maxProcesses with PROCESS_LIMIT_REACHED (429), for start and run alike', async () => {
    const a = await startNode(client, 'setInterval(() => {}, 1000)');
    await startNode(client, 'setInterval(() => {}, 1000)');
    const refused = await fail(client, 'process_start', { command: NODE, args: script('0') });
    assert.equal(refused.code, 'PROCESS_LIMIT_REACHED');
    assert.equal(gateway.errorStatus('PROCESS_LIMIT_REACHED'), 429);
    assert.deepEqual(refused.details, { maxProcesses: 2 });
    assert.equal((await fail(client, 'process_run', { command: NODE, args: script('0') })).code, 'PROCESS_LIMIT_REACHED');

    await ok(client, 'process_stop', { id: a.id });
    const ran = await ok(client, 'process_run', { command: NODE, args: script("console.log('room again')") });
    assert.equal(ran.stdout, 'room again\n');
  });

  it('counts concurrent starts: of five at once, only the free slots succeed', async () => {
    for (const p of (await ok(client, 'process_list', { running_only: true })).processes) await ok(client, 'process_kill', { id: p.id });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(client, 'process_start', { command: NODE, args: script('setInterval(() => {}, 1000)') })),
    );
    assert.equal(results.filter((r) => !r.isError).length, 2);
    assert.ok(results.filter((r) => r.isError).every((r) => r.body.code === 'PROCESS_LIMIT_REACHED'));
    for (const r of results.filter((x) => !x.isError)) await ok(client, 'process_kill', { id: r.body.id });
  });
});

describe('process plugin: shell lines', () => {
  it('refuses shell: true by default (allowShell is off), naming the setting', async () => {
    const { client } = await bootProcess();
    const refusal = await fail(client, 'process_run', { command: 'echo hi | tr a-z A-Z', shell: true });
    assert.equal(refusal.code, 'PROCESS_NOT_ALLOWED');
    assert.match(refusal.message, /allowShell/);
  });
});

describe('process plugin: allow list', async () => {
  const { client, dir } = await bootProcess({ allow: ['node', 'printf *'], allowShell: false });
  writeFileSync(join(dir, 'node'), '#!/bin/sh\necho fake\n', { mode: 0o755 });

  it('runs an allowed command by name, and a whole-line pattern', async () => {
    assert.equal((await ok(client, 'process_run', { command: 'node', args: script("console.log('ok')") })).stdout, 'ok\n');
    assert.equal((await ok(client, 'process_run', { command: 'printf', args: ['x'] })).stdout, 'x');
  });

  const refused: Array<[string, Record<string, unknown>]> = [
    ['a command not in the list', { command: 'echo', args: ['x'] }],
    ['a line that misses the pattern', { command: 'printf' }],
    ['a workspace file named like an allowed command', { command: './node' }],
    ['an allowed name found through a PATH the caller set', { command: 'node', env: { PATH: dir } }],
    ['a shell line when allowShell is false', { command: 'node -e 0', shell: true }],
  ];
  for (const [label, args] of refused) {
    it(`refuses ${label}: PROCESS_NOT_ALLOWED`, async () => {
      assert.equal((await fail(client, 'process_run', args)).code, 'PROCESS_NOT_ALLOWED');
    });
  }
});

describe('process plugin: configuration', () => {
  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an unknown key', { maxProcess: 3 }, /plugins\.process\.config: unknown key "maxProcess"/],
    ['an unknown shutdown mode', { onShutdown: 'never' }, /plugins\.process\.config\.onShutdown: must be one of "stop", "keep"/],
    ['a cap below one', { maxProcesses: 0 }, /plugins\.process\.config\.maxProcesses: must be >= 1/],
  ];
  for (const [label, config, message] of invalid) {
    it(`refuses ${label} with CONFIG_INVALID`, async () => {
      await assert.rejects(bootProcess(config), (err: { code: string; message: string }) => {
        assert.equal(err.code, 'CONFIG_INVALID');
        assert.match(err.message, message);
        return true;
      });
    });
  }
});
