import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, tempDir, writeConfig } from '../../helpers.js';
import { bootProcess, ECHO_REGISTRY, isGone, NODE, ok, script, track, waitFor, waitForOutput } from './process-helpers.js';

/** A leader that starts a worker in its group, prints the worker's pid and exits, leaving it. */
const leaderLeaving = (workerIgnoresSigterm: boolean): string => `
  const { spawn } = require('node:child_process');
  const body = ${JSON.stringify(workerIgnoresSigterm ? "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" : 'setInterval(() => {}, 1000)')};
  const worker = spawn(process.execPath, ['-e', body], { stdio: 'ignore' });
  worker.unref();
  console.log('worker ' + worker.pid);`;

/** Starts a leader that leaves a worker behind; resolves with the worker's pid once the leader's exit is recorded. */
async function startLeaving(client: Client, ignoresSigterm = false): Promise<{ id: string; worker: number }> {
  const view = await ok(client, 'process_start', { command: NODE, args: script(leaderLeaving(ignoresSigterm)) });
  track(view.pid);
  const text = await waitForOutput(client, view.id, /worker \d+/);
  const worker = track(Number(/worker (\d+)/.exec(text)![1]));
  await waitFor(async () => {
    const { processes } = await ok(client, 'process_list', {});
    const row = processes.find((p: { id: string }) => p.id === view.id);
    return row.status !== 'running' && row.lingering_pids.includes(worker);
  }, `${view.id}'s leader to exit with its worker recorded`);
  return { id: view.id, worker };
}

async function binaryClient(config: string): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({ command: NODE, args: [BIN, '--stdio', '--config', config], stderr: 'ignore' });
  const client = new Client({ name: 'orphan-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

describe('process plugin: groups that outlive their leader', () => {
  it('stops, after the gateway was SIGKILLed and restarted, the workers of 10 groups whose leaders had exited (onShutdown: stop)', async () => {
    const dir = tempDir('mcpgw-orphans-');
    const config = writeConfig(
      dir,
      {
        dataDir: join(dir, 'data'),
        auth: 'none',
        workspace: dir,
        logLevel: 'silent',
        registries: [ECHO_REGISTRY],
        plugins: { echo: {}, process: { config: { onShutdown: 'stop', shutdownGraceMs: 300 } } },
        transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
      },
    );
    const first = await binaryClient(config);
    const workers: number[] = [];
    for (let i = 0; i < 10; i++) workers.push((await startLeaving(first.client, i % 2 === 1)).worker);
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => isGone(first.pid), 'the gateway to die');
    await first.client.close().catch(() => {});
    assert.deepEqual(workers.filter(isGone), [], 'no worker died with the gateway');

    const second = await binaryClient(config);
    try {
      await waitFor(() => workers.every(isGone), 'every worker to be stopped', 15_000);
      await waitFor(async () => {
        const { processes } = await ok(second.client, 'process_list', {});
        return processes.every((p: { lingering_pids: number[] }) => p.lingering_pids.length === 0);
      }, 'the records to say that nothing lingers');
    } finally {
      await second.client.close();
    }
  });

  it('leaves them with onShutdown: keep, listed, and never signals a group whose recorded members are gone (a reused id)', async () => {
    const dir = tempDir('mcpgw-orphans-');
    const first = await bootProcess({ onShutdown: 'keep' }, dir);
    const { id, worker } = await startLeaving(first.client);
    await first.gateway.close();

    const kept = await bootProcess({ onShutdown: 'keep' }, dir);
    const view = await ok(kept.client, 'process_list', {});
    assert.deepEqual(view.processes.find((p: { id: string }) => p.id === id).lingering_pids, [worker]);
    await kept.gateway.close();
    assert.equal(isGone(worker), false, 'keep leaves the worker running');

    // What a reused group id looks like: none of the recorded members (pid + start time) is there.
    const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'));
    db.prepare('UPDATE process_processes SET lingering = ? WHERE seq = ?').run(JSON.stringify([[worker, '1']]), Number(id.slice(5)));
    db.close();
    const stopping = await bootProcess({ onShutdown: 'stop' }, dir);
    const after = await ok(stopping.client, 'process_list', {});
    await stopping.gateway.close();
    assert.equal(isGone(worker), false, 'a group not proven ours is not signalled');
    assert.deepEqual(after.processes.find((p: { id: string }) => p.id === id).lingering_pids, []);
    // Left running on purpose so far; track()'s cleanup belongs to the first test that called it.
    process.kill(worker, 'SIGKILL');
  });
});
