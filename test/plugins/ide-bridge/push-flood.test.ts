import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import type { GatewayEvent } from '../../../core/index.js';
import { createGateway } from '../../../core/gateway/gateway.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { IdeCache } from '../../../plugins/ide-bridge/cache.js';
import { DROP_WARN_EVERY_MS, PushLimiter } from '../../../plugins/ide-bridge/push-limit.js';
import { memoryClient, recordNotifications, tempDir, testConfig, toolCalls } from '../../helpers.js';
import { channelMessages, ideBackend, QUICK, waitFor } from './ide-helpers.js';

/** A pino logger into memory: the warn lines the limiter writes. */
function capturedLog() {
  const lines: any[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString('utf8'))), done()) });
  return { log: pino({ level: 'info' }, sink), lines };
}

const dropWarnings = (lines: any[]) => lines.filter((line) => line.level === 40 && /pushes faster than/.test(line.msg));

describe('PushLimiter', () => {
  it('takes in perSessionPerSecond of one session and perSecond in all, per one-second window, and counts the rest', () => {
    let now = 0;
    const { log, lines } = capturedLog();
    const limiter = new PushLimiter({ perSecond: 30, perSessionPerSecond: 10 }, log, () => now);
    const taken = (count: number, sessionId?: string) => Array.from({ length: count }, () => limiter.admit(sessionId)).filter(Boolean).length;
    assert.equal(taken(1000, 'sess-a'), 10);
    // Session a's dropped pushes did not use up the others' allowance.
    assert.equal(taken(5, 'sess-b'), 5);
    assert.equal(taken(100), 15, 'pushes without a session count only in perSecond');
    assert.equal(limiter.dropped, 990 + 85);
    now = 1000;
    assert.equal(taken(20, 'sess-a'), 10, 'a new window');
    assert.equal(limiter.dropped, 990 + 85 + 10);
    // One warn line for the first drop, none more within DROP_WARN_EVERY_MS, then one saying how many since.
    assert.equal(dropWarnings(lines).length, 1);
    now = DROP_WARN_EVERY_MS;
    assert.equal(taken(11, 'sess-c'), 10);
    const warnings = dropWarnings(lines);
    assert.equal(warnings.length, 2);
    assert.deepEqual([warnings[0].dropped, warnings[0].limit, warnings[0].sessionId], [1, 'perSessionPerSecond', 'sess-a']);
    assert.deepEqual([warnings[1].dropped, warnings[1].droppedTotal, warnings[1].sessionId], [990 + 85 + 10, 990 + 85 + 11, 'sess-c']);
  });
});

describe('IdeCache after a dropped push: only what it would have fed is read again', () => {
  const LIMITS = { sessions: 10, chatSessions: 10, messagesPerSession: 10, plans: 10, builds: 10, logBuilds: 10, logLinesPerBuild: 10, activity: 10 };
  const at = '2026-11-24T12:00:00.000Z';
  /** A connected cache that heard everything whole: every read would answer from it. */
  function heardAll(): IdeCache {
    const cache = new IdeCache(LIMITS);
    cache.nextEpoch();
    for (const sessionId of ['sess-a', 'sess-b']) {
      cache.putHistory(sessionId, [{ role: 'user', content: 'hi', timestamp: at }]);
      cache.putPlan({ sessionId, status: 'running', steps: [] });
    }
    cache.putSessionList([]);
    cache.putBuildList([], undefined, true);
    cache.putLog('b1', ['ok']);
    cache.putActivity([]);
    cache.putDashboard({ state: {}, updatedAt: null });
    cache.putOverview({ repos: 1, services: 1 });
    return cache;
  }
  const fresh = (cache: IdeCache) => ({
    chatA: cache.isFresh(cache.chats.get('sess-a')),
    planA: cache.isFresh(cache.plans.get('sess-a')),
    chatB: cache.isFresh(cache.chats.get('sess-b')),
    planB: cache.isFresh(cache.plans.get('sess-b')),
    shared: [cache.sessionListFresh, cache.buildListFresh(), cache.isFresh(cache.logs.get('b1')), cache.isFresh(cache.activity), cache.isFresh(cache.dashboard), cache.isFresh(cache.overview)],
  });
  const SHARED_FRESH = [true, true, true, true, true, true];
  const SHARED_STALE = [false, false, false, false, false, false];

  it("a session's dropped push: that session's chat and plan, nothing else", () => {
    const cache = heardAll();
    cache.distrustSession('sess-a');
    assert.deepEqual(fresh(cache), { chatA: false, planA: false, chatB: true, planB: true, shared: SHARED_FRESH });
    // Read again from the backend, they are fresh again.
    cache.putHistory('sess-a', []);
    cache.putPlan({ sessionId: 'sess-a', status: 'done', steps: [] });
    assert.deepEqual(fresh(cache), { chatA: true, planA: true, chatB: true, planB: true, shared: SHARED_FRESH });
  });

  it('a dropped push about no session: the shared entries, never a chat or plan', () => {
    const cache = heardAll();
    for (let i = 0; i < 1000; i++) cache.distrustShared();
    assert.deepEqual(fresh(cache), { chatA: true, planA: true, chatB: true, planB: true, shared: SHARED_STALE });
    // What the backend answers after the drop was said after it: fresh.
    cache.putSessionList([]);
    assert.equal(cache.sessionListFresh, true);
    assert.equal(cache.isFresh(cache.activity), false);
  });

  it('an answer that comes after a drop it has not been read since is fresh; a new connection ends a pending drop', () => {
    const cache = heardAll();
    cache.distrustShared();
    cache.putActivity([]);
    assert.equal(cache.isFresh(cache.activity), true);
    assert.equal(cache.isFresh(cache.dashboard), false);
    cache.distrustShared();
    cache.nextEpoch();
    cache.nextEpoch();
    cache.putDashboard({ state: {}, updatedAt: null });
    assert.equal(cache.isFresh(cache.dashboard), true);
  });
});

describe('ide-bridge under a flood of pushes', async () => {
  const backend = await ideBackend();
  const { log, lines } = capturedLog();
  const config = testConfig(tempDir(), { plugins: { 'ide-bridge': { config: { url: backend.url, ...QUICK, pushesPerSecond: 20, pushesPerSessionPerSecond: 5 } } } });
  const gateway = await createGateway({ config, log });
  after(() => gateway.close());
  const client = await memoryClient(gateway);
  const received = recordNotifications(client);
  const { call } = toolCalls(client);
  const events: GatewayEvent[] = [];
  gateway.events.subscribe('ide.**', (event) => void events.push(event));
  const status = () => call('ide_bridge_status');
  await waitFor(() => gateway.status().plugins.find((p) => p.name === 'ide-bridge')?.status?.ok === true);
  const published = (channel: string, sessionId?: string) => events.filter((e) => e.channel === channel && (sessionId === undefined || (e.data as any).sessionId === sessionId)).length;
  /** Waits until `sent` pushes were either published (`counted`) or dropped (since the start). */
  const settled = async (sent: number, counted: () => number) => {
    for (;;) {
      const s = await status();
      if (counted() + s.droppedPushes >= sent) return s;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it("drops one session's flood of 16 KiB chat pushes over its rate, counts it, and still takes in another session's", async () => {
    const started = Date.now();
    const sent = backend.flood({ count: 2000, sessionId: 'sess-demo', bytes: 16 * 1024 });
    backend.flood({ count: 5, sessionId: 'sess-other', bytes: 100 });
    const s = await settled(sent + 5, () => published('ide.chat.message'));
    const kept = published('ide.chat.message', 'sess-demo');
    assert.equal(published('ide.chat.message', 'sess-other'), 5, "the quiet session's pushes all went through");
    assert.equal(kept + s.droppedPushes, sent, 'every push of the flood was published or counted as dropped');
    assert.ok(s.droppedPushes > 0 && kept < sent);
    assert.deepEqual(s.pushRates, { perSecond: 20, perSessionPerSecond: 5 });
    // What went on is what was taken in, no more: one notification per published push.
    await waitFor(() => channelMessages(received, 'ide-bridge.chat').length === kept + 5);
    assert.ok(s.cache.chatSessions <= 100);
    // Logged, but not once per push.
    const warnings = dropWarnings(lines);
    assert.ok(warnings.length >= 1);
    assert.ok(warnings.length <= 1 + Math.floor((Date.now() - started) / DROP_WARN_EVERY_MS), `${warnings.length} warn lines`);
  });

  it('drops pushes over perSecond in all, and shows the count in gateway_status and /metrics', async () => {
    const before = (await status()).droppedPushes;
    const activity = published('ide.activity');
    const sent = backend.flood({ count: 2000 });
    const s = await settled(before + sent, () => published('ide.activity') - activity);
    const kept = published('ide.activity') - activity;
    assert.equal(kept + s.droppedPushes - before, sent);
    assert.ok(kept < sent);
    assert.ok(s.cache.activity <= 500);
    const report = gateway.status().plugins.find((p) => p.name === 'ide-bridge')!.status!;
    assert.equal((report.detail as any).droppedPushes, s.droppedPushes);
    const app = await createHttpApp(gateway);
    after(() => app.close());
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, new RegExp(`^mcp_gateway_ide_bridge_dropped_pushes ${s.droppedPushes}$`, 'm'));
  });

  it('asks the backend again after a dropped push, instead of answering from a cache that may lack it', async () => {
    const asked = () => backend.received.filter((r) => r.type === 'chat.history').length;
    await call('ide_chat_history', { sessionId: 'sess-demo' });
    const before = asked();
    await call('ide_chat_history', { sessionId: 'sess-demo' });
    assert.equal(asked(), before, 'a fresh history is answered from the cache');
    const dropped = (await status()).droppedPushes;
    const chats = published('ide.chat.message');
    const sent = backend.flood({ count: 50, sessionId: 'sess-demo', bytes: 100 });
    const s = await settled(dropped + sent, () => published('ide.chat.message') - chats);
    assert.ok(s.droppedPushes > dropped);
    const history = await call('ide_chat_history', { sessionId: 'sess-demo' });
    assert.equal(asked(), before + 1, 'the read went to the backend');
    assert.equal(history.stale, false);
  });

  it("one session's flood sends only its own reads to the backend; a flood about no session, only the shared ones", async () => {
    const { id: quiet } = (await call('ide_session_create', { name: 'Quiet session' })).session;
    const reads = {
      history: () => call('ide_chat_history', { sessionId: quiet }),
      plan: () => call('ide_plan_status', { sessionId: quiet }),
      sessions: () => call('ide_session_list'),
      activity: () => call('ide_dashboard_activity'),
    };
    const TYPES = { history: 'chat.history', plan: 'plan.status', sessions: 'session.list', activity: 'dashboard.activity' } as const;
    /** Each read once; which of them asked the backend. */
    const readAll = async () => {
      const before = backend.received.length;
      for (const read of Object.values(reads)) assert.equal((await read()).stale, false);
      const asked = new Set(backend.received.slice(before).map((r) => r.type));
      return Object.fromEntries(Object.entries(TYPES).map(([read, type]) => [read, asked.has(type)]));
    };
    await readAll();
    assert.deepEqual(await readAll(), { history: false, plan: false, sessions: false, activity: false }, 'all answered from the cache');

    const flooded = async (sessionId?: string) => {
      const dropped = (await status()).droppedPushes;
      const channel = sessionId ? 'ide.chat.message' : 'ide.activity';
      const before = published(channel);
      const sent = backend.flood({ count: 100, bytes: 100, ...(sessionId ? { sessionId } : {}) });
      const s = await settled(dropped + sent, () => published(channel) - before);
      assert.ok(s.droppedPushes > dropped, 'the flood had pushes dropped');
    };
    await flooded('sess-demo');
    assert.deepEqual(await readAll(), { history: false, plan: false, sessions: false, activity: false }, "sess-demo's flood left the others' cache alone");
    await flooded();
    assert.deepEqual(await readAll(), { history: false, plan: false, sessions: true, activity: true }, 'a flood about no session: the shared reads ask again');
  });
});
