// What a health check concludes about one running worker, from its silence: the time since
// the last sign of life — output, or a collab call of its agent on this gateway (AgentIdentity.lastCall) — counted from
// the start of its current run at most.
import type { Worker, WorkerStatus } from './worker.js';

export interface HealthLimits {
  readonly degradedMs: number;
  readonly unhealthyMs: number;
  readonly timeoutMs: number;
}

export type Verdict =
  | { readonly kind: 'status'; readonly status: Extract<WorkerStatus, 'starting' | 'running' | 'degraded'> }
  | { readonly kind: 'unhealthy'; readonly silentMs: number }
  | { readonly kind: 'timeout' };

export function verdict(worker: Worker, lastOutputMs: number | undefined, limits: HealthLimits, now: number): Verdict {
  if (now - worker.spawnedMs > limits.timeoutMs) return { kind: 'timeout' };
  const signs = [lastOutputMs, worker.heartbeatMs].filter((ms): ms is number => ms !== undefined && ms >= worker.runStartedMs);
  const lastSign = Math.max(worker.runStartedMs, ...signs);
  const silentMs = now - lastSign;
  if (silentMs >= limits.unhealthyMs) return { kind: 'unhealthy', silentMs };
  if (silentMs >= limits.degradedMs) return { kind: 'status', status: 'degraded' };
  return { kind: 'status', status: signs.length > 0 ? 'running' : 'starting' };
}
