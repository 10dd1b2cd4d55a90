// What follows a task's change wherever it happens (update, claim, handoff, replay): the
// agents' current task, and the event that tells the assignee (delivery.ts).
import type { CollabContext } from '../context.js';
import { taskChannel, type TaskChange, type TaskEvent } from '../events.js';
import { ANYONE, type Task, type TaskStatus } from '../model.js';
import type { Db } from './task-rows.js';

/** What bookkeeping needs of a task before and after a change. */
export interface TaskState {
  id: number;
  status: TaskStatus | string;
  assignee: string;
}

/**
 * Keeps collab_agents.current_task_id right: set for the assignee when the task goes in
 * progress (or changes hands in progress), cleared for the one it leaves — only where it
 * still points at this task, so a later claim of another task is not undone.
 */
export async function syncCurrentTask(db: Db, before: TaskState | undefined, after: TaskState): Promise<void> {
  const wasWorking = before?.status === 'in_progress';
  const isWorking = after.status === 'in_progress';
  const handsChanged = before?.assignee !== after.assignee;
  if (wasWorking && (!isWorking || handsChanged)) {
    await db.updateTable('collab_agents').set({ current_task_id: null }).where('name', '=', before.assignee).where('current_task_id', '=', after.id).execute();
  }
  if (isWorking && (!wasWorking || handsChanged) && after.assignee !== ANYONE) {
    await db.updateTable('collab_agents').set({ current_task_id: after.id }).where('name', '=', after.assignee).execute();
  }
}

/** Publishes `collab.task.<change>` for a committed change; the assignee's sessions hear it. */
export function publishTask(ctx: CollabContext, change: TaskChange, task: Task, by: string, before?: TaskState): void {
  const event: TaskEvent = { id: task.id, title: task.title, status: task.status, assignee: task.assignee, priority: task.priority, by };
  if (before) {
    event.previous_status = before.status as TaskStatus;
    event.previous_assignee = before.assignee;
  }
  ctx.events.publish(taskChannel(change), event);
}

/** Writes a shared note of a task's work context: one per key, the last writer's value and name. */
export async function putTaskNote(db: Db, note: { task_id: number; key: string; value: string; author: string; updated_at: string }): Promise<void> {
  await db
    .insertInto('collab_task_notes')
    .values(note)
    .onConflict((oc) => oc.columns(['task_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), author: eb.ref('excluded.author'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}
