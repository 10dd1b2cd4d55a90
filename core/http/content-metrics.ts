import type { Registry } from 'prom-client';
import type { CallPipeline } from '../catalog/call-pipeline.js';
import { DURATION_BUCKETS, durationHistogram, pairCounter } from './call-tallies.js';

/**
 * Resource reads, prompt gets and completions in a gateway's metrics registry, beside the tool
 * calls. A read is labelled with the URI or template that served it, not the URI asked for:
 * URIs come from callers, and one label value per URI would grow without bound. For the same
 * reason a name nothing has (an unknown prompt, say) is counted as `(unknown)`.
 */
export function addContentMetrics(registry: Registry, pipeline: CallPipeline): void {
  // Counted in plain maps, handed to prom-client at each scrape, as tool calls are (call-tallies.ts).
  const reads = pairCounter(registry, 'mcp_gateway_resource_reads_total', 'Resource reads by resource (its URI or template) and outcome (ok or the error code), on every transport.', ['resource', 'outcome']);
  const gets = pairCounter(registry, 'mcp_gateway_prompt_gets_total', 'Prompt gets by prompt and outcome (ok or the error code), on every transport.', ['prompt', 'outcome']);
  const completions = pairCounter(registry, 'mcp_gateway_completions_total', 'Completions (completion/complete) by what they complete (a prompt, or a resource template) and outcome, on every transport.', ['ref', 'outcome']);
  const latency = durationHistogram(registry, 'mcp_gateway_content_duration_seconds', 'Resource read, prompt get and completion duration, validation included, by kind (resource, prompt or completion).', 'kind', DURATION_BUCKETS);
  pipeline.observe((call) => {
    if (call.kind === 'resource') reads.add(call.entry ?? '(unknown)', call.outcome);
    else if (call.kind === 'prompt') gets.add(call.plugin === undefined ? '(unknown)' : call.tool, call.outcome);
    else if (call.kind === 'completion') completions.add(call.plugin === undefined ? '(unknown)' : call.tool, call.outcome);
    else return;
    latency.observe(call.kind, call.durationMs / 1000);
  });
}
