import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdeCache } from '../../../plugins/ide-bridge/cache.js';
import { feedPush, ShapeRefused } from '../../../plugins/ide-bridge/feed.js';
import { FrameRefused, parseInbound, type Envelope, type PushType } from '../../../plugins/ide-bridge/protocol.js';

const LIMITS = { sessions: 2, chatSessions: 2, messagesPerSession: 3, plans: 2, builds: 2, logBuilds: 2, logLinesPerBuild: 3, activity: 2 };
const at = '2026-11-24T12:00:00.000Z';

describe('ide-bridge frames', () => {
  it('refuses frames it cannot read, saying why', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /not JSON/],
      ['{"type": "activity"', /not JSON/],
      ['"activity"', /not a JSON object/],
      ['null', /not a JSON object/],
      ['{"data": {}}', /no type/],
      ['{"type": "x.y"}', /unknown type/],
      ['{"type": "activity", "id": 7}', /id is not a string/],
      [`{"type": "activity", "sessionId": "${'s'.repeat(300)}"}`, /sessionId/],
      ['{"type": "activity", "data": [1]}', /data is not an object/],
      ['{"type": "response", "data": {}}', /without id/],
      ['{"type": "activity", "data": {"nested": {"constructor": {"prototype": {}}}}}', /constructor|prototype/],
      ['{"__proto__": {"polluted": 1}, "type": "activity"}', /__proto__/],
    ];
    for (const [text, reason] of cases) {
      assert.throws(() => parseInbound(text), (err: unknown) => err instanceof FrameRefused && reason.test(err.message), text.slice(0, 60));
    }
    assert.equal(({} as any).polluted, undefined);
  });

  it('reads pushes and answers, and fills in a missing timestamp', () => {
    const push = parseInbound('{"type": "activity", "data": {"type": "a", "message": "b", "timestamp": "2026-11-24T12:00:00Z"}}');
    assert.equal(push.kind, 'push');
    assert.ok(!Number.isNaN(Date.parse(push.envelope.timestamp)));
    const answer = parseInbound('{"type": "error", "id": "r1", "data": {"code": "not_found"}, "timestamp": "2026-11-24T12:00:00Z"}');
    assert.deepEqual([answer.kind, answer.envelope.id], ['reply', 'r1']);
  });

  it('refuses records of the wrong shape, and keeps each kind within its limit', () => {
    const cache = new IdeCache(LIMITS);
    cache.nextEpoch();
    const push = (type: PushType, data: Record<string, unknown>, sessionId?: string) =>
      feedPush(cache, { type, data, timestamp: at, ...(sessionId ? { sessionId } : {}) } as Envelope<PushType>);
    const wrong: Array<[PushType, Record<string, unknown>, string?]> = [
      ['chat.message', { role: 'user', content: 'x', timestamp: at }],
      ['chat.message', { role: 'user', content: 'x'.repeat(64 * 1024 + 1), timestamp: at }, 'sess-1'],
      ['chat.message', { role: 'user', content: 'x', timestamp: 'yesterday' }, 'sess-1'],
      ['session.updated', { session: { id: '../x', name: 'n', status: 'active', createdAt: at } }],
      ['build.updated', { build: { id: 'b', repo: 'r', branch: 'main', status: 'running', duration: -1, startedAt: at } }],
      ['build.log', { buildId: 'b', lines: ['ok', 3] }],
      ['plan.updated', { status: 'x', steps: [{ name: 'a' }] }, 'sess-1'],
      ['dashboard.state', { state: { big: 'x'.repeat(300 * 1024) } }],
      ['dashboard.overview', { repos: -1, services: 2 }],
    ];
    for (const [type, data, sessionId] of wrong) assert.throws(() => push(type, data, sessionId), ShapeRefused, `${type} ${JSON.stringify(data).slice(0, 80)}`);

    for (const id of ['b1', 'b2', 'b3']) push('build.updated', { build: { id, repo: 'r', branch: 'main', status: 'running', duration: null, startedAt: at } });
    assert.deepEqual([...cache.builds.values()].map((k) => k.value.id), ['b2', 'b3']);
    push('build.log', { buildId: 'b2', lines: ['1', '2', '3', '4'] });
    assert.deepEqual(cache.logs.get('b2')!.value, ['2', '3', '4']);
    for (const content of ['a', 'b', 'c', 'd']) push('chat.message', { role: 'user', content, timestamp: at }, 'sess-1');
    assert.deepEqual(cache.chats.get('sess-1')!.value.map((m) => m.content), ['b', 'c', 'd']);
    assert.equal(cache.isFresh(cache.chats.get('sess-1')), false, 'pushes alone never make a whole history');
  });

  it('what was heard on an earlier connection is no longer fresh', () => {
    const cache = new IdeCache(LIMITS);
    cache.nextEpoch();
    cache.putSessionList([]);
    assert.equal(cache.sessionListFresh, true);
    cache.nextEpoch();
    assert.equal(cache.sessionListFresh, false, 'disconnected');
    cache.nextEpoch();
    assert.equal(cache.sessionListFresh, false, 'reconnected: ask again');
  });
});
