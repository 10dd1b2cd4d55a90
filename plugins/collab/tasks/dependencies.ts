// Task dependencies: they must exist, never be the task itself, never close a cycle; a task
// starts only when every dependency is completed (store/task-dependency-store.ts: their rows,
// openDependencies and the lock on the graph).
import type { RaiseError } from '../declaration.js';
import type { CollabDb } from '../store/db.js';
import { dependencyEdgesFrom } from '../store/task-dependency-store.js';
import { existingTaskIds } from '../store/task-store.js';

/** Refuses ids that are `self` or name no task (COLLAB_DEPENDENCY_INVALID). */
export async function checkDependenciesExist(db: CollabDb, error: RaiseError, ids: readonly number[], self?: number): Promise<void> {
  if (self !== undefined && ids.includes(self)) {
    throw error('COLLAB_DEPENDENCY_INVALID', `Task ${self} cannot depend on itself: remove it from the dependencies.`, { id: self, reason: 'self' });
  }
  if (ids.length === 0) return;
  const found = await existingTaskIds(db, ids);
  const missing = ids.filter((id) => !found.includes(id));
  if (missing.length > 0) {
    throw error('COLLAB_DEPENDENCY_INVALID', `No task has id ${missing.join(', ')}: depend only on tasks that exist (collab_list_tasks).`, { missing, reason: 'missing' });
  }
}

/**
 * The cycle that `task` depending on `dependency` would close — `[task, dependency, …, task]`
 * — or undefined. Walks what `dependency` depends on, level by level.
 */
export async function cycleThrough(db: CollabDb, task: number, dependency: number): Promise<number[] | undefined> {
  const cameFrom = new Map<number, number>([[dependency, task]]);
  let frontier = [dependency];
  while (frontier.length > 0) {
    const edges = await dependencyEdgesFrom(db, frontier);
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
