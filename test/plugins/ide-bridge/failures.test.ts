import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ideBackend, ideGateway, waitFor } from './ide-helpers.js';

/** Breakers that open after two failures of two calls, and stay open for the test. */
const QUICK_BREAKERS = { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 };

describe('ide-bridge against a backend that misbehaves', () => {
  it('a stalled backend opens the breaker; reads answer stale and writes fail, each within its timeout', async () => {
    const backend = await ideBackend();
    const requestTimeoutMs = 300;
    const ide = await ideGateway(backend.url, { requestTimeoutMs }, { breakers: QUICK_BREAKERS });
    await ide.connected();
    backend.stall = 'answers';
    const timed = async <T>(work: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const result = await work();
      // Generous: the point is an answer near requestTimeoutMs, not the tool's 60 s limit.
      assert.ok(Date.now() - started < requestTimeoutMs + 3000, `took ${Date.now() - started} ms`);
      return result;
    };
    const read = await timed(() => ide.call('ide_build_status', { buildId: 'build-1' }));
    assert.deepEqual([read.stale, read.build.status], [true, 'unknown']);
    assert.equal((await timed(() => ide.fail('ide_chat_send', { sessionId: 'sess-demo', message: 'hello?' }))).code, 'IDE_BACKEND_TIMEOUT');
    await ide.until((s) => s.breaker === 'open');
    const open = await timed(() => ide.fail('ide_chat_send', { sessionId: 'sess-demo', message: 'again?' }));
    assert.equal(open.code, 'BREAKER_OPEN');
    assert.equal((await timed(() => ide.call('ide_session_list'))).stale, true);
    const health = ide.gateway.status().plugins.find((p) => p.name === 'ide-bridge')!.status!;
    assert.equal(health.ok, false);
    assert.equal((health.detail as any).breaker, 'open');
  });

  it('drops garbage frames with a log line and keeps the connection', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    await ide.connected();
    const attempts = backend.attempts.length;
    const garbage = [
      'not json',
      '[1, 2]',
      '{"type": 5}',
      '{"type": "no.such.type", "data": {}}',
      '{"type": "activity", "data": {"type": "x", "message": "y", "timestamp": "2026-01-01T00:00:00Z", "__proto__": {"polluted": true}}}',
      '{"type": "build.updated", "data": {"build": {"id": "build-x"}}}',
      '{"type": "chat.message", "data": {"role": "user", "content": "no session", "timestamp": "2026-01-01T00:00:00Z"}}',
      '{"type": "response", "data": {}}',
      '{"type": "activity", "data": "text"}',
    ];
    for (const frame of garbage) backend.sendRaw(frame);
    backend.sendRaw(Buffer.from([1, 2, 3]));
    backend.push({ type: 'dashboard.overview', data: { repos: 7, services: 9 } });
    const status = await ide.until((s) => s.droppedFrames === garbage.length + 1);
    assert.equal(status.connected, true);
    assert.equal(backend.attempts.length, attempts, 'no reconnection');
    assert.equal(({} as any).polluted, undefined);
    await waitFor(() => backend.connections === 1);
    // The good frame after them was read.
    assert.equal((await ide.call('ide_dashboard_overview')).overview.services, 9);
  });

  it('a frame over maxPayloadBytes closes that connection, and the bridge comes back', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { maxPayloadBytes: 2048 });
    await ide.connected();
    backend.push({ type: 'activity', data: { type: 'big', message: 'x'.repeat(4096), timestamp: new Date().toISOString() } });
    await waitFor(() => backend.attempts.length === 2);
    await ide.connected();
    assert.equal((await ide.call('ide_session_list')).stale, false);
  });

  it('a refused token is reported by ide_bridge_status and retried only after maxMs/2 to maxMs; another failure clears it', async () => {
    process.env.IDE_BRIDGE_TEST_TOKEN = 'wrong';
    process.env.IDE_BRIDGE_TEST_GOOD_TOKEN = 'right';
    const backend = await ideBackend({ token: 'right' });
    const ide = await ideGateway(backend.url, { tokenEnv: 'IDE_BRIDGE_TEST_TOKEN', reconnect: { baseMs: 10, maxMs: 1000 } });
    const status = await ide.until((s) => s.authRefused);
    assert.match(status.lastError, /401/);
    assert.equal(status.connected, false);
    await new Promise((r) => setTimeout(r, 1500));
    // With baseMs 10 a retry loop would have made dozens; at 500 to 1000 ms apart there are at most four.
    assert.ok(backend.attempts.length <= 4, `${backend.attempts.length} attempts in 1.5 s`);
    assert.ok(backend.attempts.every((a) => a.outcome === 'refused'));
    const later = await ide.status();
    // Random within [maxMs/2, maxMs]: gateways sharing a wrong token do not come back in lockstep.
    assert.ok(later.recentDelaysMs.every((d: number) => d >= 500 && d <= 1000), JSON.stringify(later.recentDelaysMs));
    assert.equal((await ide.fail('ide_chat_send', { sessionId: 'sess-demo', message: 'hi' })).code, 'IDE_BACKEND_REFUSED');
    assert.equal((await ide.call('ide_session_list')).stale, true);
    // The right token gets in.
    const good = await ideGateway(backend.url, { tokenEnv: 'IDE_BRIDGE_TEST_GOOD_TOKEN' });
    await good.connected();
    // A later attempt that fails another way: the token is no longer known to be refused.
    backend.unavailable = true;
    const other = await ide.until((s) => !s.authRefused);
    assert.match(other.lastError, /503/);
  });

  it('a peer that stops answering pings is taken for dead, and the bridge reconnects', async () => {
    const backend = await ideBackend();
    backend.stall = 'reading';
    const ide = await ideGateway(backend.url, { keepAliveMs: 100 });
    const lost: string[] = [];
    ide.gateway.events.subscribe('ide.bridge.disconnected', (event) => void lost.push((event.data as { lastError: string }).lastError));
    await waitFor(() => lost.length > 0);
    assert.match(lost[0]!, /no pong/);
    backend.stall = 'none';
    await ide.until((s) => s.attempts >= 2);
    await ide.connected();
  });

  it('an upgrade that never completes fails after handshakeTimeoutMs and is retried', async () => {
    const backend = await ideBackend();
    backend.stall = 'upgrade';
    const ide = await ideGateway(backend.url, { handshakeTimeoutMs: 200 });
    const status = await ide.until((s) => s.retries >= 2);
    assert.match(status.lastError, /handshake/i);
    assert.ok(backend.attempts.every((a) => a.outcome === 'hung'));
    backend.stall = 'none';
    await ide.connected();
  });

  it('shutdown closes the socket and stops reconnecting', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    await ide.connected();
    await ide.gateway.close();
    await waitFor(() => backend.connections === 0);
    const down = await ideBackend();
    down.unavailable = true;
    const waiting = await ideGateway(down.url, { reconnect: { baseMs: 50, maxMs: 100 } });
    await waitFor(() => down.attempts.length >= 2);
    await waiting.gateway.close();
    const attempts = down.attempts.length + backend.attempts.length;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(down.attempts.length + backend.attempts.length, attempts, 'no attempt after close');
  });
});
