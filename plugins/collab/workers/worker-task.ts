// A worker's task: given to it at spawn, before its process starts, and given back to everyone
// when the worker ends without finishing it. Each is one transaction with the bookkeeping every
// task change does (bookkeeping.ts: the agents' current task, the task event; the locks taken
// for the task), as collab_update_task's.
import type { CollabContext, CollabStore } from '../context.js';
import { FileLocks } from '../locks/file-locks.js';
import { ANYONE, nowIso, TASK_TRANSITIONS, type Task, type TaskStatus } from '../model.js';
import type { CollabDb } from '../store/db.js';
import { findTaskRow, writeTaskRow, writeTaskRowIfUnchanged, type TaskRow } from '../store/task-store.js';
import { publishTask, syncCurrentTask } from '../tasks/bookkeeping.js';
import { taskRow, toTasks } from '../tasks/task-rows.js';
import { checkTaskRights } from '../tasks/task-rights.js';

/**
 * Task `id` if `by` may give it to `worker`: COLLAB_TASK_NOT_FOUND; COLLAB_TRANSITION_INVALID for
 * a finished task, and for one in progress with another agent (it is theirs until they hand it
 * off or are stopped); COLLAB_NOT_PERMITTED for a task assigned to another agent when `by` is
 * neither it nor the task's creator (the rules of collab_update_task, task-rights.ts).
 */
export async function taskForWorker(ctx: CollabContext, db: CollabDb, id: number, worker: string, by: string): Promise<TaskRow> {
  const row = await taskRow(db, ctx.error, id);
  const status = row.status as TaskStatus;
  if (status === 'completed' || status === 'cancelled') {
    throw ctx.error('COLLAB_TRANSITION_INVALID', `Task ${id} is ${status}: a worker can only be given an open task.`, { id, from: status, to: 'in_progress', allowed: [] });
  }
  if (status === 'in_progress' && row.assignee !== ANYONE && row.assignee !== worker) {
    throw ctx.error(
      'COLLAB_TRANSITION_INVALID',
      `Task ${id} is in progress with ${row.assignee}: a worker is not given another agent's task. Ask ${row.assignee} to hand it off (collab_handoff), or stop it first.`,
      { id, from: status, to: 'in_progress', allowed: TASK_TRANSITIONS[status], assignee: row.assignee },
    );
  }
  // A pending task for anyone goes to the worker as to any agent taking it for itself.
  const actor = row.assignee === ANYONE && status === 'pending' ? worker : by;
  checkTaskRights({ ctx }, row, actor, { status, assignee: worker });
  return row;
}

/**
 * Assigns task `id` to `worker` (its agent row exists), checked as taskForWorker; COLLAB_BUSY
 * when the task changed between the read and the write (compare-and-set on version and status).
 */
export async function assignToWorker(ctx: CollabContext, store: CollabStore, id: number, worker: string, by: string): Promise<Task> {
  const done = await store.transaction(async (trx) => {
    const row = await taskForWorker(ctx, trx, id, worker, by);
    const updated = await writeTaskRowIfUnchanged(trx, id, { status: row.status, version: row.version }, { assignee: worker, updated_at: nowIso(), version: row.version + 1 });
    if (!updated) throw ctx.error('COLLAB_BUSY', `Task ${id} changed while it was being given to ${worker}; nothing was changed. Spawn again.`, { id });
    const before = { id, status: row.status, assignee: row.assignee };
    await syncCurrentTask(trx, before, updated);
    return { task: (await toTasks(trx, [updated]))[0]!, before };
  });
  publishTask(ctx, 'updated', done.task, by, done.before);
  return done.task;
}

/**
 * Task `id`, if still open (pending or in progress) and `worker`'s, goes back to pending for
 * anyone, with the worker's locks for it released and its current task cleared; answers it then.
 */
export async function releaseFromWorker(ctx: CollabContext, store: CollabStore, id: number, worker: string, by: string): Promise<Task | undefined> {
  const locks = new FileLocks(ctx);
  const done = await store.transaction(async (trx) => {
    const row = await findTaskRow(trx, id, true);
    if (!row || row.assignee !== worker || (row.status !== 'pending' && row.status !== 'in_progress')) return undefined;
    const updated = await writeTaskRow(trx, id, { status: 'pending', assignee: ANYONE, started_at: null, last_progress_at: null, stuck_at: null, updated_at: nowIso(), version: row.version + 1 });
    const before = { id, status: row.status, assignee: row.assignee };
    await syncCurrentTask(trx, before, updated);
    // Its next holder locks the files again when it claims the task.
    const released = await locks.releaseForTask(trx, worker, id);
    return { task: (await toTasks(trx, [updated]))[0]!, before, released };
  });
  if (!done) return undefined;
  publishTask(ctx, 'updated', done.task, by, done.before);
  locks.announceReleased(worker, done.released, id);
  return done.task;
}
