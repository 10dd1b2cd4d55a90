import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Memory } from '../../../plugins/brain/model.js';
import { waitFor } from '../../helpers.js';
import { CALL, failure, KEY, KEY_ENV, remoteBrain, remoteConfig, startOpenBrainServer, type OpenBrainServer } from './remote-helpers.js';

type T = { after(fn: () => unknown): void };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REMEMBER = { content: 'Deploys go out on Tuesdays.', type: 'convention', tags: ['deploy'], confidence: 0.9, org: 'acme', project: 'shop' } as const;
const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();

describe('brain remote back end: OpenBrain', () => {
  let server: OpenBrainServer;
  before(async () => {
    server = await startOpenBrainServer({ apiKey: KEY });
  });
  afterEach(() => {
    server.mode = 'ok';
    server.dropAnswers = 0;
    server.requests.length = 0;
    server.memories.clear();
  });
  after(() => server.close());

  const openbrain = (t: T, more: Record<string, unknown> = {}, options: Parameters<typeof remoteBrain>[2] = {}) =>
    remoteBrain(t, remoteConfig(server.url, { protocol: 'openbrain', ...more }), options);

  it('remember: POST /v1/brain/remember with the agent, an Idempotency-Key and the key', async (t) => {
    const { brain } = openbrain(t);
    assert.equal(brain.kind, 'openbrain');
    const { memory, duplicate, queued } = await brain.remember({ ...REMEMBER, expires_in: 3600 }, CALL);
    const [sent] = server.requests;
    assert.equal(sent!.path, '/v1/brain/remember');
    assert.equal(sent!.authorization, `Bearer ${KEY}`);
    assert.match(sent!.idempotencyKey!, UUID);
    assert.deepEqual(sent!.body, { ...REMEMBER, agent_id: CALL.agent, expires_in: 3600 });
    assert.deepEqual([duplicate, queued], [false, false]);
    const stored = server.memories.get(memory.id)!;
    assert.equal(stored.content, REMEMBER.content);
    assert.deepEqual({ ...memory, created_at: '', updated_at: '', expires_at: '' }, {
      id: stored.id,
      agent_id: CALL.agent,
      type: 'convention',
      content: REMEMBER.content,
      tags: ['deploy'],
      org: 'acme',
      project: 'shop',
      confidence: 0.9,
      supersedes_id: null,
      superseded_by: null,
      expires_at: '',
      created_at: '',
      updated_at: '',
      forgotten_at: null,
      forget_reason: null,
    });
    assert.ok(Date.parse(memory.expires_at!) - Date.parse(memory.created_at) === 3_600_000);
  });

  it('remember: remote.agentId, when set, is the agent of every memory', async (t) => {
    const { brain } = openbrain(t, { agentId: 'cladius' });
    assert.equal((await brain.remember({ ...REMEMBER }, CALL)).memory.agent_id, 'cladius');
    assert.equal(server.requests[0]!.body.agent_id, 'cladius');
  });

  it('remember: a retry after a lost answer carries the same Idempotency-Key and stores once', async (t) => {
    const { brain } = openbrain(t);
    server.dropAnswers = 1;
    const result = await brain.remember({ ...REMEMBER }, CALL);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0]!.idempotencyKey, server.requests[1]!.idempotencyKey);
    assert.equal(server.memories.size, 1);
    assert.equal(result.duplicate, true);
    assert.ok(server.memories.has(result.memory.id));
  });

  it('remember: supersedes a memory OpenBrain does not have → BRAIN_MEMORY_NOT_FOUND', async (t) => {
    const { brain } = openbrain(t);
    const missing = '5f0e6b1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
    const err = await failure(brain.remember({ ...REMEMBER, supersedes: missing }, CALL));
    assert.equal(err.code, 'BRAIN_MEMORY_NOT_FOUND');
    assert.match(err.message, new RegExp(`^The remote brain: no memory has the id ${missing}`));
  });

  it('recall: POST /v1/brain/recall; score kept, confidence only from score when OpenBrain has none; source as a tag', async (t) => {
    const { brain } = openbrain(t);
    const sure = server.seed({ content: 'deploys on tuesday mornings', type: 'convention', confidence: 0.3, source: 'brain-seed', created_at: '2026-03-01 10:00:00', updated_at: null });
    const unsure = server.seed({ content: 'deploys need two approvals', type: 'procedure', confidence: null });
    const recalled = await brain.recall({ query: 'deploys tuesday', top_k: 5, mode: 'auto', org: 'acme', types: ['convention', 'procedure'], min_confidence: 0.2 }, CALL);
    assert.deepEqual(server.requests[0]!.body, { query: 'deploys tuesday', top_k: 5, org: 'acme', min_confidence: 0.2, type: ['convention', 'procedure'] });
    assert.equal(recalled.memories.length, 0, 'org acme: the seeded memories have no org');

    const all = await brain.recall({ query: 'deploys tuesday', top_k: 5, mode: 'auto' }, CALL);
    assert.equal(all.mode, 'vector');
    assert.equal(all.degraded, undefined);
    assert.deepEqual(all.memories.map((m) => [m.id, m.score, m.confidence]), [[sure.id, 1, 0.3], [unsure.id, 0.5, 0.5]]);
    assert.deepEqual(all.memories[0]!.tags, ['source:brain-seed']);
    assert.equal(all.memories[0]!.created_at, '2026-03-01T10:00:00.000Z');
    assert.equal(all.memories[0]!.updated_at, '2026-03-01T10:00:00.000Z');
    assert.equal(all.memories[0]!.agent_id, 'seeded');

    const lexical = await brain.recall({ query: 'deploys', top_k: 5, mode: 'lexical' }, CALL);
    assert.match(lexical.degraded!, /OpenBrain ranks by meaning only: lexical ranking is not available there/);
  });

  it('recall: the filters OpenBrain lacks apply here — tags (asked for more), superseded, expired', async (t) => {
    const { brain } = openbrain(t);
    const old = server.seed({ content: 'cache ttl is 60s', type: 'fact', tags: ['cache'] });
    const current = server.seed({ content: 'cache ttl is 300s', type: 'fact', tags: ['cache'], supersedes_id: old.id });
    const expired = server.seed({ content: 'cache is off during the sale', type: 'fact', tags: ['cache'], expires_at: HOUR_AGO });
    const untagged = server.seed({ content: 'cache keys are hashed', type: 'fact' });

    const tagged = await brain.recall({ query: 'cache', top_k: 3, mode: 'auto', tags: ['cache'] }, CALL);
    assert.equal(server.requests[0]!.body.top_k, 15, 'five times top_k, since tags are filtered here');
    assert.deepEqual(tagged.memories.map((m) => m.id), [current.id]);

    const everything = await brain.recall({ query: 'cache', top_k: 10, mode: 'auto', include_superseded: true, include_expired: true }, CALL);
    assert.deepEqual(new Set(everything.memories.map((m) => m.id)), new Set([old.id, current.id, expired.id, untagged.id]));
    assert.equal(everything.memories.find((m) => m.id === old.id)!.superseded_by, current.id);
    assert.equal(server.requests[1]!.body.top_k, 10);

    const top1 = await brain.recall({ query: 'cache', top_k: 1, mode: 'auto', include_superseded: true, include_expired: true }, CALL);
    assert.equal(top1.memories.length, 1);
  });

  it('list: GET /v1/brain/list with org, project, type, agent_id and limit; newest first; no pages', async (t) => {
    const { brain } = openbrain(t);
    const first = server.seed({ content: 'one', type: 'bug', org: 'acme', project: 'shop', agent_id: 'ann' });
    const second = server.seed({ content: 'two', type: 'bug', org: 'acme', project: 'shop', agent_id: 'ann' });
    server.seed({ content: 'three', type: 'fact', org: 'acme', project: 'shop', agent_id: 'ann' });
    const listed = await brain.list({ limit: 10, org: 'acme', project: 'shop', types: ['bug'], agent_id: 'ann', include_forgotten: true }, CALL);
    assert.deepEqual(server.requests[0]!.query, { org: 'acme', project: 'shop', agent_id: 'ann', limit: '10', type: 'bug' });
    assert.deepEqual(listed.memories.map((m) => m.id), [second.id, first.id]);
    assert.equal(listed.next_cursor, undefined);

    const err = await failure(brain.list({ limit: 10, cursor: 'abc' }, CALL));
    assert.equal(err.code, 'INVALID_ARGUMENTS');
    assert.match(err.message, /whose lists have no pages/);
  });

  it('list: tags, several types and min_confidence are filtered here, from a larger list', async (t) => {
    const { brain } = openbrain(t);
    const sure = server.seed({ content: 'a', type: 'bug', tags: ['ui'], confidence: 0.9 });
    server.seed({ content: 'b', type: 'bug', tags: ['ui'], confidence: 0.1 });
    server.seed({ content: 'c', type: 'fact', tags: ['api'], confidence: 0.9 });
    const plan = server.seed({ content: 'd', type: 'plan', tags: ['ui', 'q3'], confidence: 0.95 });
    const listed = await brain.list({ limit: 2, types: ['bug', 'plan'], tags: ['ui'], min_confidence: 0.5 }, CALL);
    assert.deepEqual(server.requests[0]!.query, { limit: '10' });
    assert.deepEqual(listed.memories.map((m) => m.id), [plan.id, sure.id]);
  });

  it('forget: DELETE /v1/brain/forget/{id}; an id OpenBrain does not have → BRAIN_MEMORY_NOT_FOUND', async (t) => {
    const { brain } = openbrain(t);
    const seeded = server.seed({ content: 'gone soon', type: 'fact' });
    const result = await brain.forget(seeded.id, 'obsolete', CALL);
    assert.equal(server.requests[0]!.method, 'DELETE');
    assert.equal(server.requests[0]!.path, `/v1/brain/forget/${seeded.id}`);
    assert.equal(server.requests[0]!.body, undefined, 'OpenBrain keeps no reason');
    assert.deepEqual({ ...result, forgotten_at: '' }, { id: seeded.id, forgotten: true, forgotten_at: '' });
    assert.equal(server.memories.size, 0);
    const err = await failure(brain.forget(seeded.id, undefined, CALL));
    assert.equal(err.code, 'BRAIN_MEMORY_NOT_FOUND');
  });

  it('import: each live memory remembered, oldest first, supersedes remapped to the new ids; tombstones and expired skipped; again: duplicates', async (t) => {
    const { brain } = openbrain(t);
    const base = { agent_id: 'ann', tags: ['x'], org: null, project: null, confidence: 0.7, superseded_by: null, expires_at: null, forgotten_at: null, forget_reason: null, supersedes_id: null };
    const exported: Memory[] = [
      { ...base, id: 'b0000000-0000-4000-8000-000000000002', type: 'fact', content: 'v2', supersedes_id: 'b0000000-0000-4000-8000-000000000001', created_at: '2026-01-02T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' },
      { ...base, id: 'b0000000-0000-4000-8000-000000000001', type: 'fact', content: 'v1', superseded_by: 'b0000000-0000-4000-8000-000000000002', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
      { ...base, id: 'b0000000-0000-4000-8000-000000000003', type: 'bug', content: '', tags: [], forgotten_at: '2026-01-04T00:00:00.000Z', forget_reason: 'fixed', created_at: '2026-01-03T00:00:00.000Z', updated_at: '2026-01-04T00:00:00.000Z' },
      { ...base, id: 'b0000000-0000-4000-8000-000000000004', type: 'plan', content: 'old plan', expires_at: HOUR_AGO, created_at: '2026-01-03T00:00:00.000Z', updated_at: '2026-01-03T00:00:00.000Z' },
    ];
    assert.deepEqual(await brain.import(exported, CALL), { imported: 2, skipped: 2, forgotten: 0 });
    assert.deepEqual(server.requests.map((r) => [r.body.content, r.idempotencyKey, r.body.agent_id]), [
      ['v1', 'b0000000-0000-4000-8000-000000000001', 'ann'],
      ['v2', 'b0000000-0000-4000-8000-000000000002', 'ann'],
    ]);
    const v1 = [...server.memories.values()].find((m) => m.content === 'v1')!;
    assert.equal(server.requests[1]!.body.supersedes, v1.id, 'supersedes points at the new id');
    assert.deepEqual(await brain.import(exported, CALL), { imported: 0, skipped: 4, forgotten: 0 });
    assert.equal(server.memories.size, 2);
  });

  it('export: what one list holds, oldest first', async (t) => {
    const { brain } = openbrain(t);
    const ids = [1, 2, 3].map((i) => server.seed({ content: `m${i}`, type: 'fact' }).id);
    const exported: Memory[] = [];
    for await (const m of brain.export(CALL)) exported.push(m);
    assert.deepEqual(exported.map((m) => m.id), ids);
    assert.equal(server.requests[0]!.query.limit, '10000');
  });

  it('leaves out (and logs) memories of a type this gateway does not know; numeric ids become strings', async (t) => {
    const { brain, log } = openbrain(t);
    server.seed({ content: 'strange', type: 'gossip' });
    const numbered = server.seed({ id: 42, content: 'numbered', type: 'fact' });
    const listed = await brain.list({ limit: 10 }, CALL);
    assert.deepEqual(listed.memories.map((m) => m.id), ['42']);
    assert.equal(numbered.id, 42);
    assert.match(log(), /memories of a type this gateway does not know; they were left out/);
  });
});

describe('brain remote back end: OpenBrain that fails', () => {
  let server: OpenBrainServer;
  before(async () => {
    server = await startOpenBrainServer({ apiKey: KEY });
  });
  afterEach(() => {
    server.mode = 'ok';
    server.requests.length = 0;
  });
  after(() => server.close());
  const openbrain = (t: T, more: Record<string, unknown> = {}, options: Parameters<typeof remoteBrain>[2] = {}) =>
    remoteBrain(t, remoteConfig(server.url, { protocol: 'openbrain', ...more }), options);
  const recall = { query: 'anything', top_k: 3, mode: 'auto' } as const;

  const table: Array<[OpenBrainServer['mode'], string, RegExp]> = [
    ['garbage', 'BRAIN_REMOTE_FAILED', /answered 200 with a body that is not JSON: <html><body>Welcome to nginx!/],
    ['wrong-shape', 'BRAIN_REMOTE_FAILED', /answered something that is not an OpenBrain answer \(memories is not a list\)/],
    ['unauthorized', 'BRAIN_REMOTE_REFUSED', new RegExp(`refused brain_recall \\(401: Unauthenticated\\): the key in \\$${KEY_ENV} is wrong or revoked`)],
    ['forbidden', 'BRAIN_REMOTE_REFUSED', /refused brain_recall \(403: This action is unauthorized\): .*its scopes on the remote do not allow brain_recall/],
    ['down', 'BRAIN_REMOTE_FAILED', /answered 503: OpenBrain is down for maintenance\. Gave up after 3 attempts\./],
  ];
  for (const [mode, code, message] of table) {
    it(`${mode}: ${code}`, async (t) => {
      const { brain } = openbrain(t);
      server.mode = mode;
      const err = await failure(brain.recall(recall, CALL));
      assert.equal(err.code, code);
      assert.match(err.message, message);
    });
  }

  it('remember answered without an id: BRAIN_REMOTE_FAILED', async (t) => {
    const { brain } = openbrain(t);
    server.mode = 'wrong-shape';
    const err = await failure(brain.remember({ ...REMEMBER }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.match(err.message, /answered brain_remember without the new memory's id \(200\)/);
  });

  it('hangs: each attempt aborted at timeoutMs (BREAKER_TIMEOUT), then BRAIN_REMOTE_FAILED', async (t) => {
    const { brain, breaker } = openbrain(t, { timeoutMs: 1000, retries: 1 });
    server.mode = 'hang';
    const err = await failure(brain.list({ limit: 5 }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.deepEqual(err.details, { reason: 'BREAKER_TIMEOUT', attempts: 2 });
    assert.equal(breaker.status().stats.timeouts, 2);
    await waitFor(() => server.aborted >= 2);
  });

  it('a wrong key: 401 with the key repeated by the server, never shown', async (t) => {
    const wrong = 'sk-wrong-key-9876543210';
    const { brain } = openbrain(t, {}, { env: { [KEY_ENV]: wrong } });
    const err = await failure(brain.list({ limit: 5 }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_REFUSED');
    assert.ok(!JSON.stringify([err.message, err.details]).includes(wrong), err.message);
  });

  it('a 5xx that repeats the key: the key masked', async (t) => {
    const { brain } = openbrain(t, { retries: 0 });
    server.mode = 'error';
    const err = await failure(brain.list({ limit: 5 }, CALL));
    assert.match(err.message, /answered 500: Server error \(key \*\*\*\)/);
    assert.ok(!JSON.stringify([err.message, err.details]).includes(KEY));
  });

  it('down: the breaker opens after its threshold, then BREAKER_OPEN at once without a request', async (t) => {
    const { brain, breaker } = openbrain(t, { retries: 0 }, { breaker: { volumeThreshold: 2, errorThresholdPercentage: 50 } });
    server.mode = 'down';
    for (let i = 0; i < 2; i++) await failure(brain.remember({ ...REMEMBER }, CALL));
    assert.equal(breaker.state, 'open');
    const err = await failure(brain.remember({ ...REMEMBER }, CALL));
    assert.equal(err.code, 'BREAKER_OPEN');
    assert.equal(server.requests.length, 2);
  });

  it('url with the /v1/brain suffix: 404 with the fix', async (t) => {
    const { brain } = remoteBrain(t, remoteConfig(`${server.url}/v1/brain`, { protocol: 'openbrain' }));
    const err = await failure(brain.list({ limit: 5 }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.match(err.message, /answered 404: No route GET \/v1\/brain\/v1\/brain\/list\. Is remote\.url the OpenBrain API's base address \(https:\/\/api\.lthn\.sh, without \/v1\/brain\)\?/);
  });
});
