// Plans: create, read, list, activate; add and update items. One tool per action, so that each
// schema says exactly what its action takes.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
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
    'Creates a plan for a goal; add its items with collab_add_plan_item. It becomes the active plan, the one plan tools use when given none, unless set_active is false.',
  inputSchema: { ...createPlanInput, examples: [{ id: 'explorer-demo', title: 'Explorer demo plan', goal: 'Try the plan tools from the explorer.', set_active: false }] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabGetPlan = {
  name: 'collab_get_plan',
  title: 'Read a plan',
  description: 'A plan with its items in order, a page at a time, and progress counts. For Markdown, read the resource collab://plans/<id>.',
  inputSchema: { ...getPlanInput, examples: [{}] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListPlans = {
  name: 'collab_list_plans',
  title: 'List plans',
  description: 'Lists every plan with its progress counts, the active plan first.',
  inputSchema: { ...listPlansInput, examples: [{ limit: 20 }] },
  outputSchema: listPlansOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabActivatePlan = {
  name: 'collab_activate_plan',
  title: 'Activate a plan',
  description: 'Makes a plan the active one, which plan tools and collab_claim_next use when given none.',
  inputSchema: { ...activatePlanInput, examples: [{ id: 'explorer-demo' }] },
  outputSchema: planOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabAddPlanItem = {
  name: 'collab_add_plan_item',
  title: 'Add an item to a plan',
  description: 'Adds a pending item at the end of a plan: a step of the work, with its owner, acceptance criteria and dependencies.',
  inputSchema: { ...addPlanItemInput, examples: [{ plan_id: 'explorer-demo', id: 'try-it', title: 'Try the explorer', acceptance: ['Every plan tool called once'] }] },
  outputSchema: addPlanItemOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabUpdatePlanItem = {
  name: 'collab_update_plan_item',
  title: 'Update a plan item',
  description: "Changes a plan item's status, owner, blockers or notes, or replaces its reasoning, acceptance or constraints.",
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
