// Reading plans: a plan with one page of its items, summaries with their progress counts, and an
// owner's open items. A plan can hold plans.maxItems items of several kilobytes each, so no read
// here loads a whole plan: items come a page at a time, and progress is counted by the store.
import type { Transaction } from '../../../core/index.js';
import type { CollabStore } from '../context.js';
import type { Plan } from '../model.js';
import type { CollabTables } from '../store/schema.js';
import { progressOf, toPlan, toPlanSummary, type PlanProgress, type PlanRow, type PlanSummary } from './plan-rows.js';

export type PlanDb = CollabStore['db'] | Transaction<CollabTables>;

/** A page of a plan's items: collab_get_plan's offset and limit. */
export interface ItemPage {
  offset: number;
  limit: number;
}

/** What collab_get_plan answers without offset and limit, and what create and activate answer. */
export const FIRST_PAGE: ItemPage = { offset: 0, limit: 50 };
/** The largest page collab_get_plan gives. */
export const MAX_ITEMS_PAGE = 200;

/**
 * The plan `id`, or the active one. Two plans can be left active only by two first
 * activations racing on PostgreSQL with no active plan to lock; the latest changed wins.
 * `lock` takes its row lock (inside a transaction).
 */
export function findPlanRow(db: PlanDb, id: string | undefined, lock = false): Promise<PlanRow | undefined> {
  let query = db.selectFrom('collab_plans').selectAll();
  if (lock) query = query.forUpdate();
  return id === undefined ? query.where('active', '=', 1).orderBy('updated_at', 'desc').orderBy('id').limit(1).executeTakeFirst() : query.where('id', '=', id).executeTakeFirst();
}

/** The plan of `row` with one page of its items, in the order they were added. */
export async function planWithItems(db: PlanDb, row: PlanRow, page: ItemPage): Promise<Plan> {
  // One more than asked: whether another page follows. Items are never deleted, so an offset stays put.
  const rows = await db
    .selectFrom('collab_plan_items')
    .selectAll()
    .where('plan_id', '=', row.id)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute();
  const progress = (await progressByPlan(db, [row.id])).get(row.id)!;
  return toPlan(row, progress, { items: rows.slice(0, page.limit), offset: page.offset, more: rows.length > page.limit });
}

/** The plan of `row` without its items. */
export async function planSummary(db: PlanDb, row: PlanRow): Promise<PlanSummary> {
  return toPlanSummary(row, (await progressByPlan(db, [row.id])).get(row.id)!);
}

/** Plans with their progress, the active one first, then the most recently changed. */
export async function listPlans(db: PlanDb, limit: number): Promise<PlanSummary[]> {
  const rows = await db.selectFrom('collab_plans').selectAll().orderBy('active', 'desc').orderBy('updated_at', 'desc').orderBy('id').limit(limit).execute();
  if (rows.length === 0) return [];
  const progress = await progressByPlan(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toPlanSummary(row, progress.get(row.id)!));
}

/** Items of the plan that `owner` owns and that are still open, in plan order, at most `limit`. */
export function openItemsOf(db: PlanDb, planId: string, owner: string, limit: number): Promise<Array<{ id: string; title: string; status: string }>> {
  return db
    .selectFrom('collab_plan_items')
    .select(['id', 'title', 'status'])
    .where('plan_id', '=', planId)
    .where('owner', '=', owner)
    .where('status', 'not in', ['completed', 'cancelled'])
    .orderBy('position')
    .limit(limit)
    .execute();
}

/** Items per status of each plan (every plan asked for is in the map, with zeros when it has none). */
async function progressByPlan(db: PlanDb, planIds: readonly string[]): Promise<Map<string, PlanProgress>> {
  const counts = await db
    .selectFrom('collab_plan_items')
    .select((eb) => ['plan_id', 'status', eb.fn.countAll<number>().as('n')])
    .where('plan_id', 'in', [...planIds])
    .groupBy(['plan_id', 'status'])
    .execute();
  return new Map(planIds.map((id) => [id, progressOf(counts.filter((c) => c.plan_id === id).map((c) => ({ status: c.status, n: Number(c.n) })))]));
}
