import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { startTestGateway } from '../../../core/testing.js';
import type { Memory } from '../../../plugins/brain/model.js';
import { TESTS } from '../../helpers.js';
import { CALL, failure, json, KEY, KEY_ENV, memory, remoteBrain, remoteConfig, scripted, type Script } from './remote-helpers.js';

type T = { after(fn: () => unknown): void };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REMEMBER = { content: 'The build runs on Node 20.', type: 'fact', tags: ['build'], confidence: 0.8, project: 'gateway' } as const;

/** A remote gateway's REST bridge played by `script`, and a GatewayBrain pointed at it. */
async function remote(t: T, script: Script, more: Record<string, unknown> = {}) {
  const server = await scripted(t, script);
  return { ...remoteBrain(t, remoteConfig(server.url, more)), server };
}

const ok = (data: unknown): Script => (_s, res) => json(res, 200, { success: true, data });
const fails = (status: number, code: string, message: string, details?: unknown): Script => (_s, res) =>
  json(res, status, { success: false, error: { code, message, ...(details === undefined ? {} : { details }) } });

describe('brain remote back end: another gateway', () => {
  it('remember: POST /tools/brain_remember with the tool arguments and a fresh id, without the acting agent', async (t) => {
    const { brain, server } = await remote(t, (seen, res) => json(res, 200, { success: true, data: { memory: memory({ id: seen.body.id, extra: 'dropped' }), duplicate: false, queued: false, also: 1 } }));
    assert.equal(brain.kind, 'remote');
    const result = await brain.remember({ ...REMEMBER }, CALL);
    const [sent] = server.requests;
    assert.equal(sent!.method, 'POST');
    assert.equal(sent!.url, '/tools/brain_remember');
    assert.equal(sent!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(sent!.headers['content-type'], 'application/json');
    assert.match(sent!.body.id, UUID);
    assert.deepEqual(sent!.body, { ...REMEMBER, id: sent!.body.id });
    assert.ok(!JSON.stringify(sent!.body).includes(CALL.agent), 'the acting agent is the key on the remote');
    assert.deepEqual(result, { memory: memory({ id: sent!.body.id }), duplicate: false, queued: false });
  });

  it('remember: a retry after a lost answer (500, then OK) carries the same id, so the remote stores once', async (t) => {
    const stored = new Map<string, string>();
    const { brain, server } = await remote(t, (seen, res, i) => {
      const duplicate = stored.has(seen.body.id);
      stored.set(seen.body.id, seen.body.content);
      if (i === 0) return json(res, 500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'the answer was lost' } });
      json(res, 200, { success: true, data: { memory: memory({ id: seen.body.id }), duplicate, queued: false } });
    });
    const result = await brain.remember({ ...REMEMBER }, CALL);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0]!.body.id, server.requests[1]!.body.id);
    assert.equal(stored.size, 1);
    assert.equal(result.duplicate, true);
  });

  it("remember: the caller's own id is sent as it is", async (t) => {
    const id = '7d0f3a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6';
    const { brain, server } = await remote(t, ok({ memory: memory({ id }), duplicate: true, queued: false }));
    assert.equal((await brain.remember({ ...REMEMBER, id }, CALL)).memory.id, id);
    assert.equal(server.requests[0]!.body.id, id);
  });

  it('recall, forget, list and import send their arguments and parse the answers', async (t) => {
    const answers: Record<string, unknown> = {
      '/tools/brain_recall': { count: 1, memories: [{ ...memory(), score: 0.75 }], mode: 'lexical', degraded: 'no vectors' },
      '/tools/brain_forget': { id: memory().id, forgotten: true, forgotten_at: '2026-02-01T00:00:00.000Z' },
      '/tools/brain_list': { count: 1, memories: [memory()], next_cursor: 'abc' },
      '/tools/brain_import': { imported: 1, skipped: 0, forgotten: 0 },
    };
    const { brain, server } = await remote(t, (seen, res) => json(res, 200, { success: true, data: answers[seen.url] }));
    const recalled = await brain.recall({ query: 'node build', top_k: 5, mode: 'auto', types: ['fact', 'bug'], tags: ['build'], include_expired: false }, CALL);
    assert.deepEqual(server.requests[0]!.body, { query: 'node build', top_k: 5, mode: 'auto', types: ['fact', 'bug'], tags: ['build'], include_expired: false });
    assert.deepEqual(recalled, { memories: [{ ...memory(), score: 0.75 }], mode: 'lexical', degraded: 'no vectors' });

    assert.deepEqual(await brain.forget(memory().id as string, 'wrong', CALL), answers['/tools/brain_forget']);
    assert.deepEqual(server.requests[1]!.body, { id: memory().id, reason: 'wrong' });
    await brain.forget(memory().id as string, undefined, CALL);
    assert.deepEqual(server.requests[2]!.body, { id: memory().id });

    const listed = await brain.list({ limit: 10, cursor: 'xyz', types: [], include_forgotten: true }, CALL);
    assert.deepEqual(server.requests[3]!.body, { limit: 10, cursor: 'xyz', include_forgotten: true }, 'an empty types list means any type');
    assert.deepEqual(listed, { memories: [memory()], next_cursor: 'abc' });

    assert.deepEqual(await brain.import([memory() as unknown as Memory], CALL), { imported: 1, skipped: 0, forgotten: 0 });
    assert.deepEqual(server.requests[4]!.body, { memories: [memory()] });
  });

  it('import: batches of at most 500 memories, summaries added', async (t) => {
    const { brain, server } = await remote(t, (seen, res) => json(res, 200, { success: true, data: { imported: seen.body.memories.length, skipped: 0, forgotten: 0 } }));
    const memories = Array.from({ length: 1201 }, (_, i) => memory({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }) as unknown as Memory);
    assert.deepEqual(await brain.import(memories, CALL), { imported: 1201, skipped: 0, forgotten: 0 });
    assert.deepEqual(server.requests.map((r) => r.body.memories.length), [500, 500, 201]);
  });

  it('export: pages through brain_list oldest first (everything, 500 a page) following next_cursor, giving each page as it comes', async (t) => {
    const at = (i: number) => memory({ id: `00000000-0000-4000-8000-00000000000${i}`, created_at: `2026-01-0${i}T00:00:00.000Z` });
    const pages = [
      { count: 2, memories: [at(1), at(2)], next_cursor: 'page2' },
      { count: 2, memories: [at(3), at(4)] },
    ];
    const { brain, server } = await remote(t, (_s, res, i) => json(res, 200, { success: true, data: pages[i] }));
    const exported: Memory[] = [];
    for await (const m of brain.export(CALL)) exported.push(m);
    assert.deepEqual(exported.map((m) => m.created_at.slice(0, 10)), ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    const all = { limit: 500, order: 'oldest', include_forgotten: true, include_superseded: true, include_expired: true };
    assert.deepEqual(server.requests.map((r) => r.body), [all, { ...all, cursor: 'page2' }]);
  });
});

describe('brain remote back end: another gateway that fails', () => {
  const table: Array<[string, Script, string, RegExp, Record<string, unknown>?]> = [
    ['a body that is not JSON', (_s, res) => (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<h1>It works!</h1>')), 'BRAIN_REMOTE_FAILED', /answered 200 with a body that is not JSON: <h1>It works!<\/h1>/],
    ['JSON that is no REST bridge answer', (_s, res) => json(res, 200, { memories: [] }), 'BRAIN_REMOTE_FAILED', /without a REST bridge's \{"success": true, "data": …\}: is remote\.url another mcp-gateway's HTTP address\? \(For an OpenBrain API, set remote\.protocol: openbrain\.\)/],
    ['a result of the wrong shape', ok({ count: 1, memories: [{ ...memory(), confidence: 'high' }], mode: 'lexical' }), 'BRAIN_REMOTE_FAILED', /answered brain_recall with something that is not its result \(data\.memories\[0\]\.confidence is the string "high"\)/],
    ['a memory of an unknown type', ok({ count: 1, memories: [{ ...memory({ type: 'gossip' }), score: 1 }], mode: 'lexical' }), 'BRAIN_REMOTE_FAILED', /data\.memories\[0\]\.type is the string "gossip"/],
    ['401 (a wrong key)', fails(401, 'UNAUTHORIZED', 'API keys are configured and the request has an unknown one.'), 'BRAIN_REMOTE_REFUSED', new RegExp(`the key in \\$${KEY_ENV} is wrong or revoked`)],
    ['403 (scopes)', fails(403, 'FORBIDDEN', 'The key "b" may not call brain_recall.'), 'BRAIN_REMOTE_REFUSED', /its scopes on the remote do not allow brain_recall/],
    ['404 UNKNOWN_TOOL (no brain plugin there)', fails(404, 'UNKNOWN_TOOL', 'No tool named brain_recall.'), 'BRAIN_REMOTE_FAILED', /has no brain_recall tool \(404 UNKNOWN_TOOL\): the brain plugin is not enabled there/, { status: 404, reason: 'UNKNOWN_TOOL', code: 'UNKNOWN_TOOL' }],
    ['404 without a code (not a gateway)', (_s, res) => (res.writeHead(404, { 'content-type': 'text/plain' }), res.end('Not Found')), 'BRAIN_REMOTE_FAILED', /answered 404: Not Found\. Is remote\.url the HTTP address of another mcp-gateway/],
    ['a code of its own (409 SOMETHING_NEW)', fails(409, 'SOMETHING_NEW', 'Newer than you.'), 'BRAIN_REMOTE_FAILED', /answered 409 SOMETHING_NEW: Newer than you\./, { status: 409, reason: 'Newer than you', code: 'SOMETHING_NEW' }],
    ['a 5xx code, retried then given up', fails(503, 'STORE_UNAVAILABLE', 'PostgreSQL is down.'), 'BRAIN_REMOTE_FAILED', /answered 503: PostgreSQL is down\. Gave up after 3 attempts\./, { status: 503, reason: 'PostgreSQL is down', code: 'STORE_UNAVAILABLE', attempts: 3 }],
  ];
  for (const [what, script, code, message, details] of table) {
    it(`${what}: ${code}`, async (t) => {
      const { brain } = await remote(t, script);
      const err = await failure(brain.recall({ query: 'anything', top_k: 3, mode: 'auto' }, CALL));
      assert.equal(err.code, code);
      assert.match(err.message, message);
      if (details) assert.deepEqual(err.details, details);
    });
  }

  it('hangs: BREAKER_TIMEOUT on each attempt, then BRAIN_REMOTE_FAILED', async (t) => {
    const { brain, server } = await remote(t, () => undefined, { timeoutMs: 1000, retries: 1 });
    const err = await failure(brain.list({ limit: 5 }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.deepEqual(err.details, { reason: 'BREAKER_TIMEOUT', attempts: 2 });
    assert.equal(server.requests.length, 2);
  });

  it("the caller's mistakes keep their code, with the remote's message and details", async (t) => {
    const passed: Array<[number, string, unknown]> = [
      [404, 'BRAIN_MEMORY_NOT_FOUND', { id: memory().id }],
      [413, 'BRAIN_CONTENT_TOO_LARGE', { limit: 65536, bytes: 70000 }],
      [409, 'BRAIN_ID_CONFLICT', undefined],
      [400, 'INVALID_ARGUMENTS', [{ path: '/type', message: 'must be equal to one of the allowed values' }]],
    ];
    for (const [status, code, details] of passed) {
      const { brain, server } = await remote(t, fails(status, code, `Said ${code}.`, details));
      const err = await failure(brain.forget(memory().id as string, undefined, CALL));
      assert.equal(err.code, code);
      assert.equal(err.message, `The remote brain: Said ${code}`);
      assert.deepEqual(err.details, typeof details === 'object' && details !== null ? details : undefined);
      assert.equal(server.requests.length, 1, 'a 4xx is not retried');
    }
  });

  it('BREAKER_OPEN on the remote (503 with Retry-After) is retried like any 503', async (t) => {
    const { brain, server } = await remote(t, (seen, res, i) =>
      i === 0 ? json(res, 503, { success: false, error: { code: 'BREAKER_OPEN', message: 'open' } }, { 'retry-after': '1' }) : ok({ count: 0, memories: [] })(seen, res, i),
    );
    assert.deepEqual(await brain.list({ limit: 5 }, CALL), { memories: [] });
    assert.equal(server.requests.length, 2);
  });
});

describe('brain remote back end: a real gateway without the brain plugin', async () => {
  // The echo fixture plugin, and no brain.
  const gateway = await startTestGateway({ registries: [join(TESTS, 'fixtures', 'external-plugin', 'registry')], plugins: { echo: {} }, keys: [{ name: 'team', scopes: ['*'] }] });
  const { http } = await gateway.listen({ http: true });
  const url = `http://127.0.0.1:${http!.port}`;
  const key = { key: gateway.keys.team! };
  after(() => gateway.close());

  it('answers 404 UNKNOWN_TOOL: BRAIN_REMOTE_FAILED saying to enable the brain plugin there', async (t) => {
    const { brain } = remoteBrain(t, remoteConfig(url), { env: { [KEY_ENV]: key.key } });
    const err = await failure(brain.remember({ ...REMEMBER }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.match(err.message, /has no brain_remember tool \(404 UNKNOWN_TOOL\): the brain plugin is not enabled there/);
  });

  it('answers 401 to a wrong key: BRAIN_REMOTE_REFUSED naming the variable, the key not shown', async (t) => {
    const { brain } = remoteBrain(t, remoteConfig(url), { env: { [KEY_ENV]: 'not-the-key-0123456789' } });
    const err = await failure(brain.list({ limit: 1 }, CALL));
    assert.equal(err.code, 'BRAIN_REMOTE_REFUSED');
    assert.equal(err.details.status, 401);
    assert.match(err.message, new RegExp(`set \\$${KEY_ENV} to a key the remote accepts`));
    assert.ok(!err.message.includes('not-the-key-0123456789'));
  });
});
