// Plans: create, read, list, activate; add and update items. One tool per action, so that each
// schema says exactly what its action takes.
import type { ToolDefinition } from '../../../core/index.js';
import type { Collab } from '../collab.js';
import { MAX_ITEM_BLOCKERS } from '../limits.js';
import {
  activatePlanInput,
  addPlanItemInput,
  addPlanItemOutput,
  createPlanInput,
  getPlanInput,
  listPlansInput,
  listPlansOutput,
  planOutput,
  updatePlanItemInput,
  updatePlanItemOutput,
} from './plan-schemas.js';

export const collabCreatePlan = {
  name: 'collab_create_plan',
  title: 'Create a plan',
  description:
    'Creates a plan: a goal, its context, and (added next with collab_add_plan_item) items with owners, priorities, acceptance criteria and dependencies. ' +
    'By default it becomes the active plan, the only one, which other plan tools use when given no id; it is readable as the resource collab://plans/<id>. ' +
    'Errors: COLLAB_PLAN_EXISTS (the id is taken), COLLAB_AGENT_REQUIRED, COLLAB_NOT_PERMITTED.',
  inputSchema: { ...createPlanInput, examples: [{ id: 'explorer-demo', title: 'Explorer demo plan', goal: 'Try the plan tools from the explorer.', set_active: false }] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabGetPlan = {
  name: 'collab_get_plan',
  title: 'Read a plan',
  description:
    'The plan with its items in order, a page at a time (limit, default 50, at most 200; offset: next_offset of the previous page), and progress counts per status of all of them, by id or, without one, the active plan. For a Markdown view, read the resource collab://plans/<id>. ' +
    'Errors: COLLAB_PLAN_NOT_FOUND (no such plan, or no active plan).',
  inputSchema: { ...getPlanInput, examples: [{}] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListPlans = {
  name: 'collab_list_plans',
  title: 'List plans',
  description: 'Every plan with its progress counts (no items), the active plan first, then the most recently changed.',
  inputSchema: { ...listPlansInput, examples: [{ limit: 20 }] },
  outputSchema: listPlansOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabActivatePlan = {
  name: 'collab_activate_plan',
  title: 'Activate a plan',
  description:
    'Makes a plan the active one (the others inactive): the plan collab_get_plan, collab_add_plan_item, collab_update_plan_item and collab_claim_next use when given no plan. ' +
    'Errors: COLLAB_PLAN_NOT_FOUND, COLLAB_AGENT_REQUIRED, COLLAB_NOT_PERMITTED.',
  inputSchema: { ...activatePlanInput, examples: [{ id: 'explorer-demo' }] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabAddPlanItem = {
  name: 'collab_add_plan_item',
  title: 'Add an item to a plan',
  description:
    'Adds an item (pending) at the end of a plan, the active one unless plan_id: title, description, owner, priority (default 2), reasoning, acceptance criteria, constraints, and dependencies on items added before it. ' +
    'Errors: COLLAB_PLAN_NOT_FOUND, COLLAB_PLAN_ITEM_EXISTS, COLLAB_PLAN_TOO_LARGE (the plan has plans.maxItems items, 200 by default), COLLAB_AGENT_NOT_FOUND (the owner), COLLAB_DEPENDENCY_INVALID (itself, or an item the plan does not have), COLLAB_AGENT_REQUIRED, COLLAB_NOT_PERMITTED.',
  inputSchema: { ...addPlanItemInput, examples: [{ plan_id: 'explorer-demo', id: 'try-it', title: 'Try the explorer', acceptance: ['Every plan tool called once'] }] },
  outputSchema: addPlanItemOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabUpdatePlanItem = {
  name: 'collab_update_plan_item',
  title: 'Update a plan item',
  description:
    "Changes an item of a plan (the active one unless plan_id): status, owner, a blocker added or removed, a note added (kept with you as its author and the time), reasoning, acceptance criteria, constraints. " +
    'Agents updating the same item at once all keep their changes. Answers the item and what changed. ' +
    `Errors: COLLAB_PLAN_NOT_FOUND, COLLAB_PLAN_ITEM_NOT_FOUND, COLLAB_PLAN_TOO_LARGE (more than ${MAX_ITEM_BLOCKERS} blockers), COLLAB_AGENT_NOT_FOUND (the owner), COLLAB_BUSY (retry), COLLAB_AGENT_REQUIRED, COLLAB_NOT_PERMITTED.`,
  inputSchema: { ...updatePlanItemInput, examples: [{ plan_id: 'explorer-demo', item_id: 'try-it', status: 'in_progress', add_note: 'Started from the explorer.' }] },
  outputSchema: updatePlanItemOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerPlanTools({ ctx, identity, plans }: Collab): void {
  ctx.tool(collabCreatePlan, async ({ agent, ...plan }, call) => plans.create(plan, await identity.acting(call, agent)));

  ctx.tool(collabGetPlan, (args) => plans.get(args.id, { offset: args.offset, limit: args.limit }));

  ctx.tool(collabListPlans, async (args) => {
    const list = await plans.list(args.limit);
    return { plans: list, count: list.length };
  });

  ctx.tool(collabActivatePlan, async (args, call) => plans.activate(args.id, await identity.acting(call, args.agent)));

  ctx.tool(collabAddPlanItem, async ({ agent, plan_id, ...item }, call) => plans.addItem(plan_id, item, await identity.acting(call, agent)));

  ctx.tool(collabUpdatePlanItem, async ({ agent, plan_id, item_id, ...changes }, call) => plans.updateItem(plan_id, item_id, changes, await identity.acting(call, agent)));
}
