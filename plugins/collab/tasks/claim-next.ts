// collab_claim_next: what an agent should do next, and — when that is a pending task — the
// task claimed for it. The claim is a conditional update (still pending, same version): of
// agents racing for one task exactly one wins, and the others go on to their next candidate.
import type { Collab } from '../collab.js';
import { FileLocks } from '../locks/file-locks.js';
import { ANYONE, nowIso, type FileLock, type Task } from '../model.js';
import { parseJson } from '../context.js';
import { publishTask, syncCurrentTask } from './bookkeeping.js';
import { lockAgent } from './task-rights.js';
import { toTask, toTasks, type TaskRow } from './task-rows.js';

export interface PlanItemToDo {
  id: string;
  title: string;
  description: string | null;
  priority: number;
  acceptance: string[];
}

export type NextStep =
  | { action: 'continue_task'; task: Task }
  | { action: 'read_messages'; unread: number }
  | { action: 'claimed'; task: Task; locked: string[]; lock_conflicts: FileLock[] }
  | { action: 'work_on_plan_item'; plan_id: string; item: PlanItemToDo }
  | { action: 'idle' };

/** Candidates read per round; a round that loses every race reads again. */
const CANDIDATES = 16;
/** Rounds of candidates before giving up with COLLAB_BUSY: each lost round means others claimed tasks. */
const ROUNDS = 10;

export async function claimNext(collab: Collab, agent: string, dryRun: boolean): Promise<NextStep> {
  const { store, mailbox } = collab;
  const own = await store.db.selectFrom('collab_tasks').selectAll().where('assignee', '=', agent).where('status', '=', 'in_progress').orderBy('priority').orderBy('id').executeTakeFirst();
  if (own) return { action: 'continue_task', task: (await toTasks(store.db, [own]))[0]! };
  const unread = await mailbox.unreadCount(agent);
  if (unread > 0) return { action: 'read_messages', unread };
  for (let round = 0; round < ROUNDS; round++) {
    const candidates = await readyTasks(collab, agent);
    if (candidates.length === 0) return (await openPlanItem(collab)) ?? { action: 'idle' };
    if (dryRun) return wouldClaim(collab, agent, candidates[0]!);
    for (const candidate of candidates) {
      const claimed = await claim(collab, agent, candidate);
      if (claimed === 'busy') return claimNext(collab, agent, dryRun); // another session of the agent claimed first
      if (claimed) return claimed;
    }
  }
  throw collab.ctx.error('COLLAB_BUSY', `Other agents claimed every task ${agent} tried, ${ROUNDS} rounds running; nothing was claimed. Call collab_claim_next again.`, { agent });
}

/** Pending tasks `agent` may take, best first: its own or anyone's, every dependency completed. */
function readyTasks({ store }: Collab, agent: string): Promise<TaskRow[]> {
  return store.db
    .selectFrom('collab_tasks')
    .selectAll()
    .where('status', '=', 'pending')
    .where('assignee', 'in', [agent, ANYONE])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('collab_task_deps')
            .innerJoin('collab_tasks as dep', 'dep.id', 'collab_task_deps.depends_on')
            .select('dep.id')
            .whereRef('collab_task_deps.task_id', '=', 'collab_tasks.id')
            .where('dep.status', '!=', 'completed'),
        ),
      ),
    )
    .orderBy('priority')
    .orderBy('created_at')
    .orderBy('id')
    .limit(CANDIDATES)
    .execute();
}

/**
 * Claims `candidate` for `agent` in one transaction — in progress, its assignee, its files
 * locked — if nobody changed it since it was read; undefined when another agent got there first.
 */
async function claim(collab: Collab, agent: string, candidate: TaskRow): Promise<NextStep | 'busy' | undefined> {
  const { ctx, store } = collab;
  const locks = new FileLocks(ctx);
  const claimed = await store.transaction(async (trx) => {
    // One task in progress per agent: two sessions of one agent claiming at once take turns on
    // the agent's row (PostgreSQL; SQLite's write lock does it anyway), and the second finds the first's.
    await lockAgent(trx, agent);
    const mine = await trx.selectFrom('collab_tasks').select('id').where('assignee', '=', agent).where('status', '=', 'in_progress').executeTakeFirst();
    if (mine) return 'busy' as const;
    const now = nowIso();
    const row = await trx
      .updateTable('collab_tasks')
      .set({ status: 'in_progress', assignee: agent, started_at: now, last_progress_at: now, stuck_at: null, updated_at: now, version: candidate.version + 1 })
      .where('id', '=', candidate.id)
      .where('status', '=', 'pending')
      .where('version', '=', candidate.version)
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    await syncCurrentTask(trx, undefined, row);
    const files = parseJson<string[]>(row.relevant_files, []);
    const { locked, conflicts } = await locks.lockForTask(trx, agent, row.id, files, ctx.config.locks.claimMinutes);
    const deps = await trx.selectFrom('collab_task_deps').select('depends_on').where('task_id', '=', row.id).orderBy('depends_on').execute();
    return { task: toTask(row, deps.map((d) => d.depends_on)), locked, lock_conflicts: conflicts };
  });
  if (claimed === undefined || claimed === 'busy') return claimed;
  publishTask(ctx, 'claimed', claimed.task, agent, { id: candidate.id, status: candidate.status, assignee: candidate.assignee });
  for (const path of claimed.locked) ctx.events.publish('collab.lock.acquired', { path, agent, task_id: claimed.task.id });
  return { action: 'claimed', ...claimed };
}

/** What a claim of `candidate` would answer, changing nothing: the files it would lock and those held by others. */
async function wouldClaim({ ctx, store }: Collab, agent: string, candidate: TaskRow): Promise<NextStep> {
  const locks = new FileLocks(ctx);
  const locked: string[] = [];
  const conflicts: FileLock[] = [];
  for (const path of [...new Set(parseJson<string[]>(candidate.relevant_files, []))].sort()) {
    const held = await locks.find(store.db, path);
    if (held && held.agent !== agent) conflicts.push(held);
    else locked.push(path);
  }
  return { action: 'claimed', task: (await toTasks(store.db, [candidate]))[0]!, locked, lock_conflicts: conflicts };
}

/** The best pending item without owner of the active plan, if any. */
async function openPlanItem({ store }: Collab): Promise<NextStep | undefined> {
  const row = await store.db
    .selectFrom('collab_plan_items')
    .innerJoin('collab_plans', 'collab_plans.id', 'collab_plan_items.plan_id')
    .select(['collab_plan_items.plan_id', 'collab_plan_items.id', 'collab_plan_items.title', 'collab_plan_items.description', 'collab_plan_items.priority', 'collab_plan_items.acceptance'])
    .where('collab_plans.active', '=', 1)
    .where('collab_plan_items.status', '=', 'pending')
    .where('collab_plan_items.owner', 'is', null)
    .orderBy('collab_plan_items.priority')
    .orderBy('collab_plan_items.position')
    .executeTakeFirst();
  if (!row) return undefined;
  const item = { id: row.id, title: row.title, description: row.description, priority: row.priority, acceptance: parseJson<string[]>(row.acceptance, []) };
  return { action: 'work_on_plan_item', plan_id: row.plan_id, item };
}
