import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelMessages, ideBackend, ideGateway, waitFor } from './ide-helpers.js';

describe('ide-bridge tools, against the reference backend', async () => {
  const backend = await ideBackend();
  const ide = await ideGateway(backend.url);
  await ide.connected();
  const { call, fail } = ide;

  it('ide_session_list lists the backend sessions, newest first, fresh', async () => {
    const result = await call('ide_session_list');
    assert.equal(result.stale, false);
    assert.deepEqual(result.sessions.map((s: any) => s.id), ['sess-demo']);
  });

  it('ide_session_create creates a session whose id is known at once, and lists it', async () => {
    const result = await call('ide_session_create', { name: 'Fix the login' });
    assert.equal(result.queued, false);
    assert.match(result.session.id, /^sess-/);
    assert.equal(result.session.status, 'active');
    assert.equal(backend.state.sessions.get(result.session.id).name, 'Fix the login');
    const list = await call('ide_session_list');
    assert.equal(list.sessions[0].id, result.session.id);
  });

  it('ide_chat_send sends; the echo comes back as a push, in ide_chat_history and as a channel message', async () => {
    const sent = await call('ide_chat_send', { sessionId: 'sess-demo', message: 'ping' });
    assert.equal(sent.sent, true);
    assert.equal(sent.queued, false);
    assert.equal(backend.received.find((e) => e.id === sent.messageId)?.data?.message, 'ping');
    await waitFor(() => channelMessages(ide.received, 'ide-bridge.chat').some((m) => m.data.content === 'Echo: ping'));
    const history = await call('ide_chat_history', { sessionId: 'sess-demo', limit: 2 });
    assert.deepEqual(history.messages.map((m: any) => [m.role, m.content]), [['user', 'ping'], ['assistant', 'Echo: ping']]);
    assert.equal(history.stale, false);
  });

  it('ide_chat_history answers the seeded history, and IDE_NOT_FOUND for an unknown session', async () => {
    const history = await call('ide_chat_history', { sessionId: 'sess-demo' });
    assert.equal(history.messages[0].content, 'Please fix the failing build.');
    assert.equal((await fail('ide_chat_history', { sessionId: 'sess-nobody' })).code, 'IDE_NOT_FOUND');
    assert.equal((await fail('ide_chat_send', { sessionId: 'sess-nobody', message: 'hi' })).code, 'IDE_NOT_FOUND');
  });

  it('ide_plan_status gives a session plan', async () => {
    const plan = await call('ide_plan_status', { sessionId: 'sess-demo' });
    assert.equal(plan.status, 'in_progress');
    assert.deepEqual(plan.steps.map((s: any) => s.status), ['done', 'in_progress']);
  });

  it('ide_build_status, ide_build_list and ide_build_logs', async () => {
    const status = await call('ide_build_status', { buildId: 'build-2' });
    assert.deepEqual([status.build.status, status.build.repo, status.build.duration, status.stale], ['failed', 'demo/app', 13, false]);
    assert.equal((await fail('ide_build_status', { buildId: 'build-404' })).code, 'IDE_NOT_FOUND');
    const list = await call('ide_build_list', {});
    assert.deepEqual(list.builds.map((b: any) => b.id), ['build-2', 'build-1', 'build-3']);
    const app = await call('ide_build_list', { repo: 'demo/api' });
    assert.deepEqual(app.builds.map((b: any) => b.id), ['build-3']);
    assert.equal((await call('ide_build_list', { limit: 1 })).builds.length, 1);
    const logs = await call('ide_build_logs', { buildId: 'build-1', tail: 2 });
    assert.deepEqual(logs.lines, ['$ npm test', '42 passing']);
    assert.equal((await fail('ide_build_logs', { buildId: 'build-404' })).code, 'IDE_NOT_FOUND');
  });

  it('ide_dashboard_overview, ide_dashboard_activity and ide_dashboard_state', async () => {
    const { overview, stale } = await call('ide_dashboard_overview');
    assert.equal(stale, false);
    assert.equal(overview.repos, 2);
    assert.equal(overview.services, 3);
    assert.equal(overview.bridgeOnline, true);
    assert.ok(overview.activeSessions >= 1);
    assert.ok(overview.recentBuilds >= 2);
    const activity = await call('ide_dashboard_activity', { limit: 2 });
    assert.equal(activity.events.length, 2);
    assert.ok(activity.events[0].timestamp >= activity.events[1].timestamp, 'newest first');
    const state = await call('ide_dashboard_state');
    assert.equal(state.state.theme, 'dark');
  });

  it('ide_dashboard_metrics applies the period to the builds, sessions and messages it knows', async () => {
    const hour = await call('ide_dashboard_metrics', { period: '1h' });
    const day = await call('ide_dashboard_metrics', { period: '24h' });
    const week = await call('ide_dashboard_metrics', { period: '7d' });
    // build-2 (30 min ago), build-1 (2 h), build-3 (48 h); builds the other tests ran are newer.
    assert.equal(day.metrics.buildsTotal - hour.metrics.buildsTotal, 1);
    assert.equal(week.metrics.buildsTotal - day.metrics.buildsTotal, 1);
    assert.ok(week.metrics.buildsSuccess >= 2);
    assert.ok(day.metrics.buildsFailed >= 1);
    assert.ok(week.metrics.successRate > 0 && week.metrics.successRate < 1);
    assert.ok(week.metrics.avgBuildTime > 0);
    assert.ok(Date.parse(hour.since) > Date.parse(day.since));
    assert.equal(hour.period, '1h');
  });

  it('ide_dashboard_update merges, or replaces, and the new state is announced', async () => {
    const merged = await call('ide_dashboard_update', { state: { focus: 'login' } });
    assert.deepEqual(merged.state, { theme: 'dark', focus: 'login' });
    assert.equal(merged.queued, false);
    await waitFor(() => channelMessages(ide.received, 'ide-bridge.dashboard').some((m) => m.state?.focus === 'login'));
    const replaced = await call('ide_dashboard_update', { state: { only: 1 }, replace: true });
    assert.deepEqual(replaced.state, { only: 1 });
    assert.deepEqual((await call('ide_dashboard_state')).state, { only: 1 });
  });

  it('refuses a dashboard state with keys that reach prototypes', async () => {
    const error = await fail('ide_dashboard_update', JSON.parse('{"state": {"a": {"__proto__": {"polluted": true}}}}'));
    assert.equal(error.code, 'IDE_STATE_INVALID');
    assert.equal(({} as any).polluted, undefined);
  });

  it('ide_bridge_status says connected, since when, and the queue and breaker', async () => {
    const status = await ide.status();
    assert.equal(status.connected, true);
    assert.equal(status.state, 'open');
    assert.equal(status.retries, 0);
    assert.equal(status.queueLength, 0);
    assert.equal(status.breaker, 'closed');
    assert.equal(status.lastError, null);
    assert.ok(Date.parse(status.since) <= Date.now());
    assert.ok(status.cache.builds >= 3);
  });

  it('refuses arguments outside the schemas', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['ide_chat_send', { sessionId: 'sess-demo' }],
      ['ide_chat_send', { sessionId: 'sess-demo', message: '' }],
      ['ide_chat_send', { sessionId: '../etc', message: 'x' }],
      ['ide_chat_history', { sessionId: 'sess-demo', limit: 0 }],
      ['ide_session_create', { name: 'x'.repeat(201) }],
      ['ide_build_logs', { buildId: 'build-1', tail: 'all' }],
      ['ide_dashboard_metrics', { period: '30d' }],
      ['ide_dashboard_update', { state: [] }],
      ['ide_session_list', { extra: true }],
    ];
    for (const [name, args] of cases) assert.equal((await fail(name, args)).code, 'INVALID_ARGUMENTS', `${name} ${JSON.stringify(args)}`);
  });
});
