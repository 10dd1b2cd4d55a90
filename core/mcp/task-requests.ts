import { MissingRequiredClientCapabilityError, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import { isPlainObject } from '../lib/json.js';
import { isFinal, type TaskRow } from '../tasks/task-store.js';
import { TASK_POLL_INTERVAL_MS, TASKS_EXTENSION, type Tasks } from '../tasks/tasks.js';
import { rpcFailure } from '../sessions/rpc-failure.js';
import { declaresTasks } from './task-calls.js';

type TaskParams = { taskId: string; inputResponses?: Record<string, unknown> };

/** `{taskId, inputResponses?}`, as the SDK's Standard Schema hook for a method it does not know. */
const TASK_PARAMS: StandardSchemaV1<TaskParams> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-gateway',
    validate(value) {
      const params = value as Partial<TaskParams> | undefined;
      if (!isPlainObject(params) || typeof params.taskId !== 'string') return { issues: [{ message: 'taskId must be a string' }] };
      if (params.inputResponses !== undefined && !isPlainObject(params.inputResponses)) return { issues: [{ message: 'inputResponses must be an object' }] };
      return { value: params as TaskParams };
    },
  },
};

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` of the tasks extension, for a 2026-07-28
 * request that declares it (else -32021). A task is found only by the caller it belongs to: to
 * anyone else it does not exist (TASK_NOT_FOUND), so a task id tells nothing of another
 * caller's work. Every gateway on the store answers for every task (tasks.ts).
 */
export function serveTaskRequests(server: Server, tasks: Tasks, errors: ErrorTable, owner: (ctx: ServerContext) => string): void {
  const find = async (params: TaskParams, ctx: ServerContext): Promise<TaskRow> => {
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `Tasks need the ${TASKS_EXTENSION} extension: declare it in the request's _meta clientCapabilities.`,
      );
    }
    const task = await tasks.store.get(params.taskId, owner(ctx));
    if (!task) throw rpcFailure(new GatewayError('TASK_NOT_FOUND', `No task "${params.taskId.slice(0, 64)}" of yours: it never existed, belongs to another caller, or passed its TTL.`), errors);
    return task;
  };
  const on = (method: string, handler: (params: TaskParams, ctx: ServerContext) => Promise<Record<string, unknown>>) =>
    server.setRequestHandler(method as never, { params: TASK_PARAMS } as never, handler as never);

  on('tasks/get', async (params, ctx) => detailedTask(await find(params, ctx)));
  on('tasks/update', async (params, ctx) => {
    const task = await find(params, ctx);
    // The SDK lifts `inputResponses` out of the params of every request, as it does for a retry.
    await tasks.store.deliver(task.taskId, params.inputResponses ?? ctx.mcpReq.inputResponses ?? {});
    tasks.changed(task);
    return {};
  });
  on('tasks/cancel', async (params, ctx) => {
    const task = await find(params, ctx);
    if (!isFinal(task.status)) {
      await tasks.store.update(task.taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.', cancelRequested: true });
      tasks.changed(task);
    }
    return {};
  });
}

/** A task as `tasks/get` shows it: its fields, and what its status carries (the result, the error, the open questions). */
function detailedTask(task: TaskRow): Record<string, unknown> {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs } = task;
  return {
    taskId,
    status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt,
    lastUpdatedAt,
    ttlMs,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
    ...(status === 'completed' ? { result: task.result } : {}),
    ...(status === 'failed' ? { error: task.error } : {}),
    ...(status === 'input_required' ? { inputRequests: task.inputRequests } : {}),
  };
}
