// Task rows as stored ↔ `Task` as the tools return them, and the reads every task tool shares.
import { parseJson } from '../context.js';
import type { RaiseError } from '../declaration.js';
import type { Task, TaskKind, TaskStatus } from '../model.js';
import type { CollabDb } from '../store/db.js';
import { dependenciesOf } from '../store/task-dependency-store.js';
import { findTaskRow, type TaskRow } from '../store/task-store.js';

export function toTask(row: TaskRow, dependsOn: number[]): Task {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    kind: row.kind as TaskKind,
    priority: row.priority,
    status: row.status as TaskStatus,
    assignee: row.assignee,
    created_by: row.created_by,
    relevant_files: parseJson<string[]>(row.relevant_files, []),
    constraints: parseJson<string[]>(row.constraints, []),
    background: row.background,
    depends_on: dependsOn,
    expected_duration_seconds: row.expected_duration_s,
    progress_percent: row.progress_percent,
    progress_note: row.progress_note,
    eta_at: row.eta_at,
    blocked_reason: row.blocked_reason,
    plan_id: row.plan_id,
    plan_item_id: row.plan_item_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** Rows to tasks, with their dependencies. */
export async function toTasks(db: CollabDb, rows: readonly TaskRow[]): Promise<Task[]> {
  const deps = await dependenciesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTask(row, deps.get(row.id) ?? []));
}

/** The task's row, or COLLAB_TASK_NOT_FOUND. `lock` takes its row lock (inside a transaction). */
export async function taskRow(db: CollabDb, error: RaiseError, id: number, lock = false): Promise<TaskRow> {
  const row = await findTaskRow(db, id, lock);
  if (!row) throw error('COLLAB_TASK_NOT_FOUND', `No task has id ${id}: list them with collab_list_tasks.`, { id });
  return row;
}

/** The task with its dependencies, or COLLAB_TASK_NOT_FOUND. */
export async function loadTask(db: CollabDb, error: RaiseError, id: number): Promise<Task> {
  const row = await taskRow(db, error, id);
  return toTask(row, (await dependenciesOf(db, [id])).get(id) ?? []);
}
