// The build tools: one build, the list, a build's log.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Build } from '../model.js';
import { readThrough, type IdeDeps } from './deps.js';
import { buildId, buildSchema, limit, output, stale } from './schemas.js';

const buildStatus = {
  name: 'ide_build_status',
  title: 'Build status',
  description: 'One build of the IDE backend: repo, branch, status, duration, start.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['buildId'], properties: { buildId }, examples: [{ buildId: 'build-1' }] },
  outputSchema: output({ build: buildSchema, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const buildList = {
  name: 'ide_build_list',
  title: 'List builds',
  description: 'Builds of the IDE backend, newest first, of one repo or all.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { repo: { type: 'string', minLength: 1, maxLength: 256 }, limit: limit(20, 500) },
    examples: [{}, { repo: 'demo/app', limit: 5 }],
  },
  outputSchema: output({ builds: { type: 'array', items: buildSchema }, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const buildLogs = {
  name: 'ide_build_logs',
  title: 'Build log',
  description: "The last tail lines of a build's log.",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['buildId'],
    properties: { buildId, tail: limit(100, 10_000) },
    examples: [{ buildId: 'build-1', tail: 50 }],
  },
  outputSchema: output({ buildId: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } }, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

/** By start, newest first; not started yet (queued, startedAt null) first of all. */
const newestFirst = (a: Build, b: Build): number => (a.startedAt === null ? -1 : b.startedAt === null ? 1 : b.startedAt.localeCompare(a.startedAt));

export function registerBuildTools(deps: IdeDeps): void {
  const { ctx, cache } = deps;

  ctx.tool(buildStatus, async (args, call) => {
    const isStale = await readThrough(deps, () => cache.isFresh(cache.builds.get(args.buildId)), { type: 'build.status', data: { buildId: args.buildId } }, call.signal, () => cache.builds.get(args.buildId) !== undefined);
    const build = cache.builds.get(args.buildId)?.value ?? { id: args.buildId, repo: '', branch: '', status: 'unknown', duration: null, startedAt: new Date(0).toISOString() };
    return { build, stale: isStale };
  });

  ctx.tool(buildList, async (args, call) => {
    const repo = args.repo;
    const request = { type: 'build.list', data: { ...(repo !== undefined ? { repo } : {}), limit: cache.limits.builds } } as const;
    const isStale = await readThrough(deps, () => cache.buildListFresh(repo), request, call.signal);
    const builds = [...cache.builds.values()]
      .map((kept) => kept.value)
      .filter((build) => repo === undefined || build.repo === repo)
      .sort(newestFirst)
      .slice(0, args.limit);
    return { builds, stale: isStale };
  });

  ctx.tool(buildLogs, async (args, call) => {
    const request = { type: 'build.logs', data: { buildId: args.buildId, tail: cache.limits.logLinesPerBuild } } as const;
    const isStale = await readThrough(deps, () => cache.isFresh(cache.logs.get(args.buildId)), request, call.signal, () => cache.logs.get(args.buildId) !== undefined);
    const lines = cache.logs.get(args.buildId)?.value ?? [];
    return { buildId: args.buildId, lines: lines.slice(-args.tail), stale: isStale };
  });
}
