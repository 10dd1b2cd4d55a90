// What follows a task's change wherever it happens (update, claim, handoff, replay): the
// agents' current task, and the event that tells the assignee (delivery.ts).
import type { CollabContext } from '../context.js';
import { taskChannel, type TaskChange, type TaskEvent } from '../events.js';
import { ANYONE, type Task, type TaskStatus } from '../model.js';
import { clearCurrentTask, setCurrentTask } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';

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
export async function syncCurrentTask(db: CollabDb, before: TaskState | undefined, after: TaskState): Promise<void> {
  const wasWorking = before?.status === 'in_progress';
  const isWorking = after.status === 'in_progress';
  const handsChanged = before?.assignee !== after.assignee;
  if (wasWorking && (!isWorking || handsChanged)) {
    await clearCurrentTask(db, before.assignee, after.id);
  }
  if (isWorking && (!wasWorking || handsChanged) && after.assignee !== ANYONE) {
    await setCurrentTask(db, after.assignee, after.id);
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
