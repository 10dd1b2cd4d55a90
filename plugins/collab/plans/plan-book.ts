// Plans: a goal and its items, one plan active at a time. Each change is one transaction (or
// one compare-and-set) and then the event `collab.plan.<change>`, which the resources turn
// into `notifications/resources/updated` for the plan's URI on every gateway of the team.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CollabContext, CollabStore } from '../context.js';
import { checkCap, MAX_ITEM_BLOCKERS } from '../limits.js';
import { nowIso, type Plan, type PlanItem, type PlanItemStatus } from '../model.js';
import { agentExists } from '../store/agent-store.js';
import type { CollabDb } from '../store/db.js';
import {
  countPlanItems,
  deactivateAllPlans,
  existingItemIds,
  findPlanItem,
  findPlanRow,
  insertPlan,
  insertPlanItem,
  lastItemPosition,
  markPlanActive,
  openItemsOf,
  planIds,
  touchPlan,
  writePlanItemIfVersion,
  type PlanRow,
} from '../store/plan-store.js';
import { tasksOfPlan } from '../store/task-store.js';
import type { LinkedTask } from './plan-markdown.js';
import { applyChanges, type PlanItemChanges } from './plan-item-changes.js';
import { FIRST_PAGE, listPlans, planSummary, planWithItems, type ItemPage } from './plan-reads.js';
import { toPlanItem, type PlanSummary } from './plan-rows.js';

export type PlanChange = 'created' | 'activated' | 'deactivated' | 'item_added' | 'item_updated';

/** What `collab.plan.<change>` carries: ids and names, never text. */
export interface PlanEvent {
  plan_id: string;
  item_id?: string;
  status?: PlanItemStatus;
  owner?: string | null;
  by: string;
}

export interface NewPlan {
  id: string;
  title: string;
  goal: string;
  context?: string;
  set_active: boolean;
}

export interface NewPlanItem {
  id: string;
  title: string;
  description?: string;
  owner?: string;
  priority: number;
  reasoning?: string;
  dependencies?: string[];
  acceptance?: string[];
  constraints?: string[];
}

/** Compare-and-set attempts before giving up with COLLAB_BUSY. */
const MAX_ATTEMPTS = 40;
/**
 * A loser waits a random while, up to this many ms times its attempt, before reading again:
 * without it, writers that lost together read and lose together again, and one can starve.
 */
const BACKOFF_MS = 4;

export class PlanBook {
  readonly #ctx: CollabContext;
  readonly #store: CollabStore;

  constructor(ctx: CollabContext, store: CollabStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  /** Creates a plan (COLLAB_PLAN_EXISTS for a taken id); with set_active, the only active one. */
  async create(plan: NewPlan, by: string): Promise<Plan> {
    const now = nowIso();
    const deactivated = await this.#store.transaction(async (trx) => {
      const others = plan.set_active ? await deactivateAllPlans(trx, now) : [];
      const inserted = await insertPlan(trx, { id: plan.id, title: plan.title, goal: plan.goal, context: plan.context ?? null, created_by: by, active: plan.set_active ? 1 : 0, created_at: now, updated_at: now });
      if (!inserted) {
        throw this.#ctx.error('COLLAB_PLAN_EXISTS', `A plan "${plan.id}" exists already: choose another id, or add items to it with collab_add_plan_item.`, { plan_id: plan.id });
      }
      return others;
    });
    this.#publish('created', { plan_id: plan.id, by });
    if (plan.set_active) this.#announceActivation(plan.id, deactivated, by);
    return this.get(plan.id);
  }

  /** Makes `id` the only active plan (COLLAB_PLAN_NOT_FOUND for an unknown id). */
  async activate(id: string, by: string): Promise<Plan> {
    const now = nowIso();
    const deactivated = await this.#store.transaction(async (trx) => {
      await this.#planRow(trx, id);
      const others = await deactivateAllPlans(trx, now);
      await markPlanActive(trx, id, now);
      return others;
    });
    this.#announceActivation(id, deactivated, by);
    return this.get(id);
  }

  /** The plan `id`, or the active one, with one page of its items in order (COLLAB_PLAN_NOT_FOUND). */
  async get(id?: string, page: ItemPage = FIRST_PAGE): Promise<Plan> {
    return planWithItems(this.#store.db, await this.#planRow(this.#store.db, id), page);
  }

  /** The active plan without its items, or undefined when none is. */
  async active(): Promise<PlanSummary | undefined> {
    const row = await findPlanRow(this.#store.db, undefined);
    return row === undefined ? undefined : planSummary(this.#store.db, row);
  }

  /** Items of the plan that `owner` owns and that are still open, in plan order, at most `limit`. */
  openItemsOf(planId: string, owner: string, limit: number): Promise<Array<{ id: string; title: string; status: string }>> {
    return openItemsOf(this.#store.db, planId, owner, limit);
  }

  /** Every plan with its progress, the active one first, then the most recently changed. */
  list(limit: number): Promise<PlanSummary[]> {
    return listPlans(this.#store.db, limit);
  }

  /** The tasks linked to the plan (created with its plan_id), by id. */
  tasks(planId: string): Promise<LinkedTask[]> {
    return tasksOfPlan(this.#store.db, planId, 500);
  }

  /** Plan ids starting with `prefix`, for completions (plans are few: filtered here, not by LIKE, whose escapes differ by engine). */
  async ids(prefix: string): Promise<string[]> {
    const ids = await planIds(this.#store.db, 1000);
    return ids.filter((id) => id.startsWith(prefix));
  }

  /**
   * Adds an item at the end of the plan (the active one unless `planId`). Its owner must be an
   * agent and its dependencies items of the same plan (COLLAB_AGENT_NOT_FOUND,
   * COLLAB_DEPENDENCY_INVALID); a taken id is COLLAB_PLAN_ITEM_EXISTS. Dependencies name
   * existing items only, so they can never form a cycle.
   */
  async addItem(planId: string | undefined, item: NewPlanItem, by: string): Promise<{ plan_id: string; item: PlanItem }> {
    const now = nowIso();
    const stored = await this.#store.transaction(async (trx) => {
      // The plan's row lock: two adds at once count the items one after the other, never both under the cap.
      const plan = await this.#planRow(trx, planId, true);
      const n = await countPlanItems(trx, plan.id);
      const maxItems = this.#ctx.config.plans.maxItems;
      checkCap(this.#ctx.error, 'COLLAB_PLAN_TOO_LARGE', `Plan "${plan.id}" with this item`, n + 1, {
        field: 'items',
        limit: maxItems,
        unit: 'items',
        setting: 'plugins.collab.config.plans.maxItems',
        advice: 'Start another plan for the rest of the work, or raise the setting.',
      });
      if (item.owner !== undefined) await this.#checkAgent(trx, item.owner);
      await this.#checkDependencies(trx, plan.id, item.id, item.dependencies ?? []);
      const last = await lastItemPosition(trx, plan.id);
      const inserted = await insertPlanItem(trx, {
        plan_id: plan.id,
        id: item.id,
        position: last + 1,
        title: item.title,
        description: item.description ?? null,
        owner: item.owner ?? null,
        priority: item.priority,
        status: 'pending',
        reasoning: item.reasoning ?? null,
        acceptance: JSON.stringify(item.acceptance ?? []),
        constraints: JSON.stringify(item.constraints ?? []),
        dependencies: JSON.stringify(item.dependencies ?? []),
        blockers: '[]',
        notes: '[]',
        created_at: now,
        updated_at: now,
        version: 1,
      });
      if (inserted === undefined) {
        throw this.#ctx.error('COLLAB_PLAN_ITEM_EXISTS', `Plan "${plan.id}" has an item "${item.id}" already: choose another id, or change it with collab_update_plan_item.`, { plan_id: plan.id, item_id: item.id });
      }
      await touchPlan(trx, plan.id, now);
      return inserted;
    });
    this.#publish('item_added', { plan_id: stored.plan_id, item_id: stored.id, status: 'pending', owner: stored.owner, by });
    return { plan_id: stored.plan_id, item: toPlanItem(stored) };
  }

  /**
   * Changes one item by compare-and-set on its version: read, compute, write only if nobody
   * wrote meanwhile, else again. Two agents adding notes at once both keep theirs.
   */
  async updateItem(planId: string | undefined, itemId: string, changes: PlanItemChanges, by: string): Promise<{ plan_id: string; item: PlanItem; changed: string[] }> {
    const plan = await this.#planRow(this.#store.db, planId);
    if (changes.owner != null) await this.#checkAgent(this.#store.db, changes.owner);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await sleep(Math.random() * BACKOFF_MS * attempt);
      const row = await findPlanItem(this.#store.db, plan.id, itemId);
      if (row === undefined) {
        throw this.#ctx.error('COLLAB_PLAN_ITEM_NOT_FOUND', `Plan "${plan.id}" has no item "${itemId}": read it with collab_get_plan.`, { plan_id: plan.id, item_id: itemId });
      }
      const now = nowIso();
      const { values, changed, blockers } = applyChanges(row, changes, by, now, this.#ctx.config.plans.maxNotesPerItem);
      if (changes.add_blocker !== undefined && changed.includes('blockers')) {
        checkCap(this.#ctx.error, 'COLLAB_PLAN_TOO_LARGE', `Item "${itemId}" with this blocker`, blockers, {
          field: 'blockers',
          limit: MAX_ITEM_BLOCKERS,
          unit: 'blockers',
          advice: 'Remove the blockers that are solved first (remove_blocker).',
        });
      }
      if (changed.length === 0) return { plan_id: plan.id, item: toPlanItem(row), changed };
      const written = await this.#store.transaction(async (trx) => {
        const result = await writePlanItemIfVersion(trx, plan.id, itemId, row.version, { ...values, updated_at: now, version: row.version + 1 });
        if (result !== undefined) await touchPlan(trx, plan.id, now);
        return result;
      });
      if (written !== undefined) {
        this.#publish('item_updated', { plan_id: plan.id, item_id: itemId, status: written.status as PlanItemStatus, owner: written.owner, by });
        return { plan_id: plan.id, item: toPlanItem(written), changed };
      }
    }
    throw this.#ctx.error('COLLAB_BUSY', `Item "${itemId}" of plan "${plan.id}" kept changing under ${MAX_ATTEMPTS} attempts; nothing was changed. Try again.`, { plan_id: plan.id, item_id: itemId });
  }

  /** findPlanRow, or COLLAB_PLAN_NOT_FOUND. `lock` takes its row lock (inside a transaction). */
  async #planRow(db: CollabDb, id: string | undefined, lock = false): Promise<PlanRow> {
    const row = await findPlanRow(db, id, lock);
    if (row !== undefined) return row;
    throw id === undefined
      ? this.#ctx.error('COLLAB_PLAN_NOT_FOUND', 'There is no active plan: create one with collab_create_plan, or activate one with collab_activate_plan (collab_list_plans lists them).')
      : this.#ctx.error('COLLAB_PLAN_NOT_FOUND', `No plan has id "${id}": list them with collab_list_plans.`, { plan_id: id });
  }

  /** `activated` for the plan, `deactivated` for each plan that was active before (their Markdown says so). */
  #announceActivation(id: string, deactivated: string[], by: string): void {
    for (const other of deactivated) if (other !== id) this.#publish('deactivated', { plan_id: other, by });
    this.#publish('activated', { plan_id: id, by });
  }

  async #checkAgent(db: CollabDb, name: string): Promise<void> {
    if (!(await agentExists(db, name))) throw this.#ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${name}": register it first (collab_register_agent), or list them with collab_list_agents.`, { agent: name });
  }

  async #checkDependencies(trx: CollabDb, planId: string, itemId: string, dependencies: string[]): Promise<void> {
    if (dependencies.includes(itemId)) {
      throw this.#ctx.error('COLLAB_DEPENDENCY_INVALID', `Item "${itemId}" cannot depend on itself: fix dependencies.`, { item_id: itemId, reason: 'self' });
    }
    if (dependencies.length === 0) return;
    const found = await existingItemIds(trx, planId, dependencies);
    const missing = dependencies.filter((d) => !found.includes(d));
    if (missing.length > 0) {
      throw this.#ctx.error('COLLAB_DEPENDENCY_INVALID', `Plan "${planId}" has no item ${missing.map((m) => `"${m}"`).join(', ')}: add dependencies before the items that need them.`, { plan_id: planId, missing, reason: 'missing' });
    }
  }

  #publish(change: PlanChange, event: PlanEvent): void {
    this.#ctx.events.publish(`collab.plan.${change}`, event);
  }
}
