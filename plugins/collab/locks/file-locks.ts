// Advisory file locks: who holds which workspace file, until when. Paths go through the
// workspace sandbox and are stored relative to its root with `/`, so every gateway of a
// team (each with its own checkout path) names a file the same way. A lock is one row keyed
// by its path (store/lock-store.ts); taking it is one statement, so two agents racing for a
// file never both win.
import { relative, sep } from 'node:path';
import type { CollabContext } from '../context.js';
import { nowIso, type FileLock } from '../model.js';
import type { CollabDb as Db } from '../store/db.js';
import { deleteLock, deleteLocksExpiredBy, deleteTaskLocks, liveLock, liveLocks, lockRow, upsertLock } from '../store/lock-store.js';

export type LockOutcome = { lock: FileLock; extended: boolean } | { held: FileLock };

export class FileLocks {
  readonly #ctx: CollabContext;

  constructor(ctx: CollabContext) {
    this.#ctx = ctx;
  }

  /**
   * `path` as locks name it: resolved through the sandbox (OUTSIDE_WORKSPACE, INVALID_PATH;
   * a file that does not exist yet resolves through its parent), relative to the root, `/`.
   */
  relativePath(path: string): string {
    const real = this.#ctx.workspace.resolve(path);
    return relative(this.#ctx.workspace.root, real).split(sep).join('/') || '.';
  }

  /** Deletes the locks that expired; every lock call starts with it. */
  async purgeExpired(db: Db, now = Date.now()): Promise<void> {
    await deleteLocksExpiredBy(db, nowIso(now));
  }

  /**
   * Takes (or, for its holder, extends) the lock on `path` (already relative) for `minutes`.
   * Answers the lock taken, or the lock someone else holds. Purge expired locks first.
   */
  async acquire(db: Db, lock: { path: string; agent: string; reason: string | null; task_id: number | null; minutes: number }): Promise<LockOutcome> {
    // Released between the insert and the read of its holder: the next round finds it free.
    for (let round = 0; round < 3; round++) {
      const now = Date.now();
      const lockedAt = nowIso(now);
      const row = await upsertLock(db, { path: lock.path, agent: lock.agent, reason: lock.reason, task_id: lock.task_id, locked_at: lockedAt, expires_at: nowIso(now + lock.minutes * 60_000) });
      if (row) return { lock: row, extended: row.locked_at !== lockedAt };
      const held = await lockRow(db, lock.path);
      if (held) return { held };
    }
    throw this.#ctx.error('COLLAB_BUSY', `The lock on ${lock.path} kept changing hands; nothing was changed. Try again.`, { path: lock.path });
  }

  /** The live lock on `path` (relative), if any. */
  find(db: Db, path: string): Promise<FileLock | undefined> {
    return liveLock(db, path, nowIso());
  }

  /** Live locks, oldest first; only `agent`'s when given; `page.limit` of them from `page.offset`. */
  list(db: Db, agent: string | undefined, page: { offset: number; limit: number }): Promise<FileLock[]> {
    return liveLocks(db, agent, page, nowIso());
  }

  /** Deletes the lock on `path` if `agent` holds it (any holder when undefined); answers whether one went. */
  release(db: Db, path: string, agent?: string): Promise<boolean> {
    return deleteLock(db, path, agent);
  }

  /** Releases `agent`'s locks taken for `taskId` (call `announceReleased` after commit); answers their paths. */
  async releaseForTask(db: Db, agent: string, taskId: number): Promise<string[]> {
    return (await deleteTaskLocks(db, agent, taskId)).sort();
  }

  /** Publishes `collab.lock.released` for each of `paths`, once their release committed. */
  announceReleased(agent: string, paths: readonly string[], taskId: number | null = null): void {
    for (const path of paths) this.#ctx.events.publish('collab.lock.released', { path, agent, task_id: taskId });
  }

  /**
   * Locks a task's files for its new holder: each path it can, the others reported with
   * their holders. Paths in sorted order, so that two claims never wait on each other.
   */
  async lockForTask(db: Db, agent: string, taskId: number, paths: readonly string[], minutes: number): Promise<{ locked: string[]; conflicts: FileLock[] }> {
    await this.purgeExpired(db);
    const locked: string[] = [];
    const conflicts: FileLock[] = [];
    for (const path of [...new Set(paths)].sort()) {
      const outcome = await this.acquire(db, { path, agent, reason: `task #${taskId}`, task_id: taskId, minutes });
      if ('held' in outcome) conflicts.push(outcome.held);
      else locked.push(path);
    }
    return { locked, conflicts };
  }
}
