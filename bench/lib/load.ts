import autocannon from 'autocannon';
import { authHeaders } from './connect.js';
import { percentile } from './stats.js';

/** One sample: throughput and per-call latency percentiles (ms). */
export interface Load {
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/**
 * Closed-loop load: `inFlight` workers, each starting its next call as soon as its previous
 * one is answered, for `seconds`. Sequential is `inFlight = 1`. Any failed call fails the
 * benchmark: a number measured over errors would be meaningless.
 */
export async function closedLoop(call: () => Promise<unknown>, inFlight: number, seconds: number): Promise<{ calls: number; perSecond: number; elapsedMs: number }> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let calls = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await call();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsedMs = performance.now() - started;
  return { calls, perSecond: (calls * 1000) / elapsedMs, elapsedMs };
}

/** Exactly `count` calls with `inFlight` workers. */
export async function fixedCount(call: () => Promise<unknown>, inFlight: number, count: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return performance.now() - started;
}

/** Per-call latencies (ms) of `count` sequential calls. */
export async function latencies(call: () => Promise<unknown>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

/** A closed loop that also times every call: latency at a given concurrency, not 1/throughput. */
export async function timedLoop(call: () => Promise<unknown>, inFlight: number, seconds: number): Promise<Load> {
  const times: number[] = [];
  const timed = async () => {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  };
  const { calls, perSecond } = await closedLoop(timed, inFlight, seconds);
  return { calls, perSecond, p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * autocannon POSTing `body` to `url` on `connections` keep-alive connections for `seconds`
 * (whole seconds: autocannon's unit). Latencies come from its per-response event, in
 * fractional ms (its own histogram keeps whole milliseconds, too coarse at these speeds). Any
 * error, non-2xx answer or timeout fails the run.
 */
export async function cannon(url: string, body: string, connections: number, seconds: number, key?: string): Promise<Load> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body, connections, duration: seconds },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => void times.push(responseTime));
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers, ${result.timeouts} timeouts`);
  }
  return { calls: result.requests.total, perSecond: result.requests.total / (result.duration || seconds), p50: percentile(times, 50), p99: percentile(times, 99) };
}
