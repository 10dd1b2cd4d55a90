import type { Registry } from 'prom-client';
import type { CallPipeline } from '../catalog/call-pipeline.js';
import { DURATION_BUCKETS, durationHistogram, pairCounter } from './call-tallies.js';

/**
 * Plugin routes (`ctx.http.route`) in a gateway's metrics registry, beside the tool calls.
 * A request is labelled with its route as declared (`GET /plugins/board/items/:id`), never
 * the path asked for: only the routes the plugins declared can appear.
 */
export function addRouteMetrics(registry: Registry, pipeline: CallPipeline): void {
  // Counted in plain maps, handed to prom-client at each scrape, as tool calls are (call-tallies.ts).
  const requests = pairCounter(registry, 'mcp_gateway_route_requests_total', 'Plugin route requests by route (its method and path as declared) and outcome (ok or the error code).', ['route', 'outcome']);
  const latency = durationHistogram(registry, 'mcp_gateway_route_duration_seconds', 'Plugin route request duration, the checks of the key, query and body included, by route.', 'route', DURATION_BUCKETS);
  pipeline.observe((call) => {
    if (call.kind !== 'route') return;
    requests.add(call.tool, call.outcome);
    latency.observe(call.tool, call.durationMs / 1000);
  });
}
