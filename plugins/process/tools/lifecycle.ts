// process_start, process_stop, process_kill: the life of a long-running process.
import type { ToolDefinition } from '../../../core/index.js';
import { toView } from '../process-store.js';
import { commandProperties, idSchema, type ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const MAX_GRACE_MS = 120_000;

const processStart = {
  name: 'process_start',
  title: 'Start a process',
  description:
    'Starts a long-running process (dev server, watcher, test run you want to follow) in the background and returns its view with an id. ' +
    'Use process_output to read what it prints, process_input to write to its stdin, process_stop to end it; for a command you just want the result of, use process_run. ' +
    'tags (e.g. {"role": "dev-server", "branch": "main"}) let you find it again with process_list; ports records what it will listen on (see process_free_port). ' +
    'Errors: OUTSIDE_WORKSPACE, PROCESS_CWD_NOT_FOUND, PROCESS_NOT_ALLOWED, PROCESS_COMMAND_NOT_FOUND, PROCESS_LIMIT_REACHED, PROCESS_COMMAND_TOO_LARGE (command and args over maxCommandBytes).',
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
        description: 'Labels to find the process again, e.g. {"role": "api", "stack": "node"}.',
      },
      ports: {
        type: 'array',
        items: { type: 'integer', minimum: 1, maximum: 65535 },
        uniqueItems: true,
        maxItems: 32,
        default: [],
        description: 'TCP ports it will listen on (recorded, not checked).',
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
    'Stops a process and everything it started (its whole process group): SIGTERM, then SIGKILL if it is still running after grace_ms. ' +
    'Returns the final view with status, exit_code and signal. Errors: PROCESS_NOT_FOUND, PROCESS_EXITED (it had already exited; details carry its final view).',
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
        description: "Milliseconds between SIGTERM and SIGKILL; default: the plugin's defaultGraceMs (5000 unless configured).",
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
    'Sends SIGKILL to the process and its whole group at once, for one that does not respond to process_stop. Returns the final view. ' +
    'Errors: PROCESS_NOT_FOUND, PROCESS_EXITED.',
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
