// The dashboard tools: overview, activity, metrics, and the shared dashboard state.
import type { ToolDefinition } from '@mcp-gateway/core';
import { readState, ShapeRefused, STATE_LIMIT_CHARS } from '../feed.js';
import { dashboardMetrics, periodStart, PERIODS } from '../metrics.js';
import { isForbiddenKey } from '../protocol.js';
import { readThrough, submit, type IdeDeps } from './deps.js';
import { activitySchema, count, limit, output, stale } from './schemas.js';

const stateObject = { type: 'object', description: 'The dashboard state: any JSON object the IDE front end shares.' } as const;
const updatedAt = { type: ['string', 'null'], description: 'When the backend last changed it (ISO 8601); null when never heard.' } as const;
/** Sessions in these states are not counted as active. */
const ENDED = new Set(['closed', 'ended', 'archived', 'deleted', 'failed']);

const dashboardOverview = {
  name: 'ide_dashboard_overview',
  title: 'Dashboard overview',
  description: 'Counts at a glance: repos, services, active chat sessions, builds started in the last 24 h, and whether the bridge is online.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: output({
    overview: output({ repos: count, services: count, activeSessions: count, recentBuilds: count, bridgeOnline: { type: 'boolean' } }),
    stale,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const dashboardActivity = {
  name: 'ide_dashboard_activity',
  title: 'Recent activity',
  description: 'What happened lately on the IDE backend (builds, sessions, deploys...), newest first.',
  inputSchema: { type: 'object', additionalProperties: false, properties: { limit: limit(50, 500) }, examples: [{ limit: 10 }] },
  outputSchema: output({ events: { type: 'array', items: activitySchema }, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const dashboardMetricsTool = {
  name: 'ide_dashboard_metrics',
  title: 'Dashboard metrics',
  description:
    'Build and chat counts over the period before now, from the builds, sessions and chat histories the gateway holds. avgBuildTime is in seconds; successRate is over finished builds.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { period: { enum: PERIODS, default: '24h' } },
    examples: [{ period: '24h' }, { period: '7d' }],
  },
  outputSchema: output({
    period: { enum: PERIODS },
    since: { type: 'string', description: 'The start of the period (ISO 8601).' },
    metrics: output({
      buildsTotal: count,
      buildsSuccess: count,
      buildsFailed: count,
      avgBuildTime: { type: 'number', minimum: 0 },
      agentSessions: count,
      messagesTotal: count,
      successRate: { type: 'number', minimum: 0, maximum: 1 },
    }),
    stale,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const dashboardState = {
  name: 'ide_dashboard_state',
  title: 'Dashboard state',
  description: 'The shared dashboard state the IDE front end shows; ide_dashboard_update changes it.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: output({ state: stateObject, updatedAt, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const dashboardUpdate = {
  name: 'ide_dashboard_update',
  title: 'Update the dashboard state',
  description:
    "Changes the shared dashboard state: merges state's top-level keys into it, or with replace sets it to state. While the backend is down the update waits in a queue (queued: true).",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['state'],
    properties: {
      // The tool's description says what the object does: stateObject's prose is for the answer.
      state: { type: 'object', maxProperties: 1000 },
      replace: { type: 'boolean', default: false },
    },
    examples: [{ state: {} }],
  },
  outputSchema: output({
    state: stateObject,
    updatedAt,
    queued: { type: 'boolean', description: 'true: the backend is down; the update waits in the queue, and state is what it will be if nothing else changes it.' },
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerDashboardTools(deps: IdeDeps): void {
  const { ctx, cache, bridge } = deps;

  ctx.tool(dashboardOverview, async (_args, call) => {
    const asked = await Promise.all([
      readThrough(deps, () => cache.isFresh(cache.overview), { type: 'dashboard.overview', data: {} }, call.signal),
      readThrough(deps, () => cache.sessionListFresh, { type: 'session.list', data: {} }, call.signal),
      readThrough(deps, () => cache.buildListFresh(), { type: 'build.list', data: { limit: cache.limits.builds } }, call.signal),
    ]);
    const dayAgo = periodStart('24h', Date.now());
    const overview = {
      repos: cache.overview?.value.repos ?? new Set([...cache.builds.values()].map((kept) => kept.value.repo)).size,
      services: cache.overview?.value.services ?? 0,
      activeSessions: [...cache.sessions.values()].filter((session) => !ENDED.has(session.status)).length,
      recentBuilds: [...cache.builds.values()].filter((kept) => kept.value.startedAt !== null && Date.parse(kept.value.startedAt) >= dayAgo).length,
      bridgeOnline: bridge.connected,
    };
    return { overview, stale: asked.some(Boolean) };
  });

  ctx.tool(dashboardActivity, async (args, call) => {
    const isStale = await readThrough(deps, () => cache.isFresh(cache.activity), { type: 'dashboard.activity', data: { limit: cache.limits.activity } }, call.signal);
    return { events: cache.activity.value.slice(-args.limit).reverse(), stale: isStale };
  });

  ctx.tool(dashboardMetricsTool, async (args, call) => {
    const asked = await Promise.all([
      readThrough(deps, () => cache.buildListFresh(), { type: 'build.list', data: { limit: cache.limits.builds } }, call.signal),
      readThrough(deps, () => cache.sessionListFresh, { type: 'session.list', data: {} }, call.signal),
    ]);
    const now = Date.now();
    return { period: args.period, since: new Date(periodStart(args.period, now)).toISOString(), metrics: dashboardMetrics(cache, args.period, now), stale: asked.some(Boolean) };
  });

  ctx.tool(dashboardState, async (_args, call) => {
    const isStale = await readThrough(deps, () => cache.isFresh(cache.dashboard), { type: 'dashboard.state', data: {} }, call.signal);
    return { ...cache.dashboard.value, stale: isStale };
  });

  ctx.tool(dashboardUpdate, async (args, call) => {
    const state = args.state as Record<string, unknown>;
    checkState(deps, state);
    const result = await submit(deps, { type: 'dashboard.update', data: { state, replace: args.replace } }, call.signal);
    if (result.queued) {
      const expected = args.replace ? state : { ...cache.dashboard.value.state, ...state };
      return { state: expected, updatedAt: cache.dashboard.value.updatedAt, queued: true };
    }
    // The answer itself, not the cache (which a push may have changed meanwhile); the answer
    // handling has kept it and announced it (ide.dashboard.state.updated), queued or not.
    let answered;
    try {
      answered = readState(result.data);
    } catch (err) {
      if (!(err instanceof ShapeRefused)) throw err;
      throw ctx.error('IDE_BACKEND_ERROR', `The IDE backend accepted the update but answered a state the gateway cannot read (${err.message}); ide_dashboard_state asks again.`, { code: 'unreadable', message: err.message });
    }
    return { ...answered, queued: false };
  });
}

/** Refuses what must not travel as the shared state: keys that reach prototypes, and size. */
function checkState(deps: IdeDeps, state: Record<string, unknown>): void {
  let forbidden: string | undefined;
  const text = JSON.stringify(state, (key, value: unknown) => {
    if (isForbiddenKey(key)) forbidden = key;
    return value;
  });
  if (forbidden !== undefined) throw deps.ctx.error('IDE_STATE_INVALID', `The state holds the key "${forbidden}", which is refused: rename it.`, { key: forbidden });
  if (text.length > STATE_LIMIT_CHARS) throw deps.ctx.error('IDE_STATE_INVALID', `The state is ${text.length} characters as JSON; at most ${STATE_LIMIT_CHARS}.`, { chars: text.length, limit: STATE_LIMIT_CHARS });
}
