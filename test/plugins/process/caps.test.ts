// Issue 34, item 3: what a caller stores through the process plugin is bounded. The command
// and its args are kept in the process's record and shown in every view and event of it; the
// schema alone (1000 args of 32 KiB) let one call store 32 MiB, and process_list hand back 500
// of those.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootProcess, fail, NODE, ok, script } from './process-helpers.js';

describe('process plugin: the command line cap (maxCommandBytes)', async () => {
  const { gateway, client } = await bootProcess({ maxCommandBytes: 2048 });

  it('refuses args over the cap with PROCESS_COMMAND_TOO_LARGE (413), field, limit and length, and stores nothing', async () => {
    const before = (await ok(client, 'process_list', {})).processes.length;
    const args = ['-e', '0', 'x'.repeat(2048)];
    const refused = await fail(client, 'process_start', { command: NODE, args });
    assert.equal(refused.code, 'PROCESS_COMMAND_TOO_LARGE');
    assert.equal(gateway.errorStatus('PROCESS_COMMAND_TOO_LARGE'), 413);
    const length = Buffer.byteLength(NODE) + args.reduce((sum, a) => sum + 1 + a.length, 0);
    assert.deepEqual(refused.details, { field: 'args', limit: 2048, length });
    assert.match(refused.message, /plugins\.process\.config\.maxCommandBytes/);
    assert.equal((await ok(client, 'process_list', {})).processes.length, before, 'no record of it');
    assert.equal((await fail(client, 'process_run', { command: NODE, args })).code, 'PROCESS_COMMAND_TOO_LARGE');
  });

  it('names the command when it alone is over the cap; counts bytes, not characters', async () => {
    const refused = await fail(client, 'process_run', { command: `./${'é'.repeat(1100)}` });
    assert.equal(refused.code, 'PROCESS_COMMAND_TOO_LARGE');
    assert.equal(refused.details.field, 'command');
    assert.equal(refused.details.length, 2 + 2200);
  });

  it('runs a command line at the cap', async () => {
    const fill = 2048 - Buffer.byteLength(NODE) - ' -e '.length - "process.stdout.write('ok')".length - 1;
    const ran = await ok(client, 'process_run', { command: NODE, args: ['-e', "process.stdout.write('ok')", 'y'.repeat(fill)] });
    assert.equal(ran.exit_code, 0);
    assert.equal(ran.stdout, 'ok');
  });
});

describe('process plugin: the default cap', async () => {
  const { client } = await bootProcess();

  it('is 64 KiB: a run with 60 KiB of args works, 1000 args of 32 KiB are refused', async () => {
    const ran = await ok(client, 'process_run', { command: NODE, args: [...script('0'), 'z'.repeat(30 * 1024), 'z'.repeat(30 * 1024)] });
    assert.equal(ran.exit_code, 0);
    const refused = await fail(client, 'process_start', { command: NODE, args: Array.from({ length: 1000 }, () => 'x'.repeat(32 * 1024)) });
    assert.equal(refused.code, 'PROCESS_COMMAND_TOO_LARGE');
    assert.equal(refused.details.limit, 64 * 1024);
  });
});
