import { Counter, Histogram, type Registry } from 'prom-client';
import type { PromptCatalog } from '../catalog/prompt-catalog.js';
import type { ResourceCatalog } from '../catalog/resource-catalog.js';
import { DURATION_BUCKETS } from './metrics.js';

/**
 * Resource reads and prompt gets in a gateway's metrics registry, beside the tool calls.
 * A read is labelled with the URI or template that served it, not the URI asked for: URIs come
 * from callers, and one label value per URI would grow without bound.
 */
export function addContentMetrics(registry: Registry, resources: ResourceCatalog, prompts: PromptCatalog): void {
  const reads = new Counter({
    name: 'mcp_gateway_resource_reads_total',
    help: 'Resource reads by resource (its URI or template) and outcome (ok or the error code), on every transport.',
    labelNames: ['resource', 'outcome'] as const,
    registers: [registry],
  });
  const gets = new Counter({
    name: 'mcp_gateway_prompt_gets_total',
    help: 'Prompt gets by prompt and outcome (ok or the error code), on every transport.',
    labelNames: ['prompt', 'outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mcp_gateway_content_duration_seconds',
    help: 'Resource read and prompt get duration, validation included, by kind (resource or prompt).',
    labelNames: ['kind'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  resources.observe((read) => {
    reads.inc({ resource: read.entry ?? '(unknown)', outcome: read.outcome });
    latency.observe({ kind: 'resource' }, read.durationMs / 1000);
  });
  prompts.observe((get) => {
    gets.inc({ prompt: get.plugin === undefined ? '(unknown)' : get.tool, outcome: get.outcome });
    latency.observe({ kind: 'prompt' }, get.durationMs / 1000);
  });
}
