// Behaviour fixed after review: the breaker counts only what means the backend is unwell, a bad
// record does not empty its list, outcomes are announced once each, reconnection backs off
// against a backend that accepts and closes, events carry checked records, secrets stay out.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import type { GatewayEvent } from '../../../core/index.js';
import { reconnectDelayMs, refusedDelayMs } from '../../../plugins/ide-bridge/backoff.js';
import { shownUrl } from '../../../plugins/ide-bridge/status.js';
import { ideBackend, ideGateway, waitFor } from './ide-helpers.js';

/** A WebSocket server on port 0 that does what `onConnection` says; counts connections. */
async function customServer(onConnection: (ws: WebSocket) => void): Promise<{ url: string; connections: number[] }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const connections: number[] = [];
  wss.on('connection', (ws) => {
    connections.push(Date.now());
    ws.on('error', () => {});
    onConnection(ws);
  });
  after(() => new Promise<void>((r) => { for (const c of wss.clients) c.terminate(); wss.close(() => r()); }));
  return { url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`, connections };
}

const reply = (ws: WebSocket, frame: Record<string, unknown>) => ws.send(JSON.stringify({ timestamp: new Date().toISOString(), ...frame }));

describe('ide-bridge defects found in review', () => {
  it('the breaker (default settings) stays closed on error answers and on a drop with requests in flight', async () => {
    const server = await customServer((ws) => ws.on('message', (d: Buffer) => {
      const env = JSON.parse(d.toString());
      reply(ws, { type: 'error', id: env.id, data: { code: 'invalid', message: 'session closed' } });
    }));
    const ide = await ideGateway(server.url);
    await ide.connected();
    for (let i = 0; i < 12; i++) assert.equal((await ide.fail('ide_chat_send', { sessionId: 'sess-demo', message: 'x' })).code, 'IDE_BACKEND_ERROR');
    assert.equal((await ide.status()).breaker, 'closed');

    const backend = await ideBackend();
    const other = await ideGateway(backend.url, { requestTimeoutMs: 5000 });
    await other.connected();
    backend.stall = 'answers';
    const calls = [other.call('ide_dashboard_overview'), other.call('ide_dashboard_overview')];
    await waitFor(() => backend.received.length >= 6);
    backend.stall = 'none';
    backend.dropConnections();
    await Promise.all(calls);
    await other.connected();
    assert.equal((await other.status()).breaker, 'closed');
    assert.equal((await other.call('ide_session_list')).stale, false);
    assert.equal((await other.call('ide_chat_send', { sessionId: 'sess-demo', message: 'hi' })).sent, true);
  });

  it('one unreadable record is dropped and counted; the rest of the list is kept; a queued build may have no start', async () => {
    const backend = await ideBackend();
    backend.state.builds.set('build-q', { id: 'build-q', repo: 'demo/app', branch: 'main', status: 'queued', duration: null, startedAt: null });
    backend.state.builds.set('build-bad', { id: 'build-bad', repo: 'demo/app', branch: 'main', status: 'running', duration: null, startedAt: null });
    backend.state.sessions.set('sess-long', { id: 'sess-long', name: 'n'.repeat(300), status: 'active', createdAt: new Date().toISOString() });
    const ide = await ideGateway(backend.url);
    await ide.connected();
    const builds = await ide.call('ide_build_list');
    assert.deepEqual(builds.builds.map((b: any) => b.id), ['build-q', 'build-2', 'build-1', 'build-3']);
    assert.equal(builds.stale, false);
    const sessions = await ide.call('ide_session_list');
    assert.deepEqual(sessions.sessions.map((s: any) => s.id), ['sess-demo']);
    assert.equal((await ide.call('ide_dashboard_metrics', { period: '7d' })).metrics.buildsTotal, 4);
    assert.equal((await ide.status()).droppedRecords, 2);
  });

  it('build.complete is announced even when a tool answer saw the outcome first', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    const events: GatewayEvent[] = [];
    ide.gateway.events.subscribe('**', (e) => void events.push(e));
    await ide.connected();
    const build = { id: 'build-race', repo: 'demo/app', branch: 'main', status: 'running', duration: null, startedAt: new Date().toISOString() };
    backend.state.builds.set(build.id, build);
    backend.push({ type: 'build.updated', data: { build } });
    await waitFor(() => events.some((e) => e.channel === 'build.start'));
    const done = { ...build, status: 'success', duration: 3 };
    backend.state.builds.set(build.id, done);
    await ide.call('ide_build_list', { repo: 'demo/app' });
    assert.equal((await ide.call('ide_build_status', { buildId: build.id })).build.status, 'success');
    backend.push({ type: 'build.updated', data: { build: done } });
    await waitFor(() => events.filter((e) => e.channel === 'ide.build.updated').length === 2);
    await waitFor(() => events.some((e) => e.channel === 'build.complete'));
    backend.push({ type: 'build.updated', data: { build: done } });
    await waitFor(() => events.filter((e) => e.channel === 'ide.build.updated').length === 3);
    assert.equal(events.filter((e) => e.channel === 'build.complete').length, 1, 'once');
  });

  it('a backend that accepts and closes at once is reconnected with growing waits', async () => {
    const server = await customServer((ws) => ws.close(1011, 'boom'));
    const ide = await ideGateway(server.url, { reconnect: { baseMs: 100, maxMs: 800 } });
    await new Promise((r) => setTimeout(r, 3000));
    // Waits of 50-100, 100-200, 200-400, then 400-800 ms: at most 9 connections; without the fix, about 40.
    assert.ok(server.connections.length <= 9, `${server.connections.length} connections in 3 s`);
    assert.ok((await ide.status()).recentDelaysMs.some((d: number) => d >= 400));
  });

  it('events carry the checked record, not what the backend sent', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    const events: GatewayEvent[] = [];
    ide.gateway.events.subscribe('ide.activity', (e) => void events.push(e));
    await ide.connected();
    const timestamp = new Date().toISOString();
    backend.push({ type: 'activity', data: { type: 't', message: 'm', timestamp, junk: 'x'.repeat(100_000), extra: { any: 1 } } });
    await waitFor(() => events.length === 1);
    assert.deepEqual((events[0]!.data as any).data, { type: 't', message: 'm', timestamp });
  });

  it('dashboard_update answers the answer; an unreadable one is IDE_BACKEND_ERROR and leaves the state not fresh', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    const updates: GatewayEvent[] = [];
    ide.gateway.events.subscribe('ide.dashboard.state.updated', (e) => void updates.push(e));
    await ide.connected();
    await ide.call('ide_dashboard_update', { state: { a: 'x'.repeat(200_000) } });
    const refused = await ide.fail('ide_dashboard_update', { state: { b: 'y'.repeat(200_000) } });
    assert.equal(refused.code, 'IDE_BACKEND_ERROR');
    assert.equal(updates.length, 1, 'the refused answer is not announced');
    const asked = backend.received.filter((e) => e.type === 'dashboard.state').length;
    await ide.call('ide_dashboard_state');
    assert.equal(backend.received.filter((e) => e.type === 'dashboard.state').length, asked + 1, 'asked again: not fresh');
  });

  it('a queued dashboard update is announced when the backend accepts it', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    const updates: GatewayEvent[] = [];
    ide.gateway.events.subscribe('ide.dashboard.state.updated', (e) => void updates.push(e));
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    assert.equal((await ide.call('ide_dashboard_update', { state: { q: 1 } })).queued, true);
    await backend.start();
    await ide.until((s) => s.connected && s.queueLength === 0);
    await waitFor(() => updates.length === 1);
    assert.deepEqual((updates[0]!.data as any).state, { theme: 'dark', q: 1 });
  });

  it('a write cut off by a disconnect is queued again with its id (queue mode) and carried out once', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { requestTimeoutMs: 5000 });
    await ide.connected();
    backend.answersLost = 1;
    const pending = ide.call('ide_chat_send', { sessionId: 'sess-demo', message: 'cut off' });
    await waitFor(() => backend.received.some((e) => e.type === 'chat.send'));
    backend.dropConnections();
    const result = await pending;
    assert.equal(result.queued, true);
    await ide.until((s) => s.connected && s.queueLength === 0);
    const sends = backend.received.filter((e) => e.type === 'chat.send');
    assert.deepEqual(sends.map((e) => e.id), [result.messageId, result.messageId]);
    assert.equal(backend.state.chats.get('sess-demo').filter((m: any) => m.content === 'cut off').length, 1);
  });

  it('a queued message the backend refuses is announced as ide.queue.dropped', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    const dropped: GatewayEvent[] = [];
    ide.gateway.events.subscribe('ide.queue.dropped', (e) => void dropped.push(e));
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    const queued = await ide.call('ide_chat_send', { sessionId: 'no-such-session', message: 'lost' });
    await backend.start();
    await ide.until((s) => s.connected && s.queueLength === 0);
    await waitFor(() => dropped.length === 1);
    assert.equal((dropped[0]!.data as any).id, queued.messageId);
    assert.equal((dropped[0]!.data as any).code, 'IDE_NOT_FOUND');
  });

  it('a session created while queued is listed at once', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    const created = await ide.call('ide_session_create', { name: 'While down' });
    const listed = await ide.call('ide_session_list');
    assert.ok(listed.sessions.some((s: any) => s.id === created.session.id && s.status === 'creating'));
  });

  it('builds the backend no longer has are forgotten on a whole list', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    await ide.connected();
    assert.equal((await ide.call('ide_build_list')).builds.length, 3);
    backend.state.builds.delete('build-3');
    backend.dropConnections();
    await ide.until((s) => !s.connected);
    await ide.connected();
    assert.deepEqual((await ide.call('ide_build_list')).builds.map((b: any) => b.id), ['build-2', 'build-1']);
  });

  it('credentials and query values stay out of status, events and logs', async () => {
    const backend = await ideBackend();
    const url = backend.url.replace('ws://', 'ws://someone:secret-pw@') + '?token=qs-secret';
    assert.equal(shownUrl(url), `${backend.url}?token=redacted`);
    const ide = await ideGateway(url);
    const seen: unknown[] = [];
    ide.gateway.events.subscribe('ide.bridge.connected', (e) => void seen.push(e.data));
    await ide.connected();
    const shown = JSON.stringify([await ide.status(), seen]);
    assert.ok(!shown.includes('secret'), shown);
  });

  it('equal jitter: every wait is at least half its ceiling; a refused token waits maxMs/2 to maxMs', () => {
    assert.equal(reconnectDelayMs(1, 2000, 30_000, () => 0), 1000);
    assert.equal(reconnectDelayMs(1, 2000, 30_000, () => 0.999), 1999);
    assert.equal(reconnectDelayMs(10, 2000, 30_000, () => 0), 15_000);
    assert.equal(refusedDelayMs(30_000, () => 0), 15_000);
    assert.ok(refusedDelayMs(30_000, () => 0.999) < 30_000);
  });
});
