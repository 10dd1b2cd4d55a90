// Tasks' rows (collab_tasks): the only module with task SQL. Dependencies are in
// task-dependency-store.ts, shared notes in task-note-store.ts.
import type { Insertable, Selectable, Updateable } from '@mcp-gateway/core';
import { ANYONE } from '../model.js';
import type { CollabDb } from './db.js';
import type { CollabTables } from './schema.js';

export type TaskRow = Selectable<CollabTables['collab_tasks']>;
export type NewTaskRow = Insertable<CollabTables['collab_tasks']>;
export type TaskRowChanges = Updateable<CollabTables['collab_tasks']>;

/** The task's row, or undefined. `lock` takes its row lock (inside a transaction). */
export function findTaskRow(db: CollabDb, id: number, lock = false): Promise<TaskRow | undefined> {
  let query = db.selectFrom('collab_tasks').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Whether a task has this id. */
export async function taskExists(db: CollabDb, id: number): Promise<boolean> {
  const row = await db.selectFrom('collab_tasks').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Those of `ids` that name a task. */
export async function existingTaskIds(db: CollabDb, ids: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('collab_tasks').select('id').where('id', 'in', [...ids]).execute();
  return rows.map((row) => row.id);
}

/** The task's assignee, or undefined when no task has the id (read without a lock). */
export async function taskAssignee(db: CollabDb, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('collab_tasks').select('assignee').where('id', '=', id).executeTakeFirst();
  return row?.assignee;
}

/** Stores a new task; answers its row with the id the store gave it. */
export function insertTaskRow(db: CollabDb, values: NewTaskRow): Promise<TaskRow> {
  return db.insertInto('collab_tasks').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Writes `changes` to task `id` (which exists: the caller holds its row); answers the row after. */
export function writeTaskRow(db: CollabDb, id: number, changes: TaskRowChanges): Promise<TaskRow> {
  return db.updateTable('collab_tasks').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Writes `changes` to task `id`, answering nothing. */
export async function updateTaskRow(db: CollabDb, id: number, changes: TaskRowChanges): Promise<void> {
  await db.updateTable('collab_tasks').set(changes).where('id', '=', id).execute();
}

/**
 * Writes `changes` to task `id` only if it still has the status and version it was read
 * with (compare-and-set); answers the row after, or undefined when it changed meanwhile.
 */
export function writeTaskRowIfUnchanged(db: CollabDb, id: number, seen: { status: string; version: number }, changes: TaskRowChanges): Promise<TaskRow | undefined> {
  return db.updateTable('collab_tasks').set(changes).where('id', '=', id).where('status', '=', seen.status).where('version', '=', seen.version).returningAll().executeTakeFirst();
}

/** The agent's task in progress, the most urgent first (priority, then id). */
export function taskInProgressOf(db: CollabDb, agent: string): Promise<TaskRow | undefined> {
  return db.selectFrom('collab_tasks').selectAll().where('assignee', '=', agent).where('status', '=', 'in_progress').orderBy('priority').orderBy('id').executeTakeFirst();
}

/** The id of the agent's task in progress, the lowest id first. */
export async function taskIdInProgressOf(db: CollabDb, agent: string): Promise<number | undefined> {
  const row = await db.selectFrom('collab_tasks').select('id').where('assignee', '=', agent).where('status', '=', 'in_progress').orderBy('id').executeTakeFirst();
  return row?.id;
}

/** Whether the agent holds a task in progress. */
export async function hasTaskInProgress(db: CollabDb, agent: string): Promise<boolean> {
  const row = await db.selectFrom('collab_tasks').select('id').where('assignee', '=', agent).where('status', '=', 'in_progress').executeTakeFirst();
  return row !== undefined;
}

/** A task in progress of the agent's other than `taskId`, the lowest id first. */
export function otherTaskInProgressOf(db: CollabDb, agent: string, taskId: number): Promise<{ id: number; title: string } | undefined> {
  return db.selectFrom('collab_tasks').select(['id', 'title']).where('assignee', '=', agent).where('status', '=', 'in_progress').where('id', '!=', taskId).orderBy('id').executeTakeFirst();
}

/** Pending tasks `agent` may take, best first: its own or anyone's, every dependency completed. */
export function readyTasksFor(db: CollabDb, agent: string, limit: number): Promise<TaskRow[]> {
  return db
    .selectFrom('collab_tasks')
    .selectAll()
    .where('status', '=', 'pending')
    .where('assignee', 'in', [agent, ANYONE])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('collab_task_deps')
            .innerJoin('collab_tasks as dep', 'dep.id', 'collab_task_deps.depends_on')
            .select('dep.id')
            .whereRef('collab_task_deps.task_id', '=', 'collab_tasks.id')
            .where('dep.status', '!=', 'completed'),
        ),
      ),
    )
    .orderBy('priority')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** What collab_list_tasks filters by; `status: 'all'` is every status. */
export interface TaskListFilter {
  status: string;
  /** Tasks assigned to one of these. */
  assignees?: readonly string[] | undefined;
  created_by?: string | undefined;
  kind?: string | undefined;
  plan_id?: string | undefined;
  /** Tasks that depend on this one. */
  depends_on?: number | undefined;
  /** Tasks after this id (the cursor). */
  after_id?: number | undefined;
}

/** Tasks that match `filter`, by id, at most `limit`. */
export function listTaskRows(db: CollabDb, filter: TaskListFilter, limit: number): Promise<TaskRow[]> {
  let query = db.selectFrom('collab_tasks').selectAll();
  if (filter.status !== 'all') query = query.where('status', '=', filter.status);
  if (filter.assignees !== undefined) query = query.where('assignee', 'in', [...filter.assignees]);
  if (filter.created_by !== undefined) query = query.where('created_by', '=', filter.created_by);
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
  if (filter.plan_id !== undefined) query = query.where('plan_id', '=', filter.plan_id);
  const dependency = filter.depends_on;
  if (dependency !== undefined) {
    query = query.where(({ exists, selectFrom }) =>
      exists(selectFrom('collab_task_deps').select('task_id').whereRef('collab_task_deps.task_id', '=', 'collab_tasks.id').where('collab_task_deps.depends_on', '=', dependency)),
    );
  }
  if (filter.after_id !== undefined) query = query.where('id', '>', filter.after_id);
  return query.orderBy('id').limit(limit).execute();
}

/** How many pending tasks are assigned to `assignee` (an agent, or `any`). */
export async function countPendingTasks(db: CollabDb, assignee: string): Promise<number> {
  const row = await db
    .selectFrom('collab_tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('assignee', '=', assignee)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The agent's open tasks (in progress, pending, blocked), by status, priority and id, at most `limit`. */
export function openTasksOf(db: CollabDb, agent: string, limit: number) {
  return db
    .selectFrom('collab_tasks')
    .select(['id', 'title', 'status', 'priority', 'progress_percent'])
    .where('assignee', '=', agent)
    .where('status', 'in', ['in_progress', 'pending', 'blocked'])
    .orderBy('status')
    .orderBy('priority')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The agent's tasks of one status, by priority and id, at most `limit`. */
export function taskSummariesOf(db: CollabDb, agent: string, status: string, limit: number) {
  return db
    .selectFrom('collab_tasks')
    .select(['id', 'title', 'kind', 'status', 'priority', 'progress_percent', 'updated_at'])
    .where('assignee', '=', agent)
    .where('status', '=', status)
    .orderBy('priority')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The tasks linked to a plan (created with its plan_id), by id, at most `limit`. */
export function tasksOfPlan(db: CollabDb, planId: string, limit: number) {
  return db.selectFrom('collab_tasks').select(['id', 'title', 'status', 'assignee', 'plan_item_id']).where('plan_id', '=', planId).orderBy('id').limit(limit).execute();
}

/**
 * Cancels every task the agent has in progress, answering them. One statement: a task that
 * another call finishes meanwhile is either cancelled here or not at all.
 */
export function cancelTasksInProgressOf(db: CollabDb, agent: string, now: string) {
  return db
    .updateTable('collab_tasks')
    .set((eb) => ({ status: 'cancelled', finished_at: now, updated_at: now, version: eb('version', '+', 1) }))
    .where('assignee', '=', agent)
    .where('status', '=', 'in_progress')
    .returning(['id', 'title', 'priority'])
    .execute();
}

/** Tasks in progress that were started and are not flagged stuck, by id, at most `limit`. */
export function unflaggedTasksInProgress(db: CollabDb, limit: number) {
  return db
    .selectFrom('collab_tasks')
    .select(['id', 'title', 'status', 'assignee', 'priority', 'created_by', 'started_at', 'last_progress_at', 'expected_duration_s', 'version'])
    .where('status', '=', 'in_progress')
    .where('stuck_at', 'is', null)
    .where('started_at', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Flags the task stuck at `stuckAt` if it still has `version` and is not flagged (the version
 * guard: one gateway flags it, and not a task that moved since the read); answers whether it did.
 */
export async function flagTaskStuck(db: CollabDb, id: number, version: number, stuckAt: string): Promise<boolean> {
  const result = await db
    .updateTable('collab_tasks')
    .set({ stuck_at: stuckAt, version: version + 1 })
    .where('id', '=', id)
    .where('version', '=', version)
    .where('stuck_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows !== 0n;
}
