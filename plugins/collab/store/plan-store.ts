// Plans' and plan items' rows (collab_plans, collab_plan_items): the only module with plan SQL.
// What the tools return is plans/plan-rows.ts's; the rules (caps, compare-and-set) plan-book.ts's.
import type { Insertable, Selectable, Updateable } from '@mcp-gateway/core';
import type { CollabDb } from './db.js';
import type { CollabTables } from './schema.js';

export type PlanRow = Selectable<CollabTables['collab_plans']>;
export type PlanItemRow = Selectable<CollabTables['collab_plan_items']>;

/** Whether a plan has this id. */
export async function planExists(db: CollabDb, planId: string): Promise<boolean> {
  const row = await db.selectFrom('collab_plans').select('id').where('id', '=', planId).executeTakeFirst();
  return row !== undefined;
}

/** Whether plan `planId` has an item `itemId`. */
export async function planHasItem(db: CollabDb, planId: string, itemId: string): Promise<boolean> {
  const row = await db.selectFrom('collab_plan_items').select('id').where('plan_id', '=', planId).where('id', '=', itemId).executeTakeFirst();
  return row !== undefined;
}

/** The best pending item without owner of the active plan (priority, then position), if any. */
export function openPlanItemOfActivePlan(db: CollabDb) {
  return db
    .selectFrom('collab_plan_items')
    .innerJoin('collab_plans', 'collab_plans.id', 'collab_plan_items.plan_id')
    .select(['collab_plan_items.plan_id', 'collab_plan_items.id', 'collab_plan_items.title', 'collab_plan_items.description', 'collab_plan_items.priority', 'collab_plan_items.acceptance'])
    .where('collab_plans.active', '=', 1)
    .where('collab_plan_items.status', '=', 'pending')
    .where('collab_plan_items.owner', 'is', null)
    .orderBy('collab_plan_items.priority')
    .orderBy('collab_plan_items.position')
    .executeTakeFirst();
}

/** The id and title of the active plan most recently changed, if any. */
export function activePlanRef(db: CollabDb): Promise<{ id: string; title: string } | undefined> {
  return db.selectFrom('collab_plans').select(['id', 'title']).where('active', '=', 1).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
}

/**
 * The plan `id`, or the active one. Two plans can be left active only by two first
 * activations racing on PostgreSQL with no active plan to lock; the latest changed wins.
 * `lock` takes its row lock (inside a transaction).
 */
export function findPlanRow(db: CollabDb, id: string | undefined, lock = false): Promise<PlanRow | undefined> {
  let query = db.selectFrom('collab_plans').selectAll();
  if (lock) query = query.forUpdate();
  return id === undefined ? query.where('active', '=', 1).orderBy('updated_at', 'desc').orderBy('id').limit(1).executeTakeFirst() : query.where('id', '=', id).executeTakeFirst();
}

/** Plans, the active one first, then the most recently changed, at most `limit`. */
export function listPlanRows(db: CollabDb, limit: number): Promise<PlanRow[]> {
  return db.selectFrom('collab_plans').selectAll().orderBy('active', 'desc').orderBy('updated_at', 'desc').orderBy('id').limit(limit).execute();
}

/** The first `limit` plan ids, sorted. */
export async function planIds(db: CollabDb, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('collab_plans').select('id').orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/** Stores a new plan; answers false, changing nothing, when the id is taken. */
export async function insertPlan(db: CollabDb, plan: Insertable<CollabTables['collab_plans']>): Promise<boolean> {
  const inserted = await db.insertInto('collab_plans').values(plan).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
  return inserted !== undefined;
}

/** Marks plan `id` active, changed at `now`. */
export async function markPlanActive(db: CollabDb, id: string, now: string): Promise<void> {
  await db.updateTable('collab_plans').set({ active: 1, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Clears the active flag; answers the plans that had it. Locking the active row first makes
 * a concurrent activation wait for this one.
 */
export async function deactivateAllPlans(trx: CollabDb, now: string): Promise<string[]> {
  await trx.selectFrom('collab_plans').select('id').where('active', '=', 1).forUpdate().execute();
  const rows = await trx.updateTable('collab_plans').set({ active: 0, updated_at: now }).where('active', '=', 1).returning('id').execute();
  return rows.map((r) => r.id);
}

/** Marks the plan changed at `now`. */
export async function touchPlan(db: CollabDb, id: string, now: string): Promise<void> {
  await db.updateTable('collab_plans').set({ updated_at: now }).where('id', '=', id).execute();
}

/** How many items the plan has. */
export async function countPlanItems(db: CollabDb, planId: string): Promise<number> {
  const { n } = await db.selectFrom('collab_plan_items').select((eb) => eb.fn.countAll<number>().as('n')).where('plan_id', '=', planId).executeTakeFirstOrThrow();
  return Number(n);
}

/** The highest position of the plan's items (0 when it has none). */
export async function lastItemPosition(db: CollabDb, planId: string): Promise<number> {
  const last = await db.selectFrom('collab_plan_items').select((eb) => eb.fn.max('position').as('position')).where('plan_id', '=', planId).executeTakeFirst();
  return Number(last?.position ?? 0);
}

/** Those of `itemIds` that are items of the plan. */
export async function existingItemIds(db: CollabDb, planId: string, itemIds: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom('collab_plan_items').select('id').where('plan_id', '=', planId).where('id', 'in', [...itemIds]).execute();
  return rows.map((row) => row.id);
}

/** Stores a new item; answers its row, or undefined, changing nothing, when the plan has an item of this id. */
export function insertPlanItem(db: CollabDb, item: Insertable<CollabTables['collab_plan_items']>): Promise<PlanItemRow | undefined> {
  return db
    .insertInto('collab_plan_items')
    .values(item)
    .onConflict((oc) => oc.columns(['plan_id', 'id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Item `itemId` of the plan, or undefined. */
export function findPlanItem(db: CollabDb, planId: string, itemId: string): Promise<PlanItemRow | undefined> {
  return db.selectFrom('collab_plan_items').selectAll().where('plan_id', '=', planId).where('id', '=', itemId).executeTakeFirst();
}

/** Writes `changes` to the item if it still has `version` (compare-and-set); answers the row after, or undefined when another writer came first. */
export function writePlanItemIfVersion(db: CollabDb, planId: string, itemId: string, version: number, changes: Updateable<CollabTables['collab_plan_items']>): Promise<PlanItemRow | undefined> {
  return db
    .updateTable('collab_plan_items')
    .set(changes)
    .where('plan_id', '=', planId)
    .where('id', '=', itemId)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
}

/** A page of the plan's items, in the order they were added (position, then creation, then id). */
export function planItemsPage(db: CollabDb, planId: string, page: { offset: number; limit: number }): Promise<PlanItemRow[]> {
  return db
    .selectFrom('collab_plan_items')
    .selectAll()
    .where('plan_id', '=', planId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** Items of the plan that `owner` owns and that are still open, in plan order, at most `limit`. */
export function openItemsOf(db: CollabDb, planId: string, owner: string, limit: number): Promise<Array<{ id: string; title: string; status: string }>> {
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

/** How many items of each plan have each status (plans and statuses without items left out). */
export async function itemCountsByStatus(db: CollabDb, planIds: readonly string[]): Promise<Array<{ plan_id: string; status: string; n: number }>> {
  const counts = await db
    .selectFrom('collab_plan_items')
    .select((eb) => ['plan_id', 'status', eb.fn.countAll<number>().as('n')])
    .where('plan_id', 'in', [...planIds])
    .groupBy(['plan_id', 'status'])
    .execute();
  return counts.map((c) => ({ plan_id: c.plan_id, status: c.status, n: Number(c.n) }));
}
