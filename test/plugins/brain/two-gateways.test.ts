import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newApiKey, type TestStore } from '../../../core/testing.js';
import { freePort, spawnGateway, tempDir, writeConfig, type GatewayProcess } from '../../helpers.js';
import { storeMatrix } from '../../support/test-stores.js';
import { brainGateway, processConfig, type BrainGateway } from './brain-helpers.js';

// Two real gateways: A, a binary serving the brain over HTTP with API keys (the team's shared
// brain), and B, whose brain is `backend: remote` pointing at A.

const teamKey = newApiKey();
const filesOnlyKey = newApiKey();
// The keys B reads from its environment (once, when it starts), for the whole file: a suite's
// gateway B may restart after another suite has finished.
const KEYS = { BRAIN_TEST_TEAM_KEY: teamKey.key, BRAIN_TEST_FILES_KEY: filesOnlyKey.key, BRAIN_TEST_WRONG_KEY: 'mgw_not-a-key-of-a' };
Object.assign(process.env, KEYS);
after(() => {
  for (const name of Object.keys(KEYS)) delete process.env[name];
});

/** Gateway A on `port`, its memories in `dir`/data or `store` (the same across restarts). */
function startA(dir: string, port: number, store?: TestStore): GatewayProcess {
  const config = {
    ...processConfig(dir, join(dir, 'data'), { logLevel: 'info', auth: 'key', plugins: { brain: {} } }),
    ...(store ? { dataDir: store.dataDir, storage: store.storage } : {}),
    apiKeys: [
      { name: 'team-b', hash: teamKey.hash, scopes: ['brain_*'] },
      { name: 'files-only', hash: filesOnlyKey.hash, scopes: ['file_*'] },
    ],
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port } },
  };
  return spawnGateway(['serve', '--config', writeConfig(dir, config)]);
}

/** Gateway B, relaying to A with the key in `keyEnv`; the queue and copies in `dataDir`. */
function startB(port: number, keyEnv: string, dataDir = join(tempDir(), 'data'), overrides: Record<string, unknown> = {}): Promise<BrainGateway> {
  const remote = {
    url: `http://127.0.0.1:${port}`,
    apiKeyEnv: keyEnv,
    queueWhenDown: true,
    queueRetryMs: 200,
    retries: 1,
    retryBaseMs: 20,
    retryMaxMs: 100,
    timeoutMs: 3000,
    breaker: { volumeThreshold: 3, errorThresholdPercentage: 50, resetTimeoutMs: 2000 },
    ...overrides,
  };
  return brainGateway({ plugins: { brain: { config: { backend: 'remote', remote } } }, dataDir }, undefined, 'agent-on-b');
}

// A on each storage back end (PostgreSQL skipped, with one line, where it is not installed).
for (const backend of storeMatrix()) {
  describe(`a shared brain on ${backend.name}: gateway B remembers and recalls through gateway A`, { skip: backend.skip }, async () => {
    if (backend.skip) return;
    after(() => backend.close());
    const store = await backend.fresh();
    const dirA = tempDir('mcpgw-brain-a-');
    const port = await freePort();
    let a = startA(dirA, port, store);
    await a.listening(1, 60_000);
    const owner = readFileSync(join(store.dataDir, 'owner.key'), 'utf8').trim();

    /** A tool of A over REST with the owner key. */
    const onA = async (tool: string, args: Record<string, unknown>) => {
      const response = await fetch(`http://127.0.0.1:${port}/tools/${tool}`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: JSON.stringify(args) });
      const body = (await response.json()) as { success: boolean; data: any };
      assert.equal(body.success, true, JSON.stringify(body));
      return body.data;
    };
    const everythingOnA = async () => (await onA('brain_list', { include_forgotten: true, include_superseded: true, include_expired: true, limit: 500 })).memories;

    const bDataDir = join(tempDir(), 'data');
    let b = await startB(port, 'BRAIN_TEST_TEAM_KEY', bDataDir);

    it('remembers on B, recalls on B and on A; on A the agent is the key B uses', async () => {
      const stored = await b.call('brain_remember', { content: 'The shared brain lives on gateway A.', type: 'architecture', tags: ['brain'] });
      assert.equal(stored.queued, false);
      assert.equal(stored.memory.agent_id, 'team-b');
      const onB = await b.call('brain_recall', { query: 'where does the shared brain live' });
      assert.deepEqual(onB.memories.map((m: any) => m.id), [stored.memory.id]);
      assert.equal(onB.partial, undefined);
      const recalledOnA = await onA('brain_recall', { query: 'shared brain gateway' });
      assert.deepEqual(recalledOnA.memories.map((m: any) => [m.id, m.agent_id]), [[stored.memory.id, 'team-b']]);
      const forgotten = await b.call('brain_remember', { content: 'A memory B forgets.', type: 'fact' });
      assert.equal((await b.call('brain_forget', { id: forgotten.memory.id, reason: 'test' })).forgotten, true);
      assert.equal((await b.fail('brain_forget', { id: '00000000-0000-4000-8000-000000000000' })).code, 'BRAIN_MEMORY_NOT_FOUND');
    });

    it("refuses a key whose scopes on A do not allow the brain tools, storing nothing", async () => {
      const scoped = await startB(port, 'BRAIN_TEST_FILES_KEY');
      const refused = await scoped.fail('brain_remember', { content: 'Never stored.', type: 'fact' });
      assert.equal(refused.code, 'BRAIN_REMOTE_REFUSED');
      assert.ok(!(await everythingOnA()).some((m: any) => m.content === 'Never stored.'));
    });

    it('A stopped: B opens its breaker within the threshold and answers BREAKER_OPEN at once; recall answers what B wrote, marked partial', async () => {
      assert.equal(await a.stop(), 0);
      // Each call is two attempts (retries: 1). The breaker opens when half the attempts in its
      // 10 s window failed, the successes of the tests above included: within a few calls.
      const codes: string[] = [];
      for (let i = 0; i < 8 && codes.at(-1) !== 'BREAKER_OPEN'; i++) codes.push((await b.fail('brain_forget', { id: '00000000-0000-4000-8000-000000000001' })).code);
      assert.equal(codes.at(-1), 'BREAKER_OPEN', codes.join(', '));
      assert.ok(codes.length <= 6, `opened after ${codes.length - 1} failed calls: ${codes.join(', ')}`);
      assert.ok(codes.slice(0, -1).every((code) => code === 'BRAIN_REMOTE_FAILED'), codes.join(', '));
      const recall = await b.call('brain_recall', { query: 'shared brain' });
      assert.match(recall.partial, /the remote brain is down \(BREAKER_OPEN\)/);
      assert.equal(recall.memories[0].content, 'The shared brain lives on gateway A.');
      const status = await b.call('gateway_status', {});
      assert.equal(status.breakers.find((x: any) => x.name === 'brain:remote')?.state, 'open', JSON.stringify(status.breakers));
      assert.equal(status.plugins.find((p: any) => p.name === 'brain')?.status?.ok, false);
    });

    it('with the queue on: three remembers while A is down arrive once each, in order, after B and then A restart', async () => {
      const contents = ['Queued first.', 'Queued second.', 'Queued third.'];
      for (const content of contents) {
        const result = await b.call('brain_remember', { content, type: 'observation' });
        assert.equal(result.queued, true);
      }
      // B restarts while A is still down: the queue is on disk.
      await b.gateway.close();
      b = await startB(port, 'BRAIN_TEST_TEAM_KEY', bDataDir);
      a = startA(dirA, port, store);
      await a.listening(1, 60_000);
      let arrived: any[] = [];
      for (let i = 0; i < 100; i++) {
        arrived = (await everythingOnA()).filter((m: any) => contents.includes(m.content));
        if (arrived.length >= 3) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const state = (await b.call('gateway_status', {})).plugins.find((p: any) => p.name === 'brain').status;
      assert.deepEqual(arrived.map((m: any) => m.content).sort(), [...contents].sort(), `each arrived exactly once (B: ${JSON.stringify(state)})`);
      const oldestFirst = [...arrived].sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : 0));
      assert.deepEqual(oldestFirst.map((m: any) => m.content), contents, 'in the order they were made');
      const sentNow = await b.call('brain_remember', { content: 'Sent at once again.', type: 'observation' });
      assert.equal(sentNow.queued, false);
    });
  });
}

describe('the offline queue at its edges', async () => {
  const dirA = tempDir('mcpgw-brain-a-');
  const port = await freePort();
  const b = await startB(port, 'BRAIN_TEST_TEAM_KEY', undefined, { queueLimit: 4 });
  const wrongKey = await startB(port, 'BRAIN_TEST_WRONG_KEY');
  const noCopies = await startB(port, 'BRAIN_TEST_TEAM_KEY', undefined, { keepWritten: 0 });
  const queue = async (gateway: BrainGateway) => (await gateway.call('gateway_status', {})).plugins.find((p: any) => p.name === 'brain').status.detail.queue;

  it('while A is down: a queued id again is a duplicate, other content a conflict, a forgotten one never leaves, the limit holds', async () => {
    const id = '22222222-2222-4222-8222-222222222222';
    const first = await b.call('brain_remember', { content: 'Waits for A.', type: 'fact', id });
    assert.deepEqual([first.queued, first.duplicate], [true, false]);
    const again = await b.call('brain_remember', { content: 'Waits for A.', type: 'fact', id });
    assert.deepEqual([again.queued, again.duplicate, again.memory.id, again.memory.created_at], [true, true, id, first.memory.created_at]);
    assert.equal((await b.fail('brain_remember', { content: 'Something else.', type: 'fact', id })).code, 'BRAIN_ID_CONFLICT');
    const forgotten = await b.call('brain_remember', { content: 'Forgotten before it left.', type: 'fact' });
    assert.equal((await b.call('brain_forget', { id: forgotten.memory.id })).forgotten, true);
    await b.call('brain_remember', { content: 'Supersedes a memory A never had.', type: 'fact', supersedes: '33333333-3333-4333-8333-333333333333' });
    await b.call('brain_remember', { content: 'Expires before A is back.', type: 'fact', expires_in: 1 });
    await b.call('brain_remember', { content: 'Last one that fits.', type: 'fact' });
    assert.equal((await b.fail('brain_remember', { content: 'One too many.', type: 'fact' })).code, 'BRAIN_QUEUE_FULL');
    assert.equal((await queue(b)).length, 4);
    // Without copies, recall has nothing to answer from while A is down.
    assert.match((await noCopies.fail('brain_recall', { query: 'anything' })).code, /^(BRAIN_REMOTE_FAILED|BREAKER_OPEN)$/);
    // A remote that refuses the key is not "down": the memory is not queued.
    await wrongKey.call('brain_remember', { content: 'Queued under a key A refuses.', type: 'fact' }).catch(() => undefined);
  });

  it('when A is back: the queue goes out, a refused memory is dropped and counted, an expired one is not sent; a refused key holds it', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const a = startA(dirA, port);
    await a.listening(1, 60_000);
    let state: any;
    for (let i = 0; i < 100; i++) {
      state = await queue(b);
      if (state.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(state.length, 0);
    assert.deepEqual([state.sent, state.refused, state.expired], [2, 1, 1]);
    assert.match(state.lastRefusal, /^BRAIN_MEMORY_NOT_FOUND: /);
    const owner = readFileSync(join(dirA, 'data', 'owner.key'), 'utf8').trim();
    const response = await fetch(`http://127.0.0.1:${port}/tools/brain_list`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ include_forgotten: true, include_expired: true }) });
    const onA = ((await response.json()) as { data: { memories: Array<{ content: string }> } }).data.memories.map((m) => m.content).sort();
    assert.deepEqual(onA, ['Last one that fits.', 'Waits for A.']);

    // (In this test, not the next: A lives as long as the test that started it.)
    // A key A refuses stops the queue without losing it, and the status says why.
    for (let i = 0; i < 100; i++) {
      state = await queue(wrongKey);
      if (state.stuck) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(state.length, 1, 'the memory stays in the queue');
    assert.match(state.stuck, /^BRAIN_REMOTE_REFUSED: /);
    assert.equal(state.refused, 0);
  });
});
