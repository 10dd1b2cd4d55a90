import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { storeMatrix } from '../../support/test-stores.js';
import { brainGateway as bootOn } from './brain-helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Every case on SQLite and on PostgreSQL (skipped, with one line, where it is not installed).
for (const backend of storeMatrix()) {
  describe(`brain, local back end on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.close());
    const brainGateway = async (overrides: Record<string, unknown> = {}) => bootOn(overrides, await backend.fresh());

    it('remembers, recalls by words and lists newest first, the caller as the agent', async () => {
      const b = await brainGateway();
      const first = await b.call('brain_remember', { content: 'Tests run with node scripts/run-tests.js, never with npx jest.', type: 'procedure', tags: ['tests'], org: 'acme', project: 'gateway' });
      assert.match(first.memory.id, /^[0-9a-f-]{36}$/);
      assert.equal(first.memory.agent_id, 'test-client');
      assert.equal(first.memory.confidence, 0.8);
      assert.equal(first.duplicate, false);
      assert.equal(first.queued, false);
      await b.call('brain_remember', { content: 'The release branch is cut on Thursdays.', type: 'convention', org: 'acme' });
      const recalled = await b.call('brain_recall', { query: 'how do I run the tests' });
      assert.equal(recalled.mode, 'lexical');
      assert.equal(recalled.degraded, undefined);
      assert.equal(recalled.memories[0].id, first.memory.id);
      assert.ok(recalled.memories[0].score > 0 && recalled.memories[0].score <= 1);
      assert.equal(recalled.count, recalled.memories.length);
      const listed = await b.call('brain_list', {});
      assert.deepEqual(listed.memories.map((m: any) => m.type), ['convention', 'procedure']);
      assert.equal(listed.next_cursor, undefined);
    });

    it('filters by org, project, type, types, agent, tags and confidence', async () => {
      const b = await brainGateway();
      await b.call('brain_remember', { content: 'Deploys go through the blue green switch.', type: 'procedure', org: 'acme', project: 'web', tags: ['deploy'], confidence: 0.9 });
      await b.call('brain_remember', { content: 'Deploys of the api need a migration window.', type: 'decision', org: 'acme', project: 'api', tags: ['deploy', 'db'], confidence: 0.4 });
      await b.call('brain_remember', { content: 'Deploys at globex are manual.', type: 'fact', org: 'globex' });
      const contents = (r: any) => r.memories.map((m: any) => m.content).sort();
      assert.equal((await b.call('brain_recall', { query: 'deploys', org: 'acme' })).count, 2);
      assert.deepEqual(contents(await b.call('brain_recall', { query: 'deploys', project: 'api' })), ['Deploys of the api need a migration window.']);
      assert.equal((await b.call('brain_recall', { query: 'deploys', type: 'fact' })).count, 1);
      assert.equal((await b.call('brain_recall', { query: 'deploys', types: ['fact', 'decision'] })).count, 2);
      assert.equal((await b.call('brain_recall', { query: 'deploys', type: 'fact', types: ['procedure'] })).count, 2);
      assert.equal((await b.call('brain_recall', { query: 'deploys', min_confidence: 0.85 })).count, 1);
      assert.equal((await b.call('brain_recall', { query: 'deploys', tags: ['deploy', 'db'] })).count, 1);
      assert.equal((await b.call('brain_recall', { query: 'deploys', agent_id: 'someone-else' })).count, 0);
      assert.equal((await b.call('brain_list', { tags: ['deploy'] })).count, 2);
      assert.equal((await b.call('brain_list', { org: 'acme', min_confidence: 0.5 })).count, 1);
    });

    it('supersedes: the old memory leaves recall and list unless asked, and points at the new one', async () => {
      const b = await brainGateway();
      const old = await b.call('brain_remember', { content: 'The staging database is on port 5433.', type: 'fact' });
      const fresh = await b.call('brain_remember', { content: 'The staging database moved to port 6543.', type: 'fact', supersedes: old.memory.id });
      assert.equal(fresh.memory.supersedes_id, old.memory.id);
      const recalled = await b.call('brain_recall', { query: 'staging database port' });
      assert.deepEqual(recalled.memories.map((m: any) => m.id), [fresh.memory.id]);
      const all = await b.call('brain_recall', { query: 'staging database port', include_superseded: true });
      assert.equal(all.count, 2);
      assert.equal(all.memories.find((m: any) => m.id === old.memory.id).superseded_by, fresh.memory.id);
      assert.equal((await b.call('brain_list', {})).count, 1);
      assert.equal((await b.call('brain_list', { include_superseded: true })).count, 2);
      const missing = await b.fail('brain_remember', { content: 'x', type: 'fact', supersedes: randomUUID() });
      assert.equal(missing.code, 'BRAIN_MEMORY_NOT_FOUND');
    });

    it('expiry: an expired memory is left out unless include_expired', async () => {
      const b = await brainGateway();
      await b.call('brain_remember', { content: 'The build cache is warm until the next release.', type: 'context', expires_in: 1 });
      await b.call('brain_remember', { content: 'The build cache lives in .cache/build.', type: 'fact' });
      assert.equal((await b.call('brain_recall', { query: 'build cache' })).count, 2);
      await sleep(1100);
      const recalled = await b.call('brain_recall', { query: 'build cache' });
      assert.deepEqual(recalled.memories.map((m: any) => m.content), ['The build cache lives in .cache/build.']);
      assert.equal((await b.call('brain_recall', { query: 'build cache', include_expired: true })).count, 2);
      assert.equal((await b.call('brain_list', {})).count, 1);
      assert.equal((await b.call('brain_list', { include_expired: true })).count, 2);
    });

    it('forget: a tombstone without content, never recalled, listed only when asked; twice is not an error', async () => {
      const b = await brainGateway();
      const kept = await b.call('brain_remember', { content: 'The api key rotates monthly.', type: 'fact', tags: ['secrets'] });
      const forgotten = await b.call('brain_forget', { id: kept.memory.id, reason: 'wrong: it rotates weekly' });
      assert.equal(forgotten.forgotten, true);
      assert.equal((await b.call('brain_recall', { query: 'api key rotates' })).count, 0);
      assert.equal((await b.call('brain_list', {})).count, 0);
      const tombstones = await b.call('brain_list', { include_forgotten: true });
      assert.equal(tombstones.memories[0].content, '');
      assert.deepEqual(tombstones.memories[0].tags, []);
      assert.equal(tombstones.memories[0].forget_reason, 'wrong: it rotates weekly');
      const again = await b.call('brain_forget', { id: kept.memory.id });
      assert.deepEqual(again, { id: kept.memory.id, forgotten: false, forgotten_at: forgotten.forgotten_at });
      assert.equal((await b.fail('brain_forget', { id: randomUUID() })).code, 'BRAIN_MEMORY_NOT_FOUND');
      // A forgotten memory cannot be superseded, and its id cannot be reused.
      assert.equal((await b.fail('brain_remember', { content: 'x', type: 'fact', supersedes: kept.memory.id })).code, 'BRAIN_MEMORY_NOT_FOUND');
      assert.equal((await b.fail('brain_remember', { content: 'The api key rotates monthly.', type: 'fact', id: kept.memory.id })).code, 'BRAIN_ID_CONFLICT');
    });

    it('an id given twice stores once: the same content is a duplicate, other content a conflict', async () => {
      const b = await brainGateway();
      const id = randomUUID();
      const args = { content: 'Retries use full jitter.', type: 'pattern', id };
      const [one, two] = await Promise.all([b.call('brain_remember', args), b.call('brain_remember', args)]);
      assert.deepEqual([one.duplicate, two.duplicate].sort(), [false, true]);
      assert.equal(one.memory.id, id);
      assert.equal((await b.call('brain_list', {})).count, 1);
      assert.equal((await b.fail('brain_remember', { ...args, content: 'Something else.' })).code, 'BRAIN_ID_CONFLICT');
    });

    it('two gateways on one store: an id remembered on both at once is stored once, and each recalls what the other wrote', async () => {
      const store = await backend.fresh();
      const [one, two] = await Promise.all([bootOn({}, store, 'one'), bootOn({}, store, 'two')]);
      for (let i = 0; i < 10; i++) {
        const args = { content: `Written on both at once, round ${i}.`, type: 'fact', id: randomUUID() };
        const answers = await Promise.all([one.call('brain_remember', args), two.call('brain_remember', args)]);
        assert.deepEqual(answers.map((a) => a.duplicate).sort(), [false, true]);
      }
      assert.equal((await one.call('brain_list', { limit: 100 })).count, 10);
      const fromTwo = await two.call('brain_remember', { content: 'Only the second gateway wrote this.', type: 'fact' });
      assert.deepEqual((await one.call('brain_recall', { query: 'second gateway' })).memories.map((m: any) => m.id), [fromTwo.memory.id]);
    });

    it('pages with a cursor, newest first, without gaps or repeats', async () => {
      const b = await brainGateway();
      for (let i = 0; i < 7; i++) await b.call('brain_remember', { content: `Memory number ${i}.`, type: 'observation' });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await b.call('brain_list', { limit: 3, ...(cursor ? { cursor } : {}) });
        seen.push(...page.memories.map((m: any) => m.content));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, [6, 5, 4, 3, 2, 1, 0].map((i) => `Memory number ${i}.`));
      const oldestFirst: string[] = [];
      cursor = undefined;
      do {
        const page = await b.call('brain_list', { limit: 3, order: 'oldest', ...(cursor ? { cursor } : {}) });
        oldestFirst.push(...page.memories.map((m: any) => m.content));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(oldestFirst, [...seen].reverse());
      assert.equal((await b.fail('brain_list', { cursor: 'not-a-cursor' })).code, 'INVALID_ARGUMENTS');
    });

    it('refuses bad input with stable codes, storing nothing', async () => {
      const b = await brainGateway({ plugins: { brain: { config: { maxContentBytes: 100 } } } });
      const big = await b.fail('brain_remember', { content: 'é'.repeat(51), type: 'fact' });
      assert.equal(big.code, 'BRAIN_CONTENT_TOO_LARGE');
      assert.deepEqual(big.details, { field: 'content', limit: 100, length: 102 });
      assert.equal((await b.fail('brain_remember', { content: 'x', type: 'rumour' })).code, 'INVALID_ARGUMENTS');
      assert.equal((await b.fail('brain_remember', { content: 'x', type: 'fact', org: 'o'.repeat(129) })).code, 'INVALID_ARGUMENTS');
      assert.equal((await b.fail('brain_remember', { content: 'x', type: 'fact', confidence: 1.5 })).code, 'INVALID_ARGUMENTS');
      assert.equal((await b.fail('brain_forget', { id: '../../etc/passwd' })).code, 'INVALID_ARGUMENTS');
      assert.equal((await b.call('brain_list', { include_forgotten: true, include_expired: true, include_superseded: true })).count, 0);
    });
  });
}
