// Workers: agents this gateway starts as child processes, from the kinds the config names.
import type { ToolDefinition } from '../../../core/index.js';
import type { Collab } from '../collab.js';
import { isLive, toView, type Worker } from '../workers/worker.js';
import { commitInput, commitOutput, dismissInput, dismissOutput, listInput, listOutput, outputInput, outputOutput, sendInputInput, sendInputOutput, spawnInput, spawnOutput } from './worker-schemas.js';

export const collabSpawnWorker = {
  name: 'collab_spawn_worker',
  title: 'Spawn a worker',
  description:
    'Starts an agent as a child process of the gateway, from a worker kind the config names (plugins.collab.config.workers.kinds: its command, environment, limits); you are its driver and get its alerts. ' +
    'It is registered as an agent (kind worker), works in its own git worktree (branch collab/<name>) when the workspace is a git repository, and finds its name, its task and the gateway address in its environment. ' +
    'With task_id the task is assigned to it before it starts (not a task another agent has in progress); whenever it ends (exits, fails, is dismissed) a task it did not finish goes back to pending for anyone, its locks for it released. Its health is watched: silent (no output, no collab call) for degradedAfterSeconds it is degraded, for unhealthyAfterSeconds it is restarted, and after its restarts it fails: its task goes back to pending and you get an alert. ' +
    'Errors: COLLAB_WORKER_KIND_UNKNOWN, COLLAB_WORKER_LIMIT, COLLAB_WORKER_NAME_TAKEN, COLLAB_AGENT_NAME_RESERVED, COLLAB_TASK_NOT_FOUND, COLLAB_TRANSITION_INVALID (the task is completed or cancelled, or in progress with another agent), COLLAB_BUSY (the task changed meanwhile: spawn again), COLLAB_WORKTREE_FAILED, COLLAB_AGENT_REQUIRED, COLLAB_NOT_PERMITTED, and the process plugin\'s PROCESS_NOT_ALLOWED, PROCESS_COMMAND_NOT_FOUND, PROCESS_LIMIT_REACHED.',
  inputSchema: { ...spawnInput, examples: [{ kind: 'tester', input: 'Run the tests and report.\n' }] },
  outputSchema: spawnOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

export const collabListWorkers = {
  name: 'collab_list_workers',
  title: 'List workers',
  description:
    'Lists the workers this gateway started: status (starting, running, degraded, unhealthy, restarting, exited, failed, dismissed), restarts, pid, task, seconds since its last output and its last collab call, worktree and branch. Errors: none.',
  inputSchema: { ...listInput, examples: [{}, { live_only: true }] },
  outputSchema: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabSendWorkerInput = {
  name: 'collab_send_worker_input',
  title: 'Send input to a worker',
  description:
    "Writes text to a running worker's stdin (its driver only); read the answer with collab_worker_output. Errors: COLLAB_WORKER_NOT_FOUND, COLLAB_WORKER_NOT_RUNNING, COLLAB_NOT_PERMITTED, COLLAB_AGENT_REQUIRED.",
  inputSchema: { ...sendInputInput, examples: [{ name: 'system', input: 'status\n' }] },
  outputSchema: sendInputOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabWorkerOutput = {
  name: 'collab_worker_output',
  title: 'Read a worker\'s output',
  description:
    "The latest output of a worker (its current or last run): up to max_bytes (default 2048, at most 16384) of stdout and of stderr, control characters removed. Use it to see what a worker does, or why it failed. Errors: COLLAB_WORKER_NOT_FOUND.",
  inputSchema: { ...outputInput, examples: [{ name: 'tester-1' }, { name: 'tester-1', max_bytes: 8192 }] },
  outputSchema: outputOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabDismissWorker = {
  name: 'collab_dismiss_worker',
  title: 'Dismiss a worker',
  description:
    'Stops a worker (its driver only): SIGTERM, then SIGKILL after 2 s. With commit: true its worktree is committed first (message, default "Work of <name>"); then the worktree is removed — uncommitted changes with it — and the branch collab/<name> kept. Its unfinished task goes back to pending for anyone. ' +
    'Errors: COLLAB_WORKER_NOT_FOUND, COLLAB_NOT_PERMITTED, COLLAB_WORKTREE_FAILED, COLLAB_AGENT_REQUIRED.',
  inputSchema: { ...dismissInput, examples: [{ name: 'system', commit: true, message: 'Tests pass' }] },
  outputSchema: dismissOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabCommitWorker = {
  name: 'collab_commit_worker',
  title: "Commit a worker's worktree",
  description:
    "Commits every change in a worker's worktree to its branch collab/<name> (never pushed), authored by the worker; its driver or the worker itself may. Nothing to commit is an answer (committed: false), not an error. " +
    'Errors: COLLAB_WORKER_NOT_FOUND, COLLAB_NOT_PERMITTED, COLLAB_WORKTREE_FAILED, COLLAB_AGENT_REQUIRED.',
  inputSchema: { ...commitInput, examples: [{ name: 'system', message: 'Add the parser tests' }] },
  outputSchema: commitOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

/** Terminal control (colours, cursor moves) and other control characters, but not newlines and tabs. */
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function registerWorkerTools({ ctx, identity, workers }: Collab): void {
  const ownWorker = (worker: Worker, acting: string, alsoItself: boolean) => {
    if (acting === worker.driver || (alsoItself && acting === worker.name)) return;
    throw ctx.error('COLLAB_NOT_PERMITTED', `Worker "${worker.name}" is driven by "${worker.driver}"${alsoItself ? ' (or acts for itself)' : ''}; "${acting}" may not do this.`, { worker: worker.name, driver: worker.driver, agent: acting });
  };

  ctx.tool(collabSpawnWorker, async (args, call) => {
    workers.kindOf(args.kind);
    if (args.name !== undefined) identity.checkName(args.name);
    const driver = await identity.acting(call, args.agent);
    const worker = await workers.spawn({ kind: args.kind, driver, name: args.name, taskId: args.task_id, input: args.input });
    return toView(worker);
  });

  ctx.tool(collabListWorkers, (args) => ({ workers: workers.list().filter((w) => !args.live_only || isLive(w)).map((w) => toView(w)) }));

  ctx.tool(collabSendWorkerInput, async (args, call) => {
    const worker = workers.get(args.name);
    ownWorker(worker, await identity.acting(call, args.agent), false);
    await workers.input(worker, args.input, call.signal);
    return { name: worker.name, chars: args.input.length };
  });

  ctx.tool(collabWorkerOutput, (args) => {
    const worker = workers.get(args.name);
    const tail = (stream: 'stdout' | 'stderr') => (worker.handle?.tail(stream, args.max_bytes) ?? '').replace(CONTROL, '');
    return { name: worker.name, status: worker.status, stdout: tail('stdout'), stderr: tail('stderr') };
  });

  ctx.tool(collabDismissWorker, async (args, call) => {
    const worker = workers.get(args.name);
    const acting = await identity.acting(call, args.agent);
    ownWorker(worker, acting, false);
    const commit = await workers.dismiss(worker, acting, args.commit ? (args.message ?? `Work of ${worker.name}`) : undefined);
    return { worker: toView(worker), commit };
  });

  ctx.tool(collabCommitWorker, async (args, call) => {
    const worker = workers.get(args.name);
    ownWorker(worker, await identity.acting(call, args.agent), true);
    const result = await workers.commit(worker, args.message);
    return { name: worker.name, branch: worker.worktree?.branch ?? null, ...result };
  });
}
