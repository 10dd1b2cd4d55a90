import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconnectCeilingMs } from '../../../plugins/ide-bridge/backoff.js';
import { ideBackend, ideGateway, waitFor } from './ide-helpers.js';

const BASE = 100;
const MAX = 800;
/** How much later than planned an attempt may reach the backend: a loaded machine's timers and a local connect. */
const LATE_MS = 400;

describe('ide-bridge reconnection', () => {
  it('waits full-jitter delays under a doubling ceiling between attempts, as measured at the backend', async () => {
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
      assert.ok(planned <= reconnectCeilingMs(i + 1, BASE, MAX), `delay ${i + 1}: ${planned} over its ceiling`);
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
    const status = await ide.status();
    assert.equal(status.retries, 0);
    assert.equal(status.lastError, null);
    const up = await ide.call('ide_build_list');
    assert.equal(up.stale, false);
  });

  it('three gateways that lost the backend do not storm it, and each comes back once', async () => {
    const backend = await ideBackend();
    backend.unavailable = true;
    const gateways = await Promise.all([1, 2, 3].map(() => ideGateway(backend.url, { reconnect: { baseMs: BASE, maxMs: MAX } })));
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    const seconds = new Map<number, number>();
    for (const { at } of backend.attempts) seconds.set(Math.floor((at - started) / 1000), (seconds.get(Math.floor((at - started) / 1000)) ?? 0) + 1);
    // Full jitter under an 800 ms ceiling: about 2.5 attempts a second per gateway, more in the first
    // half second while the ceiling is low. A reconnect loop without backoff makes hundreds.
    for (const [second, count] of seconds) assert.ok(count <= 36, `${count} attempts in second ${second}`);
    for (const ide of gateways) {
      const { recentDelaysMs } = await ide.status();
      recentDelaysMs.forEach((d: number) => assert.ok(d <= MAX));
    }
    const before = backend.attempts.length;
    backend.unavailable = false;
    for (const ide of gateways) await ide.connected();
    assert.equal(backend.attempts.filter((a) => a.outcome === 'open').length, 3);
    assert.ok(backend.attempts.length - before === 3, 'one attempt each once the backend is back');
  });
});

