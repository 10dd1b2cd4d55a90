// Rows written straight into collab's tables, for states a test cannot wait for (an agent
// silent for minutes, a task running for an hour) or whose tools another test area covers.
import type { TestGateway } from '../../../core/testing.js';
import type { CollabTables } from '../../../plugins/collab/store/schema.js';

/** The gateway whose collab tables a helper writes: a TestGateway, or anything with its `store`. */
type Gateway = Pick<TestGateway, 'store'>;

export function collabDb(gateway: Gateway) {
  return gateway.store<CollabTables>('collab').db;
}

export const MINUTE = 60_000;
/** The time `msAgo` ago as stored (negative: in the future). */
export const ago = (msAgo = 0) => new Date(Date.now() - msAgo).toISOString();

type TaskFields = Partial<CollabTables['collab_tasks']> & { title: string; assignee: string };

/** Inserts a task (in progress, created by `driver`, unless `fields` say otherwise); answers its id. */
export async function insertTask(gateway: Gateway, fields: TaskFields): Promise<number> {
  const now = ago();
  const status = fields.status ?? 'in_progress';
  const row = await collabDb(gateway)
    .insertInto('collab_tasks')
    .values({
      description: null,
      kind: 'task',
      priority: 2,
      status,
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
      started_at: status === 'in_progress' ? now : null,
      finished_at: null,
      last_progress_at: null,
      stuck_at: null,
      version: 1,
      ...fields,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Inserts a message from `from` to `to`; answers its id. */
export async function insertMessage(gateway: Gateway, from: string, to: string, body: string, subject: string | null = null): Promise<number> {
  const db = collabDb(gateway);
  const row = await db
    .insertInto('collab_messages')
    .values({ from_agent: from, to_agent: to, subject, body, kind: 'message', reply_to: null, task_id: null, created_at: ago() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('collab_messages').set({ thread_id: row.id }).where('id', '=', row.id).execute();
  return Number(row.id);
}

/** Inserts a lock of `path` by `agent`, expiring `expiresInMs` from now (negative: expired). */
export async function insertLock(gateway: Gateway, lock: { path: string; agent: string; expiresInMs: number }): Promise<void> {
  await collabDb(gateway)
    .insertInto('collab_locks')
    .values({ path: lock.path, agent: lock.agent, reason: 'editing', task_id: null, locked_at: ago(MINUTE), expires_at: ago(-lock.expiresInMs) })
    .execute();
}

/** Makes `agent` look last heard from `msAgo` ago. */
export async function lastSeen(gateway: Gateway, agent: string, msAgo: number): Promise<void> {
  await collabDb(gateway).updateTable('collab_agents').set({ last_seen_at: ago(msAgo) }).where('name', '=', agent).execute();
}

/** Sets columns of a task, e.g. to make it look started long ago. */
export async function setTask(gateway: Gateway, id: number, fields: Partial<CollabTables['collab_tasks']>): Promise<void> {
  await collabDb(gateway).updateTable('collab_tasks').set(fields as never).where('id', '=', id).execute();
}

export async function insertPlan(gateway: Gateway, plan: { id: string; title: string; active: boolean }): Promise<void> {
  const now = ago();
  await collabDb(gateway)
    .insertInto('collab_plans')
    .values({ id: plan.id, title: plan.title, goal: 'ship it', context: null, created_by: 'driver', active: plan.active ? 1 : 0, created_at: now, updated_at: now })
    .execute();
}

/** Appends `count` pending items (`item-<n>`, from `item-<from>`) to the plan: a large plan without as many calls. */
export async function insertPlanItems(gateway: Gateway, planId: string, count: number, from = 1): Promise<void> {
  const now = ago();
  const items = Array.from({ length: count }, (_, i) => from + i).map((n) => ({
    plan_id: planId,
    id: `item-${n}`,
    position: n,
    title: `Item ${n}`,
    description: null,
    owner: null,
    priority: 2,
    status: 'pending',
    reasoning: null,
    acceptance: '[]',
    constraints: '[]',
    dependencies: '[]',
    blockers: '[]',
    notes: '[]',
    created_at: now,
    updated_at: now,
    version: 1,
  }));
  // In slices: SQLite binds at most 32,766 parameters to one statement.
  for (let i = 0; i < items.length; i += 500) await collabDb(gateway).insertInto('collab_plan_items').values(items.slice(i, i + 500)).execute();
}
