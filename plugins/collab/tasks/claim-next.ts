// collab_claim_next: what an agent should do next, and — when that is a pending task — the
// task claimed for it. The claim is a conditional update (still pending, same version): of
// agents racing for one task exactly one wins, and the others go on to their next candidate.
import type { Collab } from '../collab.js';
import { FileLocks } from '../locks/file-locks.js';
import { ANYONE, nowIso, type FileLock, type Task } from '../model.js';
import { parseJson } from '../context.js';
import { lockAgentRow } from '../store/agent-store.js';
import { openPlanItemOfActivePlan } from '../store/plan-store.js';
import { sortedDependencyIdsOf } from '../store/task-dependency-store.js';
import { hasTaskInProgress, readyTasksFor, taskInProgressOf, writeTaskRowIfUnchanged, type TaskRow } from '../store/task-store.js';
import { publishTask, syncCurrentTask } from './bookkeeping.js';
import { toTask, toTasks } from './task-rows.js';

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
  const own = await taskInProgressOf(store.db, agent);
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
  return readyTasksFor(store.db, agent, CANDIDATES);
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
    await lockAgentRow(trx, agent);
    if (await hasTaskInProgress(trx, agent)) return 'busy' as const;
    const now = nowIso();
    const row = await writeTaskRowIfUnchanged(
      trx,
      candidate.id,
      { status: 'pending', version: candidate.version },
      { status: 'in_progress', assignee: agent, started_at: now, last_progress_at: now, stuck_at: null, updated_at: now, version: candidate.version + 1 },
    );
    if (!row) return undefined;
    await syncCurrentTask(trx, undefined, row);
    const files = parseJson<string[]>(row.relevant_files, []);
    const { locked, conflicts } = await locks.lockForTask(trx, agent, row.id, files, ctx.config.locks.claimMinutes);
    const deps = await sortedDependencyIdsOf(trx, row.id);
    return { task: toTask(row, deps), locked, lock_conflicts: conflicts };
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
  const row = await openPlanItemOfActivePlan(store.db);
  if (!row) return undefined;
  const item = { id: row.id, title: row.title, description: row.description, priority: row.priority, acceptance: parseJson<string[]>(row.acceptance, []) };
  return { action: 'work_on_plan_item', plan_id: row.plan_id, item };
}
