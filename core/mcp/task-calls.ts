import { CLIENT_CAPABILITIES_META_KEY, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CallerRequest } from '../catalog/call-pipeline.js';
import type { ClientLink, LinkRequestOptions } from '../catalog/client-link.js';
import type { CallOutcome } from '../catalog/tool-catalog.js';
import type { Logger } from '../lib/logger.js';
import { TaskRun, type TaskEnd } from '../tasks/task-run.js';
import type { TaskRow } from '../tasks/task-store.js';
import { TASK_AFTER_MS, TASK_POLL_INTERVAL_MS, TASKS_EXTENSION, type Tasks } from '../tasks/tasks.js';
import { requestHooks, type RequestAsking } from './mcp-content.js';

/** The answer of a tools/call whose call ended: its result, or a thrown JSON-RPC error. */
type Answer = (outcome: CallOutcome) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;

/** `resultType: "task"` and the task: what a tools/call that became a task answers. */
export interface CreateTaskResult {
  readonly [key: string]: unknown;
  readonly resultType: 'task';
  readonly taskId: string;
}

/** Whether a 2026-07-28 request declares the tasks extension in its `_meta`. */
export function declaresTasks(ctx: ServerContext): boolean {
  const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return declared?.extensions?.[TASKS_EXTENSION] !== undefined;
}

export interface TaskCall {
  readonly tasks: Tasks;
  readonly log: Logger;
  /** Whose task it is: the caller's binding (the key, else the name the caller goes by). */
  readonly owner: string;
  readonly tool: string;
  readonly required: boolean;
  /** How long the task is kept: at least as long as its call may run. */
  readonly ttlMs: number;
  /** Runs the call with this link and these hooks. */
  readonly run: (client: ClientLink, hooks: Pick<CallerRequest, 'onCancelable' | 'onProgress'>) => Promise<CallOutcome>;
  readonly answer: Answer;
}

/**
 * A tools/call of a tool that supports tasks, from a request that declares the extension. The
 * call runs as any other for TASK_AFTER_MS: if it ends by then, its answer is the answer (for a
 * `required` tool, a task already ended), and questions asked by then go to the client as a
 * round (input-round.ts), answered before any task is made, as the extension asks. If it is
 * still running (and the gateway takes more tasks), it becomes a task: stored before the
 * answer leaves, so that `tasks/get` finds it on any gateway, and answered as CreateTaskResult;
 * the call goes on, detached from the request (whose end no longer cancels it, and whose
 * stream no longer gets its progress or log messages), with its questions asked through the
 * task (task-run.ts), from the moment it is decided, even while the task is being stored.
 */
export async function callMaybeAsTask(ctx: ServerContext, asking: RequestAsking, call: TaskCall): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
  const request = requestHooks(ctx);
  let cancel: (() => void) | undefined;
  let becoming: Promise<TaskRun> | undefined;
  const hooks: Pick<CallerRequest, 'onCancelable' | 'onProgress'> = {
    onCancelable: (cancelCall) => {
      cancel = cancelCall;
      request.onCancelable?.(() => becoming === undefined && cancelCall());
    },
    onProgress: request.onProgress && ((update) => becoming === undefined && request.onProgress!(update)),
  };
  const pending = call.run(taskableLink(asking.client, () => becoming), hooks);
  const early = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), TASK_AFTER_MS).unref())]);
  // Ended, asked a round's questions (the round ends it in a moment), or no room for a task: an answer as usual.
  if (early === undefined && (asking.asked || !call.tasks.admits(call.owner))) return call.answer(await pending);
  if (early !== undefined && (!call.required || asking.asked)) return call.answer(early);

  const taskId = call.tasks.newId();
  becoming = call.tasks.store.create(taskId, call.owner, call.tool, call.ttlMs).then((task) => new TaskRun(call.tasks, task, () => cancel?.(), call.log));
  // Tracked before it is stored, so that a shutdown waits for its record too.
  const recorded = becoming.then(async (run) => run.finish(await taskEnd(await pending, call.answer)));
  call.tasks.track(taskId, call.owner, becoming, recorded);
  let run: TaskRun;
  try {
    run = await becoming;
  } catch (err) {
    // Not stored: the call is answered when it ends, as if it had no task support.
    call.log.warn({ err, tool: call.tool }, 'a task could not be stored; the call is answered when it ends');
    return call.answer(await pending);
  }
  if (early === undefined) return createTaskResult(run.task);
  // A required task whose call already ended: the task as its end left it.
  await recorded;
  return createTaskResult((await call.tasks.store.get(taskId)) ?? run.task);
}

/**
 * The link of a call that may become a task: its questions go through the task once it is one
 * (`run()` says), its log messages stop (the extension carries none); before, the request's own.
 */
function taskableLink(base: ClientLink, becoming: () => Promise<TaskRun> | undefined): ClientLink {
  type Ask = (params: unknown, options: unknown) => Promise<unknown>;
  const through =
    <K extends keyof typeof QUESTION_OF>(method: K) =>
    (params: unknown, options: unknown) => {
      const task = becoming();
      return task ? task.then((run) => run.ask(QUESTION_OF[method], params as Record<string, unknown>, options as LinkRequestOptions)) : (base[method] as Ask)(params, options);
    };
  return {
    ...base,
    createMessage: through('createMessage') as ClientLink['createMessage'],
    elicitInput: through('elicitInput') as ClientLink['elicitInput'],
    listRoots: through('listRoots') as ClientLink['listRoots'],
    log: (params, relatedRequestId) => becoming() === undefined && base.log(params, relatedRequestId),
  };
}

/** The question each asking method of a link puts. */
const QUESTION_OF = { createMessage: 'sampling/createMessage', elicitInput: 'elicitation/create', listRoots: 'roots/list' } as const;

/** How a call's outcome ends its task: its result (an `isError` one too), or the JSON-RPC error it answers. */
async function taskEnd(outcome: CallOutcome, answer: Answer): Promise<TaskEnd> {
  if (!outcome.ok && outcome.error.code === 'CANCELLED') return { status: 'cancelled' };
  try {
    const result = await answer(outcome);
    // A round's questions cannot be a task's result (the task asks through itself from the start).
    if (result.resultType === 'input_required') return { status: 'failed', error: { code: -32603, message: 'The call asked a question as a round after it became a task.' } };
    return { status: 'completed', result: result as Record<string, unknown> };
  } catch (err) {
    const { code, message, data } = err as { code?: unknown; message?: unknown; data?: unknown };
    return { status: 'failed', error: { code: typeof code === 'number' ? code : -32603, message: String(message), ...(data === undefined ? {} : { data }) } };
  }
}

/** The CreateTaskResult of `task`: flat, `resultType: "task"`, the fields of a Task (the SDK adds an empty `content`). */
function createTaskResult(task: Pick<TaskRow, 'taskId' | 'status' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs'>): CreateTaskResult {
  const { taskId, status, createdAt, lastUpdatedAt, ttlMs } = task;
  return { resultType: 'task', taskId, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs: TASK_POLL_INTERVAL_MS };
}
