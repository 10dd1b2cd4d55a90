// Task dependencies: they must exist, never be the task itself, never close a cycle; a task
// starts only when every dependency is completed.
import { sql } from '../../../core/index.js';
import type { CollabStore } from '../context.js';
import type { RaiseError } from '../errors.js';
import type { Db } from './task-rows.js';

/** Refuses ids that are `self` or name no task (COLLAB_DEPENDENCY_INVALID). */
export async function checkDependenciesExist(db: Db, error: RaiseError, ids: readonly number[], self?: number): Promise<void> {
  if (self !== undefined && ids.includes(self)) {
    throw error('COLLAB_DEPENDENCY_INVALID', `Task ${self} cannot depend on itself: remove it from the dependencies.`, { id: self, reason: 'self' });
  }
  if (ids.length === 0) return;
  const found = await db.selectFrom('collab_tasks').select('id').where('id', 'in', [...ids]).execute();
  const missing = ids.filter((id) => !found.some((row) => row.id === id));
  if (missing.length > 0) {
    throw error('COLLAB_DEPENDENCY_INVALID', `No task has id ${missing.join(', ')}: depend only on tasks that exist (collab_list_tasks).`, { missing, reason: 'missing' });
  }
}

/**
 * The cycle that `task` depending on `dependency` would close — `[task, dependency, …, task]`
 * — or undefined. Walks what `dependency` depends on, level by level.
 */
export async function cycleThrough(db: Db, task: number, dependency: number): Promise<number[] | undefined> {
  const cameFrom = new Map<number, number>([[dependency, task]]);
  let frontier = [dependency];
  while (frontier.length > 0) {
    const edges = await db.selectFrom('collab_task_deps').select(['task_id', 'depends_on']).where('task_id', 'in', frontier).execute();
    frontier = [];
    for (const edge of edges) {
      if (cameFrom.has(edge.depends_on)) continue;
      cameFrom.set(edge.depends_on, edge.task_id);
      if (edge.depends_on === task) return pathBack(cameFrom, task);
      frontier.push(edge.depends_on);
    }
  }
  return undefined;
}

/** Follows `cameFrom` from `task` back to itself, as the cycle in dependency order. */
function pathBack(cameFrom: Map<number, number>, task: number): number[] {
  const reversed = [task];
  for (let at = cameFrom.get(task)!; at !== task; at = cameFrom.get(at)!) reversed.push(at);
  reversed.push(task);
  return reversed.reverse();
}

/** The dependencies of `task` that are not completed, with their statuses. */
export function openDependencies(db: Db, task: number): Promise<{ id: number; title: string; status: string }[]> {
  return db
    .selectFrom('collab_task_deps')
    .innerJoin('collab_tasks', 'collab_tasks.id', 'collab_task_deps.depends_on')
    .select(['collab_tasks.id', 'collab_tasks.title', 'collab_tasks.status'])
    .where('collab_task_deps.task_id', '=', task)
    .where('collab_tasks.status', '!=', 'completed')
    .orderBy('collab_tasks.id')
    .execute();
}

/**
 * Serialises changes of the dependency graph until the transaction ends. Two agents adding
 * edges at once could each find no cycle and together close one; on SQLite a transaction
 * already holds the store's write lock, on PostgreSQL a transaction-scoped advisory lock
 * does the same for dependency changes only.
 */
export async function lockDependencyGraph(store: CollabStore, trx: Db): Promise<void> {
  if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('collab_task_deps'))`.execute(trx);
}
