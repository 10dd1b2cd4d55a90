// Tasks: create, list, get, update by the state machine, replay.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { ANYONE } from '../model.js';
import { countDependents, dependencyRefsOf, dependentRefsOf } from '../store/task-dependency-store.js';
import { taskNotes } from '../store/task-note-store.js';
import { listTaskRows } from '../store/task-store.js';
import { publishTask } from '../tasks/bookkeeping.js';
import { createTask } from '../tasks/create-task.js';
import { loadTask, toTasks } from '../tasks/task-rows.js';
import { replayTask, updateTask } from '../tasks/update-task.js';
import {
  createTaskInput,
  getTaskInput,
  getTaskOutput,
  listTasksInput,
  listTasksOutput,
  replayTaskInput,
  taskChangeOutput,
  taskResultOutput,
  updateTaskInput,
} from './task-schemas.js';

/** Dependents collab_get_task lists; collab_list_tasks {depends_on} pages through the rest. */
const DEPENDENTS_SHOWN = 50;

const writes = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const reads = { readOnlyHint: true, openWorldHint: false } as const;

export const collabCreateTask = {
  name: 'collab_create_task',
  title: 'Create a task',
  description: 'Creates a pending task for an agent, who is notified, or for any agent to claim with collab_claim_next.',
  inputSchema: { ...createTaskInput, examples: [{ title: 'Document the lock tools', priority: 2, relevant_files: ['README.md'], constraints: ['no new dependencies'] }] },
  outputSchema: taskResultOutput,
  annotations: writes,
} as const satisfies ToolDefinition;

export const collabListTasks = {
  name: 'collab_list_tasks',
  title: 'List tasks',
  description: 'Lists tasks, oldest first, by status, assignee, creator, plan or dependency. To pick your next task, use collab_claim_next.',
  inputSchema: { ...listTasksInput, examples: [{ status: 'pending' }, { assignee: 'alice', exact: true, status: 'in_progress' }] },
  outputSchema: listTasksOutput,
  annotations: reads,
} as const satisfies ToolDefinition;

export const collabGetTask = {
  name: 'collab_get_task',
  title: 'Get a task',
  description: 'One task with its dependencies, the first tasks waiting for it, and its shared notes.',
  inputSchema: { ...getTaskInput, examples: [{ id: 1 }] },
  outputSchema: getTaskOutput,
  annotations: reads,
} as const satisfies ToolDefinition;

export const collabUpdateTask = {
  name: 'collab_update_task',
  title: 'Update a task',
  description:
    "Changes a task's status, assignee, priority or dependencies: only its assignee or creator may, but anyone may take a task for any. Start it only once its dependencies are completed, with no other task in progress.",
  inputSchema: { ...updateTaskInput, examples: [{ id: 9007199254740991, status: 'in_progress' }, { id: 9007199254740991, blocked_by: 'waiting for the schema review' }] },
  outputSchema: taskChangeOutput,
  annotations: { ...writes, destructiveHint: true },
} as const satisfies ToolDefinition;

export const collabReplayTask = {
  name: 'collab_replay_task',
  title: 'Replay a task',
  description: 'Puts a blocked or cancelled task back to pending, progress cleared, for any agent unless reassign_to or keep says otherwise.',
  inputSchema: { ...replayTaskInput, examples: [{ id: 9007199254740991 }, { id: 9007199254740991, keep: true }] },
  outputSchema: taskChangeOutput,
  annotations: { ...writes, destructiveHint: true },
} as const satisfies ToolDefinition;

export function registerTaskTools(collab: Collab): void {
  const { ctx, store, identity } = collab;

  ctx.tool(collabCreateTask, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    const task = await createTask(collab, args, by);
    publishTask(ctx, 'created', task, by);
    return { task };
  });

  ctx.tool(collabListTasks, async (args) => {
    const filter = {
      status: args.status,
      assignees: args.assignee === undefined ? undefined : args.exact ? [args.assignee] : [args.assignee, ANYONE],
      created_by: args.created_by,
      kind: args.kind,
      plan_id: args.plan_id,
      depends_on: args.depends_on,
      after_id: args.cursor === undefined ? undefined : Number(args.cursor),
    };
    // One more than asked: whether another page follows.
    const rows = await listTaskRows(store.db, filter, args.limit + 1);
    const page = rows.slice(0, args.limit);
    const tasks = await toTasks(store.db, page);
    return { tasks, count: tasks.length, ...(rows.length > args.limit ? { next_cursor: String(page.at(-1)!.id) } : {}) };
  });

  ctx.tool(collabGetTask, async (args) => {
    const task = await loadTask(store.db, ctx.error, args.id);
    const dependencies = await dependencyRefsOf(store.db, args.id);
    // Any number of tasks may wait for one: the first few here, all of them through collab_list_tasks {depends_on}.
    const dependents = await dependentRefsOf(store.db, args.id, DEPENDENTS_SHOWN);
    const dependentsTotal = await countDependents(store.db, args.id);
    const notes = await taskNotes(store.db, args.id);
    return { task, dependencies, dependents, dependents_total: dependentsTotal, notes };
  });

  ctx.tool(collabUpdateTask, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    const { id, agent: _agent, ...update } = args;
    const { task, before, released } = await updateTask(collab, id, update, by);
    publishTask(ctx, 'updated', task, by, before);
    return { task, released_locks: released };
  });

  ctx.tool(collabReplayTask, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    const { task, before, released } = await replayTask(collab, args.id, { to: args.reassign_to, keep: args.keep }, by);
    publishTask(ctx, 'replayed', task, by, before);
    return { task, released_locks: released };
  });
}
