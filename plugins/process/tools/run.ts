// process_run: a command run to completion, for builds, tests and one-off scripts.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Managed } from '../process-supervisor.js';
import { toView } from '../process-store.js';
import { commandProperties, type ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const MAX_RUN_MS = 30 * 60_000;
/** The most a run may take to end after its timeout: the largest configurable grace plus the SIGKILL wait. */
const MAX_STOP_MS = 120_000 + 10_000;
const TAIL_LINES = 100;
const TAIL_BYTES = 16 * 1024;

const processRun = {
  name: 'process_run',
  title: 'Run a command',
  description:
    'Runs a command to completion (build, tests, a script) with empty stdin and returns its exit code and the last 100 lines of stdout and stderr; ' +
    'process_output with its id reads all. Stopped after timeout_ms (timed_out: true). ' +
    'For servers and watchers that keep running, use process_start.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {
      ...commandProperties,
      timeout_ms: {
        type: 'integer',
        minimum: 100,
        maximum: MAX_RUN_MS,
        default: 60_000,
      },
    },
    examples: [{ command: 'node', args: ['--version'] }, { command: 'node', args: ['-e', "process.stdout.write('hello\\n'); process.stderr.write('oops\\n')"], timeout_ms: 10_000 }],
  },
  outputSchema: processResults.process_run,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // The run enforces its own timeout_ms; core's limit only has to be longer than the longest.
  timeoutMs: MAX_RUN_MS + MAX_STOP_MS,
  // A 2026-07-28 client that declares the tasks extension polls a long run instead of holding its request open.
  taskSupport: 'optional',
} as const satisfies ToolDefinition;


export function registerRunTools({ ctx, supervisor, launch }: ProcessToolDeps): void {
  ctx.tool(processRun, async (args, call) => {
    const checked = launch(args);
    const started = Date.now();
    const managed = await supervisor.spawn(checked, { kind: 'run', tags: {}, ports: [], stdin: 'ignore' });
    let timedOut = false;
    const end = (graceMs: number) =>
      supervisor.terminate([managed], graceMs).catch((err: unknown) => call.log.error({ err, id: managed.id }, 'stopping a run failed'));

    const progress = setInterval(() => {
      const elapsed = Date.now() - started;
      const last = lastLine(managed);
      call.progress({ progress: elapsed, total: args.timeout_ms, message: `running for ${Math.round(elapsed / 1000)} s${last ? `: ${last}` : ''}` });
    }, ctx.config.progressIntervalMs);
    const timer = setTimeout(() => {
      timedOut = true;
      void end(ctx.config.defaultGraceMs);
    }, args.timeout_ms);
    // Cancelled by the client, a disconnect or shutdown: the caller has its answer already.
    const onAbort = () => void end(0);
    call.signal.addEventListener('abort', onAbort, { once: true });
    if (call.signal.aborted) onAbort();
    try {
      await managed.exited;
    } finally {
      clearInterval(progress);
      clearTimeout(timer);
      call.signal.removeEventListener('abort', onAbort);
    }

    const view = toView(supervisor.row(managed.id));
    const stdout = managed.logs.stdout.tail(TAIL_LINES, undefined, TAIL_BYTES, true);
    const stderr = managed.logs.stderr.tail(TAIL_LINES, undefined, TAIL_BYTES, true);
    return {
      id: view.id,
      status: view.status,
      exit_code: view.exit_code,
      signal: view.signal,
      timed_out: timedOut,
      duration_ms: Date.now() - started,
      stdout: stdout.text,
      stderr: stderr.text,
      stdout_bytes: stdout.total_bytes,
      stderr_bytes: stderr.total_bytes,
      logs: view.logs,
    };
  });
}

/** The last line printed (stdout, else stderr), for progress messages. */
function lastLine(managed: Managed): string {
  for (const log of [managed.logs.stdout, managed.logs.stderr]) {
    const line = log.tail(1, undefined, 256, false).text.trim();
    if (line !== '') return line.length > 120 ? `${line.slice(0, 117)}...` : line;
  }
  return '';
}
