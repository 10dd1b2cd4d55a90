// Plans and their items as stored, turned into what the tools return.
import { parseJson } from '../context.js';
import { PLAN_ITEM_STATUSES, type Plan, type PlanItem, type PlanItemStatus } from '../model.js';
import type { PlanItemRow, PlanRow } from '../store/plan-store.js';
export type PlanNote = PlanItem['notes'][number];
export type PlanProgress = Plan['progress'];

/** A plan in a list: everything but its items. */
export type PlanSummary = Omit<Plan, 'items' | 'next_offset'>;

export function toPlanItem(row: PlanItemRow): PlanItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    owner: row.owner,
    priority: row.priority,
    status: row.status as PlanItemStatus,
    reasoning: row.reasoning,
    acceptance: parseJson<string[]>(row.acceptance, []),
    constraints: parseJson<string[]>(row.constraints, []),
    dependencies: parseJson<string[]>(row.dependencies, []),
    blockers: parseJson<string[]>(row.blockers, []),
    notes: parseJson<PlanNote[]>(row.notes, []),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Items per status, every status present (0 when none), and the total. */
export function progressOf(statuses: Iterable<{ status: string; n: number }>): PlanProgress {
  const progress = Object.fromEntries(PLAN_ITEM_STATUSES.map((s) => [s, 0])) as PlanProgress;
  progress.total = 0;
  for (const { status, n } of statuses) {
    if ((PLAN_ITEM_STATUSES as readonly string[]).includes(status)) progress[status as PlanItemStatus] += n;
    progress.total += n;
  }
  return progress;
}

export function toPlanSummary(row: PlanRow, progress: PlanProgress): PlanSummary {
  return {
    id: row.id,
    title: row.title,
    goal: row.goal,
    context: row.context,
    created_by: row.created_by,
    active: row.active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    progress,
  };
}

/** The plan with one page of its items, which starts at `offset`; `more` when items follow it. */
export function toPlan(row: PlanRow, progress: PlanProgress, page: { items: PlanItemRow[]; offset: number; more: boolean }): Plan {
  return { ...toPlanSummary(row, progress), items: page.items.map(toPlanItem), next_offset: page.more ? page.offset + page.items.length : null };
}
