// Workers: agents this gateway starts as child processes, from the kinds the config names.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { isLive, toView, type Worker } from '../workers/worker.js';
import { commitInput, commitOutput, dismissInput, dismissOutput, listInput, listOutput, outputInput, outputOutput, sendInputInput, sendInputOutput, spawnInput, spawnOutput } from './worker-schemas.js';

export const collabSpawnWorker = {
  name: 'collab_spawn_worker',
  title: 'Spawn a worker',
  description:
    'Starts an agent of a configured kind as a child process, in its own git worktree (branch collab/<name>), on task_id if given. You drive it and get its alerts; its unfinished task goes back to pending.',
  inputSchema: { ...spawnInput, examples: [{ kind: 'tester', input: 'Run the tests and report.\n' }] },
  outputSchema: spawnOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

export const collabListWorkers = {
  name: 'collab_list_workers',
  title: 'List workers',
  description: 'Lists the workers this gateway started, with status, task, last output and activity, worktree and branch.',
  inputSchema: { ...listInput, examples: [{}, { live_only: true }] },
  outputSchema: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabSendWorkerInput = {
  name: 'collab_send_worker_input',
  title: 'Send input to a worker',
  description: "Writes text to a running worker's stdin (its driver only); read the answer with collab_worker_output.",
  inputSchema: { ...sendInputInput, examples: [{ name: 'system', input: 'status\n' }] },
  outputSchema: sendInputOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabWorkerOutput = {
  name: 'collab_worker_output',
  title: 'Read a worker\'s output',
  description: "A worker's latest stdout and stderr: what it does, or why it failed.",
  inputSchema: { ...outputInput, examples: [{ name: 'tester-1' }, { name: 'tester-1', max_bytes: 8192 }] },
  outputSchema: outputOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabDismissWorker = {
  name: 'collab_dismiss_worker',
  title: 'Dismiss a worker',
  description: 'Stops a worker you drive and removes its worktree, keeping its branch; its unfinished task goes back to pending.',
  inputSchema: { ...dismissInput, examples: [{ name: 'system', commit: true, message: 'Tests pass' }] },
  outputSchema: dismissOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabCommitWorker = {
  name: 'collab_commit_worker',
  title: "Commit a worker's worktree",
  description:
    "Commits every change in a worker's worktree to its branch collab/<name>, never pushed, e.g. before dismissing it. Its driver or the worker may.",
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
