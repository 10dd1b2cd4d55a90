// Rows written straight into collab's tables, for what other collab tools own (tasks, locks,
// plans) or what only time does (an agent gone quiet).
import type { PluginStore } from '../../../core/index.js';
import type { Gateway } from '../../../core/gateway.js';
import type { CollabTables } from '../../../plugins/collab/store/schema.js';

export function collabDb(gateway: Gateway) {
  return (gateway.store.forPlugin('collab') as PluginStore<CollabTables>).db;
}

const iso = (msAgo = 0) => new Date(Date.now() - msAgo).toISOString();

export async function insertTask(gateway: Gateway, task: { title: string; assignee: string; status: string; priority?: number }): Promise<number> {
  const now = iso();
  const row = await collabDb(gateway)
    .insertInto('collab_tasks')
    .values({
      title: task.title,
      description: null,
      kind: 'task',
      priority: task.priority ?? 2,
      status: task.status,
      assignee: task.assignee,
      created_by: 'driver',
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
      started_at: null,
      finished_at: null,
      last_progress_at: null,
      stuck_at: null,
      version: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Makes `agent` look last heard from `msAgo` ago. */
export async function lastSeen(gateway: Gateway, agent: string, msAgo: number): Promise<void> {
  await collabDb(gateway).updateTable('collab_agents').set({ last_seen_at: iso(msAgo) }).where('name', '=', agent).execute();
}

export async function insertLock(gateway: Gateway, lock: { path: string; agent: string; expiresInMs: number }): Promise<void> {
  await collabDb(gateway)
    .insertInto('collab_locks')
    .values({ path: lock.path, agent: lock.agent, reason: 'editing', task_id: null, locked_at: iso(), expires_at: iso(-lock.expiresInMs) })
    .execute();
}

export async function insertPlan(gateway: Gateway, plan: { id: string; title: string; active: boolean }): Promise<void> {
  const now = iso();
  await collabDb(gateway)
    .insertInto('collab_plans')
    .values({ id: plan.id, title: plan.title, goal: 'ship it', context: null, created_by: 'driver', active: plan.active ? 1 : 0, created_at: now, updated_at: now })
    .execute();
}
