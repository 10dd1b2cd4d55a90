import { Counter, Histogram, type Registry } from 'prom-client';
import type { PromptCatalog } from '../catalog/prompt-catalog.js';
import type { ResourceCatalog } from '../catalog/resource-catalog.js';
import { DurationTallies, PairCounts } from './call-tallies.js';
import { DURATION_BUCKETS } from './metrics.js';

/**
 * Resource reads and prompt gets in a gateway's metrics registry, beside the tool calls.
 * A read is labelled with the URI or template that served it, not the URI asked for: URIs come
 * from callers, and one label value per URI would grow without bound.
 */
export function addContentMetrics(registry: Registry, resources: ResourceCatalog, prompts: PromptCatalog): void {
  // Counted in plain maps, handed to prom-client at each scrape, as tool calls are (call-tallies.ts).
  const reads = new PairCounts(['resource', 'outcome']);
  const gets = new PairCounts(['prompt', 'outcome']);
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
  new Histogram({
    name: 'mcp_gateway_content_duration_seconds',
    help: 'Resource read and prompt get duration, validation included, by kind (resource or prompt).',
    labelNames: ['kind'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
    collect() {
      latency.fill(this);
    },
  });
  resources.observe((read) => {
    reads.add(read.entry ?? '(unknown)', read.outcome);
    latency.observe('resource', read.durationMs / 1000);
  });
  prompts.observe((get) => {
    gets.add(get.plugin === undefined ? '(unknown)' : get.tool, get.outcome);
    latency.observe('prompt', get.durationMs / 1000);
  });
}
