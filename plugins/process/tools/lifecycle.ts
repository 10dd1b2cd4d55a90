// process_start, process_stop, process_kill: the life of a long-running process.
import type { ToolDefinition } from '@mcp-gateway/core';
import { toView } from '../process-store.js';
import { commandProperties, idSchema, type ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const MAX_GRACE_MS = 120_000;

const processStart = {
  name: 'process_start',
  title: 'Start a process',
  description:
    'Starts a long-running process (dev server, watcher) in the background and returns its id. ' +
    'Read its output with process_output, write to its stdin with process_input, end it with process_stop. ' +
    'For a command whose result you want, use process_run.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {
      ...commandProperties,
      tags: {
        type: 'object',
        propertyNames: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
        additionalProperties: { type: 'string', maxLength: 256 },
        maxProperties: 32,
        default: {},
        description: 'Labels to find it again with process_list, e.g. {"role": "dev-server"}.',
      },
      ports: {
        type: 'array',
        items: { type: 'integer', minimum: 1, maximum: 65535 },
        uniqueItems: true,
        maxItems: 32,
        default: [],
        description: 'Ports it will listen on: recorded, not checked.',
      },
    },
    // A harmless process that runs until its stdin closes: it echoes what process_input sends.
    examples: [{ command: 'node', args: ['-e', 'process.stdin.pipe(process.stdout)'], tags: { role: 'echo' } }],
  },
  outputSchema: processResults.process_start,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const processStop = {
  name: 'process_stop',
  title: 'Stop a process',
  description:
    'Stops a process and everything it started (its process group): SIGTERM, then SIGKILL if still running after grace_ms. ' +
    'Returns its final status, exit_code and signal.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: idSchema,
      grace_ms: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_GRACE_MS,
        description: 'Default: 5000, or as the gateway is configured.',
      },
    },
    examples: [{ id: 'proc-0', grace_ms: 2000 }],
  },
  outputSchema: processResults.process_stop,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // Room for the longest grace plus the wait after SIGKILL.
  timeoutMs: MAX_GRACE_MS + 30_000,
} as const satisfies ToolDefinition;

const processKill = {
  name: 'process_kill',
  title: 'Kill a process',
  description:
    'Sends SIGKILL to a process and its whole group at once, for one that does not respond to process_stop. Returns its final view.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: idSchema }, examples: [{ id: 'proc-0' }] },
  outputSchema: processResults.process_kill,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;


export function registerLifecycleTools({ ctx, supervisor, launch }: ProcessToolDeps): void {
  ctx.tool(processStart, async (args, call) => {
    const checked = launch(args);
    const managed = await supervisor.spawn(checked, { kind: 'start', tags: args.tags, ports: args.ports, stdin: 'pipe' });
    call.log.debug({ id: managed.id, pid: managed.identity.pid }, 'process started');
    return toView(supervisor.row(managed.id));
  });

  ctx.tool(processStop, (args) => {
    supervisor.toolRow(args.id);
    return supervisor.stop(args.id, args.grace_ms ?? ctx.config.defaultGraceMs);
  });

  ctx.tool(processKill, (args) => {
    supervisor.toolRow(args.id);
    return supervisor.kill(args.id);
  });
}
