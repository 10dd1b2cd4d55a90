import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tempDir, writeConfig } from '../../helpers.js';
import { ROOT } from '../../support/repository.js';
import { isGone, NODE, track, waitFor } from './process-helpers.js';

// The gateway's own stdout carries JSON-RPC: children must never write to it. This boots the
// real CLI over stdio and lets children print a lot.
describe('process plugin over stdio', () => {
  it('keeps every child line off the gateway stdout, and stops its children when stdin ends', async () => {
    const dir = tempDir('mcpgw-process-stdio-');
    const config = writeConfig(dir, {
      dataDir: join(dir, 'data'),
      workspace: dir,
      logLevel: 'silent',
      plugins: { process: { config: { allowShell: true } } },
      transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
    });
    const entry = join(dir, 'gateway.mjs');
    writeFileSync(entry, `import { run } from ${JSON.stringify(import.meta.resolve('../../../core/cli/cli.js'))};\nrun();\n`);
    const gateway = spawn(NODE, [entry, '--stdio', '--config', config], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    after(() => {
      if (gateway.exitCode === null) gateway.kill('SIGKILL');
    });
    let stdout = '';
    gateway.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    gateway.stderr.resume();
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', resolve));

    const noisy = "console.log('CHILD STDOUT'); console.error('CHILD STDERR'); setInterval(() => console.log('tick'), 20);";
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'process_start', arguments: { command: NODE, args: ['-e', noisy] } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'process_run', arguments: { command: 'echo RUN STDOUT; echo RUN STDERR >&2', shell: true } } },
    ];
    for (const m of messages) gateway.stdin.write(`${JSON.stringify(m)}\n`);
    const lines = () => stdout.split('\n').filter(Boolean);
    await waitFor(() => lines().length >= 3, 'three answers', 30_000);
    const started = JSON.parse(lines().find((l) => JSON.parse(l).id === 2)!);
    const view = JSON.parse(started.result.content[0].text);
    track(view.pid);
    // Ask for its output through the protocol until it has printed a tick or two.
    const answer = (id: number) => lines().map((l) => JSON.parse(l)).find((m) => m.id === id);
    let output: { text: string } = { text: '' };
    for (let id = 4; !output.text.includes('tick'); id++) {
      assert.ok(id < 200, 'the child printed nothing');
      const request = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'process_output', arguments: { id: view.id, stream: 'stdout', tail_lines: 1 } } };
      gateway.stdin.write(`${JSON.stringify(request)}\n`);
      await waitFor(() => answer(id) !== undefined, 'the output answer', 10_000);
      output = JSON.parse(answer(id).result.content[0].text);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(output.text, 'tick\n');
    gateway.stdin.end();
    assert.equal(await exited, 0);

    for (const line of lines()) {
      const message = JSON.parse(line);
      assert.equal(message.jsonrpc, '2.0', line);
    }
    assert.ok(!lines().some((line) => /^(CHILD STD(OUT|ERR)|tick|RUN STD(OUT|ERR))$/.test(line)), 'no raw child line');
    assert.ok(isGone(view.pid), 'onShutdown: stop ended the child with the gateway');
  });
});
