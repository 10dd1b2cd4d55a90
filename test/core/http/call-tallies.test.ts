// Calls are counted in plain maps and handed to prom-client at each scrape: the scraped text
// must be exactly what prom-client makes when it counts every call itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, DurationTallies, PairCounts } from '../../../core/http/call-tallies.js';

/** The same metrics twice: counted by prom-client per call, and by the tallies at scrape. */
function pair() {
  const direct = new Registry();
  const directCalls = new Counter({ name: 'calls_total', help: 'Calls.', labelNames: ['tool', 'outcome'], registers: [direct] });
  const directLatency = new Histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['tool'], buckets: DURATION_BUCKETS, registers: [direct] });
  const tallied = new Registry();
  const calls = new PairCounts(['tool', 'outcome']);
  const latency = new DurationTallies('tool', DURATION_BUCKETS);
  new Counter({ name: 'calls_total', help: 'Calls.', labelNames: ['tool', 'outcome'], registers: [tallied], collect() { calls.fill(this); } });
  new Histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['tool'], buckets: DURATION_BUCKETS, registers: [tallied], collect() { latency.fill(this); } });
  const record = (tool: string, outcome: string, seconds: number) => {
    directCalls.inc({ tool, outcome });
    directLatency.observe({ tool }, seconds);
    calls.add(tool, outcome);
    latency.observe(tool, seconds);
  };
  return { direct, tallied, record };
}

describe('call tallies', () => {
  it('scrape as prom-client counts: series order, counts, exact buckets and sum', async () => {
    const { direct, tallied, record } = pair();
    assert.equal(await tallied.metrics(), await direct.metrics(), 'nothing counted yet');
    // A fixed pseudo-random sequence: tools and outcomes interleaved, durations on, between and
    // past the bucket bounds.
    let seed = 7;
    const next = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const tools = ['file_read', 'echo', '(unknown)', 'slow_tool'];
    const outcomes = ['ok', 'INVALID_ARGUMENTS', 'TOOL_TIMEOUT'];
    const durations = [...DURATION_BUCKETS, 0, 0.0000123, 0.0042, 0.07, 3.3, 200, 1e6];
    for (let i = 0; i < 2000; i++) {
      const seconds = next() < 0.3 ? durations[Math.floor(next() * durations.length)]! : next() * next() * 10;
      record(tools[Math.floor(next() * tools.length)]!, outcomes[Math.floor(next() * next() * outcomes.length)]!, seconds);
      if (i === 700) assert.equal(await tallied.metrics(), await direct.metrics(), 'mid-way scrape');
    }
    const text = await tallied.metrics();
    assert.equal(text, await direct.metrics());
    assert.match(text, /latency_seconds_bucket\{le="\+Inf",tool="slow_tool"\} \d+/);
    // A scrape changes nothing: the next one, with more calls, still agrees.
    record('echo', 'ok', 0.002);
    record('late_tool', 'ok', 0.5);
    assert.equal(await tallied.metrics(), await direct.metrics(), 'after a further call');
  });
});
