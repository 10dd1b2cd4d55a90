import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconnectCeilingMs } from '../../../plugins/ide-bridge/backoff.js';
import { ideBackend, ideGateway, waitFor } from './ide-helpers.js';

const BASE = 100;
const MAX = 800;
/** How much later than planned an attempt may reach the backend: a loaded machine's timers and a local connect. */
const LATE_MS = 1500;

describe('ide-bridge reconnection', () => {
  it('waits equal-jitter delays under a doubling ceiling between attempts, as measured at the backend', async () => {
    const backend = await ideBackend();
    backend.unavailable = true;
    const ide = await ideGateway(backend.url, { reconnect: { baseMs: BASE, maxMs: MAX } });
    await waitFor(() => backend.attempts.length >= 7, 20_000);
    const status = await ide.status();
    const attempts = backend.attempts.slice(0, status.attempts).map((a) => a.at);
    const delays: number[] = status.recentDelaysMs;
    assert.ok(status.attempts <= 10 && delays.length >= attempts.length - 1, JSON.stringify(status));
    assert.equal(status.connected, false);
    assert.match(status.lastError, /503/);
    for (let i = 0; i + 1 < attempts.length; i++) {
      const gap = attempts[i + 1]! - attempts[i]!;
      const planned = delays[i]!;
      const ceiling = reconnectCeilingMs(i + 1, BASE, MAX);
      assert.ok(planned <= ceiling && planned >= Math.floor(ceiling / 2), `delay ${i + 1}: ${planned} not within [${ceiling / 2}, ${ceiling}]`);
      assert.ok(gap >= planned - 5 && gap <= planned + LATE_MS, `attempt ${i + 2} came ${gap} ms after the previous one; ${planned} ms was planned`);
    }
    // Jitter: not every wait is the same, and the ceilings really grow.
    assert.ok(new Set(delays).size > 1, `delays ${delays}`);
    assert.ok(delays.slice(3).some((d) => d > BASE), `delays ${delays}`);
  });

  it('comes back after the backend restarts on its port; the cache answers (stale) meanwhile and survives', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { reconnect: { baseMs: BASE, maxMs: MAX } });
    await ide.connected();
    assert.equal((await ide.call('ide_build_list')).builds.length, 3);
    await backend.stop();
    await ide.until((s) => !s.connected);
    const down = await ide.call('ide_build_list');
    assert.equal(down.stale, true);
    assert.deepEqual(down.builds.map((b: any) => b.id), ['build-2', 'build-1', 'build-3']);
    assert.equal((await ide.call('ide_build_status', { buildId: 'build-1' })).build.status, 'success');
    await backend.start();
    await ide.connected();
    // The backoff starts over once the connection has held for reconnect.maxMs.
    const status = await ide.until((s) => s.retries === 0);
    assert.equal(status.lastError, null);
    const up = await ide.call('ide_build_list');
    assert.equal(up.stale, false);
  });

  it('three connected gateways that lose the backend do not storm it, and each comes back once', async () => {
    const backend = await ideBackend();
    const gateways = await Promise.all([1, 2, 3].map(() => ideGateway(backend.url, { reconnect: { baseMs: BASE, maxMs: MAX } })));
    for (const ide of gateways) await ide.until((s) => s.connected && s.retries === 0);
    const opened = backend.attempts.length;
    backend.unavailable = true;
    backend.dropConnections();
    await new Promise((r) => setTimeout(r, 3000));
    const during = backend.attempts.slice(opened);
    // Equal jitter, 100 ms doubling to 800: waits of 50-100, 100-200, 200-400, then 400-800 ms,
    // so at most 8 attempts each in 3 s. A reconnect loop without backoff makes hundreds.
    assert.ok(during.length >= 3 && during.length <= 24, `${during.length} attempts in 3 s`);
    assert.ok(during.every((a) => a.outcome === 'unavailable'));
    for (const ide of gateways) {
      const { recentDelaysMs, connected } = await ide.status();
      assert.equal(connected, false);
      recentDelaysMs.forEach((d: number) => assert.ok(d <= MAX));
    }
    const before = backend.attempts.length;
    backend.unavailable = false;
    for (const ide of gateways) await ide.connected();
    assert.equal(backend.attempts.length - before, 3, 'one attempt each once the backend is back');
    assert.ok(backend.attempts.slice(before).every((a) => a.outcome === 'open'));
  });
});
