// Reading plans: a plan with one page of its items, summaries with their progress counts, and an
// owner's open items. A plan can hold plans.maxItems items of several kilobytes each, so no read
// here loads a whole plan: items come a page at a time, and progress is counted by the store
// (store/plan-store.ts).
import type { Plan } from '../model.js';
import type { CollabDb } from '../store/db.js';
import { itemCountsByStatus, listPlanRows, planItemsPage, type PlanRow } from '../store/plan-store.js';
import { progressOf, toPlan, toPlanSummary, type PlanProgress, type PlanSummary } from './plan-rows.js';

/** A page of a plan's items: collab_get_plan's offset and limit. */
export interface ItemPage {
  offset: number;
  limit: number;
}

/** What collab_get_plan answers without offset and limit, and what create and activate answer. */
export const FIRST_PAGE: ItemPage = { offset: 0, limit: 50 };
/** The largest page collab_get_plan gives. */
export const MAX_ITEMS_PAGE = 200;

/** The plan of `row` with one page of its items, in the order they were added. */
export async function planWithItems(db: CollabDb, row: PlanRow, page: ItemPage): Promise<Plan> {
  // One more than asked: whether another page follows. Items are never deleted, so an offset stays put.
  const rows = await planItemsPage(db, row.id, { offset: page.offset, limit: page.limit + 1 });
  const progress = (await progressByPlan(db, [row.id])).get(row.id)!;
  return toPlan(row, progress, { items: rows.slice(0, page.limit), offset: page.offset, more: rows.length > page.limit });
}

/** The plan of `row` without its items. */
export async function planSummary(db: CollabDb, row: PlanRow): Promise<PlanSummary> {
  return toPlanSummary(row, (await progressByPlan(db, [row.id])).get(row.id)!);
}

/** Plans with their progress, the active one first, then the most recently changed. */
export async function listPlans(db: CollabDb, limit: number): Promise<PlanSummary[]> {
  const rows = await listPlanRows(db, limit);
  if (rows.length === 0) return [];
  const progress = await progressByPlan(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toPlanSummary(row, progress.get(row.id)!));
}

/** Items per status of each plan (every plan asked for is in the map, with zeros when it has none). */
async function progressByPlan(db: CollabDb, planIds: readonly string[]): Promise<Map<string, PlanProgress>> {
  const counts = await itemCountsByStatus(db, planIds);
  return new Map(planIds.map((id) => [id, progressOf(counts.filter((c) => c.plan_id === id).map((c) => ({ status: c.status, n: c.n })))]));
}
