// Plans' and plan items' rows (collab_plans, collab_plan_items): the only module with plan SQL.
import type { CollabDb } from './db.js';

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
