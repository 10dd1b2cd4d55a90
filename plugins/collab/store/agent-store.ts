// Agents' rows (collab_agents): the only module with agent SQL.
import type { CollabDb } from './db.js';

/** Whether an agent of this name is registered. */
export async function agentExists(db: CollabDb, name: string): Promise<boolean> {
  const known = await db.selectFrom('collab_agents').select('name').where('name', '=', name).executeTakeFirst();
  return known !== undefined;
}

/**
 * Takes the agent's row lock until the transaction ends (PostgreSQL; SQLite's write lock
 * serialises writers anyway): whatever puts a task in an agent's hands takes it first.
 */
export async function lockAgentRow(trx: CollabDb, agent: string): Promise<void> {
  await trx.selectFrom('collab_agents').select('name').where('name', '=', agent).forUpdate().executeTakeFirst();
}

/** Clears the agent's current task, only where it still points at `taskId`. */
export async function clearCurrentTask(db: CollabDb, agent: string, taskId: number): Promise<void> {
  await db.updateTable('collab_agents').set({ current_task_id: null }).where('name', '=', agent).where('current_task_id', '=', taskId).execute();
}

/** Makes `taskId` the agent's current task. */
export async function setCurrentTask(db: CollabDb, agent: string, taskId: number): Promise<void> {
  await db.updateTable('collab_agents').set({ current_task_id: taskId }).where('name', '=', agent).execute();
}

/** Records the agent's progress line, and that it was seen at `seenAt`. */
export async function recordAgentProgress(db: CollabDb, agent: string, progress: string, seenAt: string): Promise<void> {
  await db.updateTable('collab_agents').set({ progress, last_seen_at: seenAt }).where('name', '=', agent).execute();
}
