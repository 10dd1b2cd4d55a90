import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallPipeline } from '../catalog/call-pipeline.js';
import { DurationTallies, PairCounts } from './call-tallies.js';
import { DURATION_BUCKETS } from './metrics.js';

/**
 * Plugin routes (`ctx.http.route`) in a gateway's metrics registry, beside the tool calls.
 * A request is labelled with its route as declared (`GET /plugins/board/items/:id`), never
 * the path asked for: only the routes the plugins declared can appear.
 */
export function addRouteMetrics(registry: Registry, pipeline: CallPipeline): void {
  // Counted in plain maps, handed to prom-client at each scrape, as tool calls are (call-tallies.ts).
  const requests = new PairCounts(['route', 'outcome']);
  const latency = new DurationTallies('route', DURATION_BUCKETS);
  new Counter({
    name: 'mcp_gateway_route_requests_total',
    help: 'Plugin route requests by route (its method and path as declared) and outcome (ok or the error code).',
    labelNames: ['route', 'outcome'] as const,
    registers: [registry],
    collect() {
      requests.fill(this);
    },
  });
  new Histogram({
    name: 'mcp_gateway_route_duration_seconds',
    help: 'Plugin route request duration, the checks of the key, query and body included, by route.',
    labelNames: ['route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
    collect() {
      latency.fill(this);
    },
  });
  pipeline.observe((call) => {
    if (call.kind !== 'route') return;
    requests.add(call.tool, call.outcome);
    latency.observe(call.tool, call.durationMs / 1000);
  });
}
