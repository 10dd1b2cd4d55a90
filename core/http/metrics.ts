import { Gauge, Registry } from 'prom-client';
import type { BreakerRegistry } from '../runtime/breaker.js';
import type { Gateway } from '../gateway/gateway.js';
import type { SessionRegistry } from '../sessions/sessions.js';
import type { CallPipeline } from '../catalog/call-pipeline.js';
import { DURATION_BUCKETS, durationHistogram, pairCounter } from './call-tallies.js';
import { addContentMetrics } from './content-metrics.js';
import { addRouteMetrics } from './route-metrics.js';
import { addPluginGauges, ScrapeRegistry } from './plugin-gauges.js';

/** What this file uses of the gateway. */
export type MetricsGateway = Pick<Gateway, 'breakers' | 'calls' | 'log' | 'plugins' | 'sessions'>;

const BREAKER_STATE = { closed: 0, halfOpen: 1, open: 2 } as const;

const registries = new WeakMap<MetricsGateway, Registry>();

/**
 * The Prometheus metrics of a gateway (tool calls, resource reads, prompt gets, breakers,
 * sessions, the gauges plugins report), made with its first HTTP app, the face that serves
 * them at /metrics: `serve` starts HTTP before any other listener, so no call goes uncounted,
 * and `--stdio` (which has no /metrics) never loads prom-client, some 60 ms of every start-up.
 */
export function gatewayMetrics(gateway: MetricsGateway): Registry {
  let registry = registries.get(gateway);
  if (!registry) {
    // A registry of its own (not prom-client's global one), so that several gateways in one
    // process, as in tests, do not mix their numbers.
    const own = new ScrapeRegistry();
    addCoreMetrics(own, gateway.calls, gateway.breakers, gateway.sessions);
    addContentMetrics(own, gateway.calls);
    addRouteMetrics(own, gateway.calls);
    addPluginGauges(own, () => gateway.plugins.loaded, gateway.log);
    registries.set(gateway, (registry = own));
  }
  return registry;
}

/** Tool calls, breakers and sessions. */
function addCoreMetrics(registry: Registry, pipeline: CallPipeline, breakers: BreakerRegistry, sessions: SessionRegistry): void {
  // Counted in plain maps per call, handed to prom-client at each scrape (call-tallies.ts).
  const calls = pairCounter(registry, 'mcp_gateway_tool_calls_total', 'Tool calls by tool and outcome (ok or the error code), on every transport.', ['tool', 'outcome']);
  const latency = durationHistogram(registry, 'mcp_gateway_tool_call_duration_seconds', 'Tool call duration, validation included.', 'tool', DURATION_BUCKETS);
  new Gauge({
    name: 'mcp_gateway_breaker_state',
    help: 'Circuit breaker state: 0 closed, 1 half-open, 2 open.',
    labelNames: ['breaker'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const b of breakers.list()) this.set({ breaker: b.name }, BREAKER_STATE[b.state]);
    },
  });
  new Gauge({
    name: 'mcp_gateway_sessions',
    help: 'Open MCP sessions by transport.',
    labelNames: ['transport'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [transport, count] of Object.entries(sessions.countByTransport())) this.set({ transport }, count);
    },
  });
  // Unknown tool names come from callers: one label value for all of them keeps a flood of
  // random names from growing the metric without bound.
  pipeline.observe((call) => {
    if (call.kind !== 'tool') return;
    const tool = call.plugin === undefined ? '(unknown)' : call.tool;
    calls.add(tool, call.outcome);
    latency.observe(tool, call.durationMs / 1000);
  });
}
