// File locks: lock, unlock (force audited), check, list.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { FileLocks } from '../locks/file-locks.js';
import { SYSTEM_AGENT } from '../model.js';
import { currentTaskIdOf } from '../store/agent-store.js';
import { taskRow } from '../tasks/task-rows.js';
import { checkLockInput, checkLockOutput, listLocksInput, listLocksOutput, lockFileInput, lockFileOutput, unlockFileInput, unlockFileOutput } from './lock-schemas.js';

export const collabLockFile = {
  name: 'collab_lock_file',
  title: 'Lock a file',
  description:
    'Tells other agents you are changing a workspace file; locking it again extends your lock. Lock each file you edit beyond those your task locked.',
  inputSchema: { ...lockFileInput, examples: [{ path: '../outside-the-workspace.txt', reason: 'rewriting the intro', duration_minutes: 15 }] },
  outputSchema: lockFileOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabUnlockFile = {
  name: 'collab_unlock_file',
  title: 'Unlock a file',
  description: 'Releases your lock on a workspace file: do it as soon as you are done with the file.',
  inputSchema: { ...unlockFileInput, examples: [{ path: '../outside-the-workspace.txt' }] },
  outputSchema: unlockFileOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabCheckLock = {
  name: 'collab_check_lock',
  title: 'Check a file lock',
  description: 'Whether a workspace file is locked, by whom and until when. Check before you edit a file.',
  inputSchema: { ...checkLockInput, examples: [{ path: 'README.md' }] },
  outputSchema: checkLockOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListLocks = {
  name: 'collab_list_locks',
  title: 'List file locks',
  description: 'Lists the live file locks, oldest first.',
  inputSchema: { ...listLocksInput, examples: [{}] },
  outputSchema: listLocksOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerLockTools({ ctx, store, identity, mailbox }: Collab): void {
  const locks = new FileLocks(ctx);

  ctx.tool(collabLockFile, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    const path = locks.relativePath(args.path);
    if (args.task_id !== undefined) await taskRow(store.db, ctx.error, args.task_id);
    // Without task_id, the lock belongs to the agent's task in progress: handing that task off releases it.
    const taskId = args.task_id ?? (await currentTaskIdOf(store.db, agent)) ?? null;
    await locks.purgeExpired(store.db);
    const outcome = await locks.acquire(store.db, { path, agent, reason: args.reason ?? null, task_id: taskId, minutes: args.duration_minutes ?? ctx.config.locks.defaultMinutes });
    if ('held' in outcome) {
      throw ctx.error('COLLAB_FILE_LOCKED', `${path} is locked by ${outcome.held.agent} until ${outcome.held.expires_at}${outcome.held.reason ? ` (${outcome.held.reason})` : ''}: wait, message them, or unlock with force.`, { lock: outcome.held });
    }
    ctx.events.publish('collab.lock.acquired', { path, agent, task_id: outcome.lock.task_id, expires_at: outcome.lock.expires_at, extended: outcome.extended });
    return outcome;
  });

  ctx.tool(collabUnlockFile, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    const path = locks.relativePath(args.path);
    await locks.purgeExpired(store.db);
    const held = await locks.find(store.db, path);
    if (!held) return { path, released: false, forced: false, holder: null };
    if (held.agent !== agent && !args.force) {
      throw ctx.error('COLLAB_FILE_LOCKED', `${path} is locked by ${held.agent}, not by ${agent}: ask them, or pass force: true (audited; they are told).`, { lock: held });
    }
    // Only the holder seen above: a lock taken by someone else meanwhile stays.
    const released = await locks.release(store.db, path, held.agent);
    if (!released) return { path, released: false, forced: false, holder: null };
    const forced = held.agent !== agent;
    if (forced) {
      ctx.log.warn({ path, holder: held.agent, by: agent, reason: held.reason }, 'collab: a file lock was force-released');
      ctx.events.publish('collab.lock.forced', { path, agent: held.agent, by: agent });
      await mailbox.send({
        from: SYSTEM_AGENT,
        to: held.agent,
        kind: 'alert',
        subject: `Your lock on ${path} was released by ${agent}`,
        body: `${agent} force-released your lock on ${path}${held.reason ? ` (${held.reason})` : ''}, taken ${held.locked_at}. Check the file before you write to it again, and lock it again if you still need it.`,
      });
    } else {
      locks.announceReleased(agent, [path], held.task_id);
    }
    return { path, released: true, forced, holder: held.agent };
  });

  ctx.tool(collabCheckLock, async (args) => {
    const path = locks.relativePath(args.path);
    await locks.purgeExpired(store.db);
    const lock = (await locks.find(store.db, path)) ?? null;
    return { path, locked: lock !== null, lock };
  });

  ctx.tool(collabListLocks, async (args) => {
    await locks.purgeExpired(store.db);
    // One more than asked: whether another page follows.
    const rows = await locks.list(store.db, args.agent, { offset: args.offset, limit: args.limit + 1 });
    const page = rows.slice(0, args.limit);
    return { locks: page, count: page.length, next_offset: rows.length > args.limit ? args.offset + page.length : null };
  });
}
