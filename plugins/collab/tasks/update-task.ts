// Changing a task: status by the state machine, assignee, priority, dependencies; and replay
// of a blocked or cancelled task. Each change is one transaction holding the task's row
// lock (docs/storage.md, pattern 3), so two agents updating at once both land, one after
// the other, each checked against what the other wrote.
import type { Collab } from '../collab.js';
import { checkCap, MAX_TASK_DEPENDENCIES } from '../limits.js';
import { FileLocks } from '../locks/file-locks.js';
import { ANYONE, nowIso, TASK_TRANSITIONS, type Task, type TaskStatus } from '../model.js';
import { lockAgentRow } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';
import { addDependency, dependenciesOf, dependencyIdsOf, lockDependencyGraph, openDependencies, removeDependency } from '../store/task-dependency-store.js';
import { taskAssignee, writeTaskRow, type TaskRow } from '../store/task-store.js';
import { syncCurrentTask, type TaskState } from './bookkeeping.js';
import { checkAssignee } from './create-task.js';
import { checkDependenciesExist, cycleThrough } from './dependencies.js';
import { checkFreeToHold, checkTaskRights } from './task-rights.js';
import { taskRow, toTask } from './task-rows.js';

export interface TaskUpdate {
  status?: TaskStatus;
  /** Why the task is blocked; forces status blocked. */
  blocked_by?: string;
  assignee?: string;
  priority?: number;
  add_dependency?: number;
  remove_dependency?: number;
}

export interface TaskChangeResult {
  task: Task;
  before: TaskState;
  /** Lock paths released because the task left its holder's hands (finished, stopped, reassigned). */
  released: string[];
}

const FINISHED: readonly string[] = ['completed', 'cancelled'];

/** Applies `update` to task `id` on behalf of `by`. */
export async function updateTask(collab: Collab, id: number, update: TaskUpdate, by: string): Promise<TaskChangeResult> {
  const { ctx, store } = collab;
  const locks = new FileLocks(ctx);
  const result = await store.transaction(async (trx) => {
    if (update.add_dependency !== undefined) await lockDependencyGraph(store, trx);
    // The agent who would hold the task is locked before the task's row, the order a claim
    // takes them in, so that the two never wait on each other (a deadlock on PostgreSQL).
    const starting = update.status === 'in_progress' && update.blocked_by === undefined;
    if (starting || update.assignee !== undefined) {
      const peek = await taskAssignee(trx, id);
      await lockAgentRow(trx, update.assignee ?? (peek === undefined || peek === ANYONE ? by : peek));
    }
    const row = await taskRow(trx, ctx.error, id, true);
    const target = update.blocked_by !== undefined ? 'blocked' : update.status;
    if (target !== undefined && target !== row.status) checkTransition(collab, row.status as TaskStatus, target);
    await changeDependencies(collab, trx, id, update);
    if (target === 'in_progress' && row.status !== 'in_progress') {
      const open = await openDependencies(trx, id);
      if (open.length > 0) {
        throw ctx.error('COLLAB_DEPENDENCY_OPEN', `Task ${id} waits for ${open.map((t) => `#${t.id} (${t.status})`).join(', ')}: finish them first, or take another task (collab_claim_next).`, { id, open });
      }
    }
    if (update.assignee !== undefined) await checkAssignee(collab, trx, update.assignee);
    const status = (target ?? row.status) as TaskStatus;
    let assignee = update.assignee ?? row.assignee;
    // A task for anyone that someone starts is theirs from then on.
    if (status === 'in_progress' && assignee === ANYONE) assignee = by;
    if (status !== row.status || assignee !== row.assignee) {
      checkTaskRights(collab, row, by, { status, assignee });
      if (status === 'in_progress') await checkFreeToHold(collab, trx, assignee, id);
    }
    const now = nowIso();
    const statusChanged = status !== row.status;
    const updated = await writeTaskRow(trx, id, {
      status,
      assignee,
      priority: update.priority ?? row.priority,
      blocked_reason: status === 'blocked' ? (update.blocked_by ?? row.blocked_reason) : null,
      ...(statusChanged && status === 'in_progress' ? { started_at: now, last_progress_at: now, finished_at: null } : {}),
      ...(statusChanged && FINISHED.includes(status) ? { finished_at: now } : {}),
      ...(statusChanged && status === 'completed' ? { progress_percent: 100 } : {}),
      ...(statusChanged ? { stuck_at: null } : {}),
      updated_at: now,
      version: row.version + 1,
    });
    const before = { id, status: row.status, assignee: row.assignee };
    await syncCurrentTask(trx, before, updated);
    // The locks taken for the task go when it stops being in its holder's hands.
    const keepsLocks = status === 'in_progress' && assignee === row.assignee;
    const released = (statusChanged || assignee !== row.assignee) && !keepsLocks ? await locks.releaseForTask(trx, row.assignee, id) : [];
    return { task: await finish(trx, updated), before, released };
  });
  locks.announceReleased(result.before.assignee, result.released, id);
  return result;
}

/** Puts a blocked or cancelled task back to pending: for anyone, `reassignTo`, or (keep) its assignee. */
export async function replayTask(collab: Collab, id: number, reassign: { to?: string; keep?: boolean }, by: string): Promise<TaskChangeResult> {
  const { ctx, store } = collab;
  const locks = new FileLocks(ctx);
  const result = await store.transaction(async (trx) => {
    const row = await taskRow(trx, ctx.error, id, true);
    if (row.status !== 'blocked' && row.status !== 'cancelled') {
      throw ctx.error('COLLAB_TRANSITION_INVALID', `Task ${id} is ${row.status}; only a blocked or cancelled task is replayed. Use collab_update_task for the others.`, {
        from: row.status,
        to: 'pending',
        allowed: TASK_TRANSITIONS[row.status as TaskStatus],
      });
    }
    const assignee = reassign.keep ? row.assignee : (reassign.to ?? ANYONE);
    checkTaskRights(collab, row, by, { status: 'pending', assignee });
    await checkAssignee(collab, trx, assignee);
    const updated = await writeTaskRow(trx, id, {
      status: 'pending',
      assignee,
      blocked_reason: null,
      progress_percent: null,
      progress_note: null,
      eta_at: null,
      started_at: null,
      finished_at: null,
      last_progress_at: null,
      stuck_at: null,
      updated_at: nowIso(),
      version: row.version + 1,
    });
    // Its next holder locks the files again when it claims the task.
    const released = await locks.releaseForTask(trx, row.assignee, id);
    return { task: await finish(trx, updated), before: { id, status: row.status, assignee: row.assignee }, released };
  });
  locks.announceReleased(result.before.assignee, result.released, id);
  return result;
}

/** Refuses a move the state machine does not allow (COLLAB_TRANSITION_INVALID). */
function checkTransition({ ctx }: Collab, from: TaskStatus, to: TaskStatus): void {
  const allowed = TASK_TRANSITIONS[from];
  if (allowed.includes(to)) return;
  const hint = from === 'blocked' || from === 'cancelled' ? ' Bring it back with collab_replay_task.' : '';
  throw ctx.error('COLLAB_TRANSITION_INVALID', `A ${from} task cannot become ${to}; from ${from} it may become ${allowed.join(', ') || 'nothing'}.${hint}`, { from, to, allowed });
}

/** Adds and removes the dependencies the update asks for (self, missing and cycles refused). */
async function changeDependencies({ ctx }: Collab, trx: CollabDb, id: number, update: TaskUpdate): Promise<void> {
  if (update.remove_dependency !== undefined) {
    await removeDependency(trx, id, update.remove_dependency);
  }
  const dependency = update.add_dependency;
  if (dependency === undefined) return;
  await checkDependenciesExist(trx, ctx.error, [dependency], id);
  const current = await dependencyIdsOf(trx, id);
  if (!current.includes(dependency)) {
    checkCap(ctx.error, 'COLLAB_TASK_TOO_LARGE', `Task ${id} with this dependency`, current.length + 1, {
      field: 'depends_on',
      limit: MAX_TASK_DEPENDENCIES,
      unit: 'dependencies',
      advice: 'Remove one first (remove_dependency), or make an intermediate task that depends on some of them.',
    });
  }
  const cycle = await cycleThrough(trx, id, dependency);
  if (cycle) {
    throw ctx.error('COLLAB_DEPENDENCY_INVALID', `Task ${id} depending on ${dependency} closes the cycle ${cycle.join(' → ')}: remove one of these dependencies first.`, { id, dependency, cycle, reason: 'cycle' });
  }
  await addDependency(trx, id, dependency);
}

async function finish(trx: CollabDb, row: TaskRow): Promise<Task> {
  return toTask(row, (await dependenciesOf(trx, [row.id])).get(row.id) ?? []);
}
