// Rows written straight into collab's tables, for states a test cannot wait for (an agent
// silent for minutes, a task running for an hour) or whose tools another area provides.
import type { Gateway } from '../../../core/gateway.js';

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
export const MINUTE = 60_000;

/** Inserts a task (in progress unless `status` says otherwise); answers its id. */
export async function insertTask(gateway: Gateway, fields: Record<string, unknown> & { title: string; assignee: string; created_by: string }): Promise<number> {
  const now = iso(0);
  const row = await gateway.store.db
    .insertInto('collab_tasks')
    .values({
      description: null,
      kind: 'task',
      priority: 2,
      status: 'in_progress',
      relevant_files: '[]',
      constraints: '[]',
      background: null,
      expected_duration_s: null,
      progress_percent: null,
      progress_note: null,
      eta_at: null,
      blocked_reason: null,
      plan_id: null,
      plan_item_id: null,
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: null,
      last_progress_at: null,
      stuck_at: null,
      version: 1,
      ...fields,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Inserts a message from `from` to `to`; answers its id. */
export async function insertMessage(gateway: Gateway, from: string, to: string, body: string, subject: string | null = null): Promise<number> {
  const row = await gateway.store.db
    .insertInto('collab_messages')
    .values({ from_agent: from, to_agent: to, subject, body, kind: 'message', reply_to: null, thread_id: null, task_id: null, created_at: iso(0) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await gateway.store.db.updateTable('collab_messages').set({ thread_id: row.id }).where('id', '=', row.id).execute();
  return Number(row.id);
}

/** Inserts a lock of `path` by `agent`, expiring `expiresInMs` from now (negative: expired). */
export async function insertLock(gateway: Gateway, path: string, agent: string, expiresInMs: number): Promise<void> {
  await gateway.store.db
    .insertInto('collab_locks')
    .values({ path, agent, reason: null, task_id: null, locked_at: iso(MINUTE), expires_at: iso(-expiresInMs) })
    .execute();
}

/** Makes `agent` look last seen `msAgo` ago. */
export async function lastSeen(gateway: Gateway, agent: string, msAgo: number): Promise<void> {
  await gateway.store.db.updateTable('collab_agents').set({ last_seen_at: iso(msAgo) }).where('name', '=', agent).execute();
}

/** Sets columns of a task, e.g. to make it look started long ago. */
export async function setTask(gateway: Gateway, id: number, fields: Record<string, unknown>): Promise<void> {
  await gateway.store.db.updateTable('collab_tasks').set(fields).where('id', '=', id).execute();
}

export const ago = iso;
