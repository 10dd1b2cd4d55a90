// A worker as this gateway keeps it: in memory, since its process is local to this gateway
// (another gateway of the team can neither watch nor stop it). Its agent row is in the store.
import type { ManagedProcessHandle } from '@mcp-gateway/plugin-process/api';

export const WORKER_STATUSES = ['starting', 'running', 'degraded', 'unhealthy', 'restarting', 'exited', 'failed', 'dismissed'] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** Statuses of a worker that is over: its name and its kind's slot are free again. */
const ENDED: readonly WorkerStatus[] = ['exited', 'failed', 'dismissed'];
export const isLive = (worker: Worker): boolean => !ENDED.includes(worker.status);

export interface Worktree {
  /** The worktree's folder: <dataDir>/worktrees/<name>. */
  readonly path: string;
  /** collab/<name>: kept when the worktree is removed. */
  readonly branch: string;
}

export interface Worker {
  readonly name: string;
  readonly kind: string;
  /** The agent that spawned it: it gets the alerts. */
  readonly driver: string;
  readonly taskId: number | null;
  readonly worktree: Worktree | null;
  /** Where it runs: in its worktree (the workspace's place in it), else the workspace root. */
  readonly cwd: string;
  status: WorkerStatus;
  restarts: number;
  /** The current run; absent before the first start and once it is over. */
  handle?: ManagedProcessHandle;
  readonly spawnedMs: number;
  /** When the current run started: silence is counted from here at most. */
  runStartedMs: number;
  /** The worker agent's last collab call on this gateway, as the last health check read it. */
  heartbeatMs?: number;
  /** Why it ended or was last restarted. */
  reason: string | null;
  exitCode: number | null;
}

/** A worker as collab_list_workers returns it. */
export function toView(worker: Worker, now: number = Date.now()) {
  const output = worker.handle?.lastOutputMs();
  const age = (ms: number | undefined) => (ms === undefined ? null : Math.max(0, Math.round((now - ms) / 1000)));
  return {
    name: worker.name,
    kind: worker.kind,
    driver: worker.driver,
    status: worker.status,
    task_id: worker.taskId,
    pid: worker.handle?.running ? worker.handle.pid : null,
    restarts: worker.restarts,
    worktree: worker.worktree?.path ?? null,
    branch: worker.worktree?.branch ?? null,
    spawned_at: new Date(worker.spawnedMs).toISOString(),
    last_output_age_s: age(output),
    heartbeat_age_s: age(worker.heartbeatMs),
    reason: worker.reason,
    exit_code: worker.exitCode,
  };
}

export type WorkerView = ReturnType<typeof toView>;
