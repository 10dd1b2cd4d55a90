import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BreakerRegistry } from '../../../core/runtime/breaker.js';
import type { Breaker } from '../../../core/contract/breaker-types.js';
import type { BreakerDefaults } from '../../../core/config/config.js';
import { ErrorTable, GatewayError, isGatewayError } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';

type Mode = 'ok' | 'fail' | 'missing' | 'hang';

/**
 * A real upstream service. `mode` decides how it answers (a `?mode=` query overrides it for
 * one request); it counts requests received and requests the client aborted before an answer.
 */
class Upstream {
  mode: Mode = 'ok';
  received = 0;
  aborted = 0;
  url = '';
  readonly #held = new Set<ServerResponse>();
  readonly #waiters = new Set<() => void>();
  readonly #server = createServer((req, res) => {
    this.received++;
    res.on('close', () => {
      this.#held.delete(res);
      if (!res.writableFinished) this.aborted++;
      this.#wake();
    });
    this.#wake();
    const mode = (new URL(req.url ?? '/', 'http://x').searchParams.get('mode') as Mode | null) ?? this.mode;
    if (mode === 'ok') res.end('ok');
    else if (mode === 'fail') res.writeHead(500).end('broken');
    else if (mode === 'missing') res.writeHead(404).end('no such thing');
    else this.#held.add(res);
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/`;
  }

  /** Answers every held request with 200. */
  release(): void {
    for (const res of this.#held) res.end('released');
  }

  /** Resolves once `predicate` holds; the test's own timeout bounds the wait. */
  async until(predicate: () => boolean): Promise<void> {
    while (!predicate()) await new Promise<void>((resolve) => this.#waiters.add(resolve));
  }

  reset(mode: Mode = 'ok'): void {
    this.mode = mode;
    this.received = 0;
    this.aborted = 0;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }
}

// The gateway's rule: a GatewayError whose status is below 500 is the caller's mistake.
const errors = new ErrorTable();
errors.add('test', {
  THING_NOT_FOUND: { status: 404, mcp: 'result', description: 'The caller named a thing the service does not have.' },
  UPSTREAM_BROKEN: { status: 502, mcp: 'result', description: 'The service answered with a server error.' },
});
const isCallerError = (err: unknown) => isGatewayError(err) && (errors.get(err.code)?.status ?? 500) < 500;

// Generous timeouts except where a test is about them, so a slow machine does not trip them.
const defaults: BreakerDefaults = {
  timeoutMs: 10_000,
  errorThresholdPercentage: 50,
  resetTimeoutMs: 10_000,
  volumeThreshold: 3,
  rollingCountTimeoutMs: 60_000,
};

const upstream = new Upstream();
const registry = new BreakerRegistry(defaults, createLogger('silent'), isCallerError);
let names = 0;

before(() => upstream.start());
after(async () => {
  registry.shutdown();
  await upstream.close();
});

/** A fresh breaker per test, so counts never leak between tests. */
function breaker(options: Parameters<BreakerRegistry['get']>[1] = {}): Breaker {
  return registry.get(`test:service-${++names}`, options);
}

/** The task a plugin would write: fetch with the breaker's signal, map HTTP errors to codes. */
function request(query = '') {
  return async (signal: AbortSignal): Promise<string> => {
    const res = await fetch(`${upstream.url}${query}`, { signal });
    const body = await res.text();
    if (res.status === 404) throw new GatewayError('THING_NOT_FOUND', body);
    if (!res.ok) throw new GatewayError('UPSTREAM_BROKEN', `HTTP ${res.status}: ${body}`);
    return body;
  };
}

async function failTimes(b: Breaker, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await assert.rejects(b.call(request()), { code: 'UPSTREAM_BROKEN' });
}

async function eventually(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
}

// A wait that never ends fails the suite instead of hanging the run.
describe('breaker against a real HTTP service', { timeout: 20_000 }, () => {
  it('passes a success through and counts it', async () => {
    upstream.reset('ok');
    const b = breaker();
    assert.equal(await b.call(request()), 'ok');
    assert.equal(upstream.received, 1);
    assert.equal(b.state, 'closed');
    assert.deepEqual(b.status(), {
      name: b.name,
      state: 'closed',
      stats: { fires: 1, successes: 1, failures: 0, rejects: 0, timeouts: 0 },
    });
  });

  it('passes a failure through unchanged', async () => {
    upstream.reset('fail');
    const b = breaker();
    const thrown = new Error('plain failure');
    await assert.rejects(b.call(() => Promise.reject(thrown)), (err) => err === thrown);
    await assert.rejects(b.call(request()), { code: 'UPSTREAM_BROKEN', message: 'HTTP 500: broken' });
  });

  it('opens once the failures in the window reach volumeThreshold and exceed the percentage', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 3 });
    await failTimes(b, 2);
    assert.equal(b.state, 'closed', 'below volumeThreshold the percentage is not considered');
    await failTimes(b, 1);
    assert.equal(b.state, 'open');
    assert.equal(upstream.received, 3);
  });

  it('stays closed while failures are at or below errorThresholdPercentage', async () => {
    const b = breaker({ volumeThreshold: 4, errorThresholdPercentage: 50 });
    upstream.reset('ok');
    await b.call(request());
    await b.call(request());
    upstream.mode = 'fail';
    await failTimes(b, 2);
    assert.equal(b.state, 'closed', '2 of 4 is 50 %, not above it');
    await failTimes(b, 1);
    assert.equal(b.state, 'open', '3 of 5 is 60 %');
  });

  it('while open rejects at once with BREAKER_OPEN and never reaches the service', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 2, resetTimeoutMs: 60_000 });
    await failTimes(b, 2);
    upstream.reset('ok');
    let ran = 0;
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        b.call(async (signal) => {
          ran++;
          return request()(signal);
        }),
        (err: GatewayError) => {
          assert.equal(err.code, 'BREAKER_OPEN');
          const details = err.details as { breaker: string; retryAfterMs: number };
          assert.equal(details.breaker, b.name);
          assert.ok(details.retryAfterMs > 0 && details.retryAfterMs <= 60_000, `retryAfterMs ${details.retryAfterMs}`);
          assert.match(err.message, new RegExp(b.name));
          return true;
        },
      );
    }
    assert.equal(ran, 0);
    assert.equal(upstream.received, 0);
    const status = b.status();
    assert.equal(status.state, 'open');
    assert.equal(status.stats.rejects, 3);
    assert.ok(status.retryAfterMs! > 0);
  });

  it('after resetTimeoutMs lets one trial call through, and its success closes the breaker', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 2, resetTimeoutMs: 100 });
    await failTimes(b, 2);
    assert.equal(b.state, 'open');
    await eventually(() => b.state === 'halfOpen');
    upstream.reset('ok');
    assert.equal(await b.call(request()), 'ok');
    assert.equal(upstream.received, 1);
    assert.equal(b.state, 'closed');
    assert.equal(await b.call(request()), 'ok');
  });

  it('a failed trial call opens it again', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 2, resetTimeoutMs: 100 });
    await failTimes(b, 2);
    await eventually(() => b.state === 'halfOpen');
    await failTimes(b, 1);
    assert.equal(b.state, 'open');
    await assert.rejects(b.call(request()), { code: 'BREAKER_OPEN' });
    assert.equal(upstream.received, 3);
  });

  it('while the trial call is in flight, other calls are rejected', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 2, resetTimeoutMs: 100 });
    await failTimes(b, 2);
    await eventually(() => b.state === 'halfOpen');
    upstream.reset('hang');
    const trial = b.call(request());
    await upstream.until(() => upstream.received === 1);
    await assert.rejects(b.call(request()), { code: 'BREAKER_OPEN' });
    upstream.release();
    assert.equal(await trial, 'released');
    assert.equal(b.state, 'closed');
    assert.equal(upstream.received, 1);
  });

  it('a hanging service makes the call fail with BREAKER_TIMEOUT and the request is really aborted', async () => {
    upstream.reset('hang');
    const b = breaker({ timeoutMs: 1000, volumeThreshold: 2 });
    await assert.rejects(b.call(request()), (err: GatewayError) => {
      assert.equal(err.code, 'BREAKER_TIMEOUT');
      assert.deepEqual(err.details, { breaker: b.name, timeoutMs: 1000 });
      return true;
    });
    await upstream.until(() => upstream.aborted === 1);
    assert.equal(upstream.received, 1);
    assert.deepEqual(b.status().stats, { fires: 1, successes: 0, failures: 1, rejects: 0, timeouts: 1 });
    await assert.rejects(b.call(request()), { code: 'BREAKER_TIMEOUT' });
    await upstream.until(() => upstream.aborted === 2);
    assert.equal(b.state, 'open', 'timeouts count as failures');
  });

  it('times out a task that ignores its signal', async () => {
    const b = breaker({ timeoutMs: 50 });
    let seen: AbortSignal | undefined;
    await assert.rejects(
      b.call((signal) => {
        seen = signal;
        return new Promise(() => {});
      }),
      { code: 'BREAKER_TIMEOUT' },
    );
    assert.equal(seen?.aborted, true);
    assert.equal((seen?.reason as GatewayError).code, 'BREAKER_TIMEOUT');
  });

  it('caller errors (status < 500) pass through and never open it', async () => {
    upstream.reset('missing');
    const b = breaker({ volumeThreshold: 2 });
    for (let i = 0; i < 6; i++) await assert.rejects(b.call(request()), { code: 'THING_NOT_FOUND' });
    assert.equal(b.state, 'closed');
    assert.equal(b.status().stats.failures, 0);
    assert.equal(upstream.received, 6);
    upstream.mode = 'fail';
    await failTimes(b, 1);
    assert.equal(b.status().stats.failures, 1);
  });

  it('a per-breaker isCallerError replaces the registry one', async () => {
    upstream.reset('fail');
    const b = breaker({ volumeThreshold: 2, isCallerError: (err) => (err as { code?: string }).code === 'UPSTREAM_BROKEN' });
    await failTimes(b, 4);
    assert.equal(b.state, 'closed');
    assert.equal(b.status().stats.failures, 0);
    upstream.mode = 'missing';
    // 5 failures of 9 fires is the first count above 50 %.
    for (let i = 0; i < 5; i++) await assert.rejects(b.call(request()), { code: 'THING_NOT_FOUND' });
    assert.equal(b.state, 'open');
  });

  it('a call aborted by its caller is cancelled upstream and does not count as a failure', async () => {
    upstream.reset('hang');
    const b = breaker({ volumeThreshold: 1 });
    for (let i = 1; i <= 3; i++) {
      const caller = new AbortController();
      const call = b.call(request(), { signal: caller.signal });
      await upstream.until(() => upstream.received === i);
      caller.abort();
      await assert.rejects(call, { name: 'AbortError' });
      await upstream.until(() => upstream.aborted === i);
    }
    assert.equal(b.state, 'closed');
    assert.equal(b.status().stats.failures, 0);
  });

  it('a caller signal aborted before the call never reaches the service', async () => {
    upstream.reset('ok');
    const b = breaker({ volumeThreshold: 1 });
    await assert.rejects(b.call(request(), { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(upstream.received, 0);
    assert.equal(b.state, 'closed');
  });

  it("one call's cancellation leaves the others in flight alone", async () => {
    upstream.reset('hang');
    const b = breaker();
    const kept = b.call(request());
    const caller = new AbortController();
    const cancelled = b.call(request(), { signal: caller.signal });
    await upstream.until(() => upstream.received === 2);
    caller.abort();
    await assert.rejects(cancelled, { name: 'AbortError' });
    await upstream.until(() => upstream.aborted === 1);
    upstream.release();
    assert.equal(await kept, 'released');
    assert.equal(upstream.aborted, 1);
  });
});

describe('breaker registry', { timeout: 20_000 }, () => {
  it('get returns the same breaker for the same name and ignores later options', async () => {
    upstream.reset('fail');
    const first = registry.get('test:same', { volumeThreshold: 1 });
    assert.equal(registry.get('test:same', { volumeThreshold: 100 }), first);
    assert.equal(registry.get('test:same'), first);
    await failTimes(first, 1);
    assert.equal(registry.get('test:same').state, 'open');
    assert.notEqual(registry.get('test:other'), first);
  });

  it('list reports every breaker with its state and stats', async () => {
    const own = new BreakerRegistry(defaults, createLogger('silent'), isCallerError);
    after(() => own.shutdown());
    upstream.reset('ok');
    await own.get('a:up').call(request());
    upstream.mode = 'fail';
    const down = own.get('b:down', { volumeThreshold: 1, resetTimeoutMs: 60_000 });
    await failTimes(down, 1);
    const [up, downStatus] = own.list();
    assert.deepEqual(up, { name: 'a:up', state: 'closed', stats: { fires: 1, successes: 1, failures: 0, rejects: 0, timeouts: 0 } });
    assert.equal(downStatus!.name, 'b:down');
    assert.equal(downStatus!.state, 'open');
    assert.equal(downStatus!.stats.failures, 1);
    assert.ok(downStatus!.retryAfterMs! > 0);
    assert.equal(own.list().length, 2);
  });

  it('takes unset options from the defaults', async () => {
    const own = new BreakerRegistry({ ...defaults, volumeThreshold: 1 }, createLogger('silent'), isCallerError);
    after(() => own.shutdown());
    upstream.reset('fail');
    const b = own.get('c:defaults', { volumeThreshold: undefined, timeoutMs: undefined });
    await failTimes(b, 1);
    assert.equal(b.state, 'open');
  });

  it('after shutdown, calls are refused without reaching the service', async () => {
    const own = new BreakerRegistry(defaults, createLogger('silent'), isCallerError);
    upstream.reset('ok');
    const b = own.get('d:shutdown');
    assert.equal(await b.call(request()), 'ok');
    own.shutdown();
    await assert.rejects(b.call(request()));
    assert.equal(upstream.received, 1);
  });
});
