// ide_dashboard_metrics: counted here, over the records the cache holds, within the period.
import type { IdeCache } from './cache.js';
import { buildOutcome } from './outcome.js';

export const PERIODS = ['1h', '24h', '7d'] as const;
export type Period = (typeof PERIODS)[number];

const PERIOD_MS: Record<Period, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

export interface Metrics {
  buildsTotal: number;
  buildsSuccess: number;
  buildsFailed: number;
  /** Seconds, over the finished builds; 0 when none. */
  avgBuildTime: number;
  agentSessions: number;
  messagesTotal: number;
  /** Successes over finished builds (0 to 1); 0 when none finished. */
  successRate: number;
}

/** The start of `period` before `now`. */
export function periodStart(period: Period, now: number): number {
  return now - PERIOD_MS[period];
}

export function dashboardMetrics(cache: IdeCache, period: Period, now = Date.now()): Metrics {
  const since = periodStart(period, now);
  const within = (time: string | null) => time !== null && Date.parse(time) >= since;
  // A queued build (startedAt null) is counted: it is within any period that ends now.
  const builds = [...cache.builds.values()].map((kept) => kept.value).filter((build) => build.startedAt === null || within(build.startedAt));
  const buildsSuccess = builds.filter((build) => buildOutcome(build.status) === 'complete').length;
  const buildsFailed = builds.filter((build) => buildOutcome(build.status) === 'failed').length;
  const durations = builds.flatMap((build) => (build.duration === null ? [] : [build.duration]));
  const finished = buildsSuccess + buildsFailed;
  let messagesTotal = 0;
  for (const chat of cache.chats.values()) messagesTotal += chat.value.filter((message) => within(message.timestamp)).length;
  return {
    buildsTotal: builds.length,
    buildsSuccess,
    buildsFailed,
    avgBuildTime: durations.length === 0 ? 0 : round(durations.reduce((sum, d) => sum + d, 0) / durations.length),
    agentSessions: [...cache.sessions.values()].filter((session) => within(session.createdAt)).length,
    messagesTotal,
    successRate: finished === 0 ? 0 : round(buildsSuccess / finished),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
