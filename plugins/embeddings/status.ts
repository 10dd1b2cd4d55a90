import type { PluginReport } from '@mcp-gateway/core';
import type { Embedder } from './embedder.js';
import type { ProviderClient } from './provider-client.js';
import type { ProviderSettings } from './settings.js';
import type { VectorCache } from './vector-cache.js';

export interface StatusParts {
  readonly embedder: Embedder;
  readonly settings: ProviderSettings | undefined;
  readonly client: ProviderClient | undefined;
  readonly cache: VectorCache | undefined;
}

/**
 * The plugin's state for gateway_status and /health, and its gauges for /metrics. Cheap: it
 * reads counters. `ok` is false while a configured provider's breaker is open or its vectors
 * have another length than the config says (`problem`): no provider at all is a choice, not a
 * fault (`ready` and `reason` say it).
 */
export function statusReport({ embedder, settings, client, cache }: StatusParts): PluginReport {
  const readiness = embedder.readiness();
  const { hits, misses } = embedder.counts;
  const requests = client?.counts.requests ?? 0;
  const failures = client?.counts.failures ?? 0;
  const entries = cache?.entries ?? 0;
  return {
    ok: settings === undefined || (readiness.ok && client?.mismatch === undefined),
    detail: {
      provider: settings?.provider ?? 'none',
      model: settings?.model ?? null,
      dimensions: settings?.dimensions ?? null,
      url: settings?.shownUrl ?? null,
      space: settings?.space ?? null,
      ready: readiness.ok,
      ...(readiness.reason ? { reason: readiness.reason } : {}),
      ...(client?.mismatch ? { problem: client.mismatch } : {}),
      cache: { enabled: cache !== undefined, entries, hits, misses },
      requests,
      failures,
    },
    gauges: [
      { name: 'ready', help: 'Whether vectors can be had now (1) or not (0: no provider, or its breaker is open).', value: readiness.ok ? 1 : 0 },
      { name: 'requests_total', help: 'Requests sent to the embedding provider since the gateway started.', value: requests },
      { name: 'failures_total', help: 'Requests to the embedding provider that failed, since the gateway started.', value: failures },
      { name: 'cache_hits', help: 'Texts answered from the embeddings cache since the gateway started.', value: hits },
      { name: 'cache_misses', help: 'Texts sent to the embedding provider (not in the cache) since the gateway started.', value: misses },
      { name: 'cache_entries', help: 'Vectors in the embeddings cache (all spaces), as last counted by this gateway.', value: entries },
    ],
  };
}
