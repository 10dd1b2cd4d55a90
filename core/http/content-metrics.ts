import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallPipeline } from '../catalog/call-pipeline.js';
import { DurationTallies, PairCounts } from './call-tallies.js';
import { DURATION_BUCKETS } from './metrics.js';

/**
 * Resource reads, prompt gets and completions in a gateway's metrics registry, beside the tool
 * calls. A read is labelled with the URI or template that served it, not the URI asked for:
 * URIs come from callers, and one label value per URI would grow without bound. For the same
 * reason a name nothing has (an unknown prompt, say) is counted as `(unknown)`.
 */
export function addContentMetrics(registry: Registry, pipeline: CallPipeline): void {
  // Counted in plain maps, handed to prom-client at each scrape, as tool calls are (call-tallies.ts).
  const reads = new PairCounts(['resource', 'outcome']);
  const gets = new PairCounts(['prompt', 'outcome']);
  const completions = new PairCounts(['ref', 'outcome']);
  const latency = new DurationTallies('kind', DURATION_BUCKETS);
  new Counter({
    name: 'mcp_gateway_resource_reads_total',
    help: 'Resource reads by resource (its URI or template) and outcome (ok or the error code), on every transport.',
    labelNames: ['resource', 'outcome'] as const,
    registers: [registry],
    collect() {
      reads.fill(this);
    },
  });
  new Counter({
    name: 'mcp_gateway_prompt_gets_total',
    help: 'Prompt gets by prompt and outcome (ok or the error code), on every transport.',
    labelNames: ['prompt', 'outcome'] as const,
    registers: [registry],
    collect() {
      gets.fill(this);
    },
  });
  new Counter({
    name: 'mcp_gateway_completions_total',
    help: 'Completions (completion/complete) by what they complete (a prompt, or a resource template) and outcome, on every transport.',
    labelNames: ['ref', 'outcome'] as const,
    registers: [registry],
    collect() {
      completions.fill(this);
    },
  });
  new Histogram({
    name: 'mcp_gateway_content_duration_seconds',
    help: 'Resource read, prompt get and completion duration, validation included, by kind (resource, prompt or completion).',
    labelNames: ['kind'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
    collect() {
      latency.fill(this);
    },
  });
  pipeline.observe((call) => {
    if (call.kind === 'resource') reads.add(call.entry ?? '(unknown)', call.outcome);
    else if (call.kind === 'prompt') gets.add(call.plugin === undefined ? '(unknown)' : call.tool, call.outcome);
    else if (call.kind === 'completion') completions.add(call.plugin === undefined ? '(unknown)' : call.tool, call.outcome);
    else return;
    latency.observe(call.kind, call.durationMs / 1000);
  });
}
