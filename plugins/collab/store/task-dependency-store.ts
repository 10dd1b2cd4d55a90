// Task dependencies' rows (collab_task_deps): the only module with dependency SQL. The rules
// (exist, not self, no cycle, start only when completed) are in tasks/dependencies.ts.
import { sql } from '@mcp-gateway/core';
import type { CollabStore } from '../context.js';
import type { CollabDb } from './db.js';

/** The dependency ids of each task in `ids`, ascending (one query). */
export async function dependenciesOf(db: CollabDb, ids: readonly number[]): Promise<Map<number, number[]>> {
  const byTask = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byTask;
  const rows = await db.selectFrom('collab_task_deps').select(['task_id', 'depends_on']).where('task_id', 'in', [...ids]).orderBy('depends_on').execute();
  for (const row of rows) byTask.get(row.task_id)?.push(row.depends_on);
  return byTask;
}

/** The edges out of the tasks in `taskIds` (what each depends on), in no order. */
export function dependencyEdgesFrom(db: CollabDb, taskIds: readonly number[]): Promise<Array<{ task_id: number; depends_on: number }>> {
  return db.selectFrom('collab_task_deps').select(['task_id', 'depends_on']).where('task_id', 'in', [...taskIds]).execute();
}

/** What `taskId` depends on, in no order. */
export async function dependencyIdsOf(db: CollabDb, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('collab_task_deps').select('depends_on').where('task_id', '=', taskId).execute();
  return rows.map((row) => row.depends_on);
}

/** What `taskId` depends on, ascending. */
export async function sortedDependencyIdsOf(db: CollabDb, taskId: number): Promise<number[]> {
  const rows = await db.selectFrom('collab_task_deps').select('depends_on').where('task_id', '=', taskId).orderBy('depends_on').execute();
  return rows.map((row) => row.depends_on);
}

/** The dependencies of `task` that are not completed, with their statuses, by id. */
export function openDependencies(db: CollabDb, task: number): Promise<{ id: number; title: string; status: string }[]> {
  return db
    .selectFrom('collab_task_deps')
    .innerJoin('collab_tasks', 'collab_tasks.id', 'collab_task_deps.depends_on')
    .select(['collab_tasks.id', 'collab_tasks.title', 'collab_tasks.status'])
    .where('collab_task_deps.task_id', '=', task)
    .where('collab_tasks.status', '!=', 'completed')
    .orderBy('collab_tasks.id')
    .execute();
}

const TASK_REF = ['collab_tasks.id', 'collab_tasks.title', 'collab_tasks.status'] as const;

/** The tasks `task` depends on, with their titles and statuses, by id. */
export function dependencyRefsOf(db: CollabDb, task: number): Promise<{ id: number; title: string; status: string }[]> {
  return db.selectFrom('collab_task_deps').innerJoin('collab_tasks', 'collab_tasks.id', 'collab_task_deps.depends_on').select(TASK_REF).where('collab_task_deps.task_id', '=', task).orderBy('collab_tasks.id').execute();
}

/** The first `limit` tasks that depend on `task`, with their titles and statuses, by id. */
export function dependentRefsOf(db: CollabDb, task: number, limit: number): Promise<{ id: number; title: string; status: string }[]> {
  return db.selectFrom('collab_task_deps').innerJoin('collab_tasks', 'collab_tasks.id', 'collab_task_deps.task_id').select(TASK_REF).where('collab_task_deps.depends_on', '=', task).orderBy('collab_tasks.id').limit(limit).execute();
}

/** How many tasks depend on `task`. */
export async function countDependents(db: CollabDb, task: number): Promise<number> {
  const { n } = await db.selectFrom('collab_task_deps').select((eb) => eb.fn.countAll<number>().as('n')).where('depends_on', '=', task).executeTakeFirstOrThrow();
  return Number(n);
}

/** Stores the dependencies of a new task. */
export async function insertDependencies(db: CollabDb, taskId: number, dependsOn: readonly number[]): Promise<void> {
  await db.insertInto('collab_task_deps').values(dependsOn.map((dep) => ({ task_id: taskId, depends_on: dep }))).execute();
}

/** Adds one dependency; one there already stays as it is. */
export async function addDependency(db: CollabDb, taskId: number, dependsOn: number): Promise<void> {
  await db.insertInto('collab_task_deps').values({ task_id: taskId, depends_on: dependsOn }).onConflict((oc) => oc.columns(['task_id', 'depends_on']).doNothing()).execute();
}

/** Removes one dependency, if it is there. */
export async function removeDependency(db: CollabDb, taskId: number, dependsOn: number): Promise<void> {
  await db.deleteFrom('collab_task_deps').where('task_id', '=', taskId).where('depends_on', '=', dependsOn).execute();
}

/**
 * Serialises changes of the dependency graph until the transaction ends. Two agents adding
 * edges at once could each find no cycle and together close one; on SQLite a transaction
 * already holds the store's write lock, on PostgreSQL a transaction-scoped advisory lock
 * does the same for dependency changes only.
 */
export async function lockDependencyGraph(store: CollabStore, trx: CollabDb): Promise<void> {
  if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('collab_task_deps'))`.execute(trx);
}
