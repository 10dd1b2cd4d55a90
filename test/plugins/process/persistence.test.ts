import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/client';
import { tempDir } from '../../helpers.js';
import {
  bootProcess,
  fail,
  grandchildOf,
  IGNORES_SIGTERM,
  isGone,
  NODE,
  ok,
  script,
  startNode,
  track,
  waitFor,
  waitForOutput,
  WITH_GRANDCHILD,
} from './process-helpers.js';

const LONG = "console.log('serving'); setInterval(() => {}, 1000);";

/** Rows as the database has them, read with a connection of the test's own. */
function rows(dir: string): Map<string, { status: string; signal: string | null; exit_code: number | null }> {
  const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'), { readonly: true });
  try {
    const all = db.prepare('SELECT seq, status, signal, exit_code FROM process_processes').all() as Array<{
      seq: number;
      status: string;
      signal: string | null;
      exit_code: number | null;
    }>;
    return new Map(all.map((r) => [`proc-${r.seq}`, r]));
  } finally {
    db.close();
  }
}

function editRow(dir: string, id: string, sql: string): void {
  const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'));
  try {
    db.prepare(`UPDATE process_processes SET ${sql} WHERE seq = ?`).run(Number(id.slice('proc-'.length)));
  } finally {
    db.close();
  }
}

async function listed(client: Client): Promise<Map<string, any>> {
  const { processes } = await ok(client, 'process_list', {});
  return new Map(processes.map((p: { id: string }) => [p.id, p]));
}

/** Starts a process_run that never ends by itself; resolves once it runs, with its pid. */
async function runInFlight(client: Client, gateway: { events: { subscribe: Function } }): Promise<number> {
  let pid = 0;
  (gateway.events.subscribe as (p: string, h: (e: { data: { kind: string; pid: number } }) => void) => void)('process.start', (e) => {
    if (e.data.kind === 'run') pid = track(e.data.pid);
  });
  void client
    .callTool({ name: 'process_run', arguments: { command: NODE, args: script('setInterval(() => {}, 1000)'), timeout_ms: 60_000 } })
    .catch(() => {});
  await waitFor(() => pid > 0, 'the run to start');
  return pid;
}

describe('process plugin: gateway restarts', () => {
  it('keeps the list across a restart and adopts a process left running (onShutdown: keep)', async () => {
    const dir = tempDir('mcpgw-process-');
    const first = await bootProcess({ onShutdown: 'keep' }, dir);
    const server = await startNode(first.client, LONG, { tags: { role: 'server' }, ports: [5555] });
    await waitForOutput(first.client, server.id, /serving/);
    const done = await startNode(first.client, "console.log('done')");
    await waitFor(async () => (await listed(first.client)).get(done.id).status === 'exited', 'the short one to exit');
    await first.gateway.close();
    assert.equal(isGone(server.pid), false, 'onShutdown: keep left it running');

    const second = await bootProcess({}, dir);
    const after = await listed(second.client);
    assert.equal(after.get(server.id).status, 'running');
    assert.equal(after.get(server.id).pid, server.pid);
    assert.deepEqual(after.get(server.id).tags, { role: 'server' });
    assert.deepEqual(after.get(server.id).ports, [5555]);
    assert.equal(after.get(done.id).status, 'exited');
    assert.equal(after.get(done.id).exit_code, 0);
    assert.deepEqual([...after.keys()], [done.id, server.id], 'newest first');
    assert.equal((await ok(second.client, 'process_output', { id: server.id, stream: 'stdout' })).text, 'serving\n');
    assert.equal((await fail(second.client, 'process_input', { id: server.id, input: 'x' })).code, 'PROCESS_STDIN_CLOSED');

    const stopped = await ok(second.client, 'process_stop', { id: server.id, grace_ms: 2000 });
    assert.equal(stopped.status, 'killed');
    assert.equal(stopped.signal, 'SIGTERM');
    assert.ok(isGone(server.pid));
  });

  it('marks a process that ended unseen as unknown, and notices an adopted one ending', async () => {
    const dir = tempDir('mcpgw-process-');
    const first = await bootProcess({ onShutdown: 'keep' }, dir);
    const gone = await startNode(first.client, LONG);
    const kept = await startNode(first.client, LONG);
    await first.gateway.close();
    process.kill(-gone.pid, 'SIGKILL');
    await waitFor(() => isGone(gone.pid), 'the first to die');

    const second = await bootProcess({ pollIntervalMs: 50 }, dir);
    const after = await listed(second.client);
    assert.equal(after.get(gone.id).status, 'unknown');
    assert.equal(after.get(gone.id).exit_code, null);
    assert.equal(after.get(kept.id).status, 'running');
    process.kill(kept.pid, 'SIGTERM');
    await waitFor(async () => (await listed(second.client)).get(kept.id).status === 'unknown', 'the adopted exit to be noticed');
  });

  it('does not take a reused pid for its process, and kills a process_run child a crashed gateway left', async () => {
    const dir = tempDir('mcpgw-process-');
    const first = await bootProcess({ onShutdown: 'keep' }, dir);
    const reused = await startNode(first.client, LONG);
    const orphanRun = await startNode(first.client, LONG);
    await first.gateway.close();
    // As if the pid now belonged to a process started at another time, and as if the second
    // had been a process_run child when its gateway died.
    editRow(dir, reused.id, "start_ticks = '1'");
    editRow(dir, orphanRun.id, "kind = 'run'");

    const second = await bootProcess({}, dir);
    const row = await ok(second.client, 'process_output', { id: reused.id, stream: 'stdout' });
    assert.equal(row.status, 'unknown');
    assert.equal((await fail(second.client, 'process_stop', { id: reused.id })).code, 'PROCESS_EXITED');
    await waitFor(() => isGone(orphanRun.pid), 'the orphaned run to be killed');
    assert.equal(rows(dir).get(orphanRun.id)!.status, 'killed');
    await second.gateway.close();
    assert.equal(isGone(reused.pid), false, 'a process that is not ours is never signalled');
    process.kill(-reused.pid, 'SIGKILL');
  });
});

describe('process plugin: shutdown', () => {
  it('stops every process at shutdown (onShutdown: stop), grandchildren and SIGTERM-ignorers included', async () => {
    const dir = tempDir('mcpgw-process-');
    const { gateway, client } = await bootProcess({ shutdownGraceMs: 300 }, dir);
    const plain = await startNode(client, LONG);
    const stubborn = await startNode(client, IGNORES_SIGTERM);
    await waitForOutput(client, stubborn.id, /ready/);
    const parent = await startNode(client, WITH_GRANDCHILD);
    const grandchild = await grandchildOf(client, parent.id);
    const run = await runInFlight(client, gateway);

    await gateway.close();
    for (const [what, pid] of Object.entries({ plain: plain.pid, stubborn: stubborn.pid, parent: parent.pid, grandchild, run })) {
      assert.ok(isGone(pid), `${what} (pid ${pid}) is gone after close()`);
    }
    const recorded = rows(dir);
    assert.deepEqual(recorded.get(plain.id), { seq: Number(plain.id.slice(5)), status: 'killed', signal: 'SIGTERM', exit_code: null });
    assert.equal(recorded.get(stubborn.id)!.signal, 'SIGKILL');
    assert.equal(recorded.get(parent.id)!.status, 'killed');
    assert.ok([...recorded.values()].every((r) => r.status !== 'running'), 'nothing is left marked running');
  });

  it('with onShutdown: keep, leaves started processes running but still kills process_run children', async () => {
    const dir = tempDir('mcpgw-process-');
    const { gateway, client } = await bootProcess({ onShutdown: 'keep' }, dir);
    const kept = await startNode(client, LONG);
    const run = await runInFlight(client, gateway);
    await gateway.close();
    assert.ok(isGone(run), 'the run is gone');
    assert.equal(isGone(kept.pid), false, 'the started process still runs');
    assert.equal(rows(dir).get(kept.id)!.status, 'running');
    process.kill(-kept.pid, 'SIGKILL');
  });
});
