// File locks' rows (collab_locks): the only module with lock SQL. A lock is one row keyed by its
// path (relative to the workspace root, `/`); the rules around them are locks/file-locks.ts's.
import type { FileLock } from '../model.js';
import type { CollabDb } from './db.js';

/** Deletes the locks whose expiry is `now` or earlier (every lock call starts with it). */
export async function deleteLocksExpiredBy(db: CollabDb, now: string): Promise<void> {
  await db.deleteFrom('collab_locks').where('expires_at', '<=', now).execute();
}

/** Deletes the locks that expired before `now`, answering them (the gateway that deletes a row announces it). */
export function deleteLocksExpiredBefore(db: CollabDb, now: string): Promise<Array<{ path: string; agent: string; task_id: number | null; expires_at: string }>> {
  return db.deleteFrom('collab_locks').where('expires_at', '<', now).returning(['path', 'agent', 'task_id', 'expires_at']).execute();
}

/**
 * Takes the lock on `lock.path` in one statement: a new row, or the holder's own row (extended:
 * its locked_at kept, reason and task kept unless given), or an expired row. Answers the row,
 * or undefined when another agent holds a live lock on the path.
 */
export function upsertLock(db: CollabDb, lock: { path: string; agent: string; reason: string | null; task_id: number | null; locked_at: string; expires_at: string }): Promise<FileLock | undefined> {
  return (
    db
      .insertInto('collab_locks')
      .values(lock)
      // Only the holder's row, or an expired one, is taken: a live lock of another stays as
      // it is and no row comes back.
      .onConflict((oc) =>
        oc
          .column('path')
          .doUpdateSet((eb) => {
            const own = eb('collab_locks.agent', '=', eb.ref('excluded.agent'));
            return {
              agent: eb.ref('excluded.agent'),
              expires_at: eb.ref('excluded.expires_at'),
              locked_at: eb.case().when(own).then(eb.ref('collab_locks.locked_at')).else(eb.ref('excluded.locked_at')).end(),
              reason: eb.case().when(own).then(eb.fn.coalesce('excluded.reason', 'collab_locks.reason')).else(eb.ref('excluded.reason')).end(),
              task_id: eb.case().when(own).then(eb.fn.coalesce('excluded.task_id', 'collab_locks.task_id')).else(eb.ref('excluded.task_id')).end(),
            };
          })
          .where((eb) => eb.or([eb('collab_locks.agent', '=', lock.agent), eb('collab_locks.expires_at', '<=', lock.locked_at)])),
      )
      .returningAll()
      .executeTakeFirst()
  );
}

/** The lock row on `path`, live or not. */
export function lockRow(db: CollabDb, path: string): Promise<FileLock | undefined> {
  return db.selectFrom('collab_locks').selectAll().where('path', '=', path).executeTakeFirst();
}

/** The lock on `path` that is live at `now`, if any. */
export function liveLock(db: CollabDb, path: string, now: string): Promise<FileLock | undefined> {
  return db.selectFrom('collab_locks').selectAll().where('path', '=', path).where('expires_at', '>', now).executeTakeFirst();
}

/** Locks live at `now`, oldest first (then by path); only `agent`'s when given; `page.limit` of them from `page.offset`. */
export function liveLocks(db: CollabDb, agent: string | undefined, page: { offset: number; limit: number }, now: string): Promise<FileLock[]> {
  let query = db.selectFrom('collab_locks').selectAll().where('expires_at', '>', now);
  if (agent !== undefined) query = query.where('agent', '=', agent);
  return query.orderBy('locked_at').orderBy('path').offset(page.offset).limit(page.limit).execute();
}

/** The agent's locks live at `now`, by path, at most `limit`: what session context shows. */
export function liveLocksOf(db: CollabDb, agent: string, now: string, limit: number) {
  return db.selectFrom('collab_locks').select(['path', 'reason', 'task_id', 'expires_at']).where('agent', '=', agent).where('expires_at', '>', now).orderBy('path').limit(limit).execute();
}

/** Deletes the lock on `path` if `agent` holds it (any holder when undefined); answers whether one went. */
export async function deleteLock(db: CollabDb, path: string, agent?: string): Promise<boolean> {
  let query = db.deleteFrom('collab_locks').where('path', '=', path);
  if (agent !== undefined) query = query.where('agent', '=', agent);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes `agent`'s locks taken for `taskId`; answers their paths, in no order. */
export async function deleteTaskLocks(db: CollabDb, agent: string, taskId: number): Promise<string[]> {
  const rows = await db.deleteFrom('collab_locks').where('agent', '=', agent).where('task_id', '=', taskId).returning('path').execute();
  return rows.map((row) => row.path);
}

/** Deletes `agent`'s locks taken for any of `taskIds`; answers them. */
export function deleteLocksOfTasks(db: CollabDb, agent: string, taskIds: readonly number[]): Promise<Array<{ path: string; task_id: number | null }>> {
  return db.deleteFrom('collab_locks').where('agent', '=', agent).where('task_id', 'in', [...taskIds]).returning(['path', 'task_id']).execute();
}

/** Deletes every lock of `agent`; answers them. */
export function deleteLocksOf(db: CollabDb, agent: string): Promise<Array<{ path: string; task_id: number | null }>> {
  return db.deleteFrom('collab_locks').where('agent', '=', agent).returning(['path', 'task_id']).execute();
}
