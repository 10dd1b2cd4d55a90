// collab's resources: each plan as Markdown (collab://plans/<id>), each agent's instructions,
// the workflow guide and the quick reference. Changes reach subscribers through the events,
// so a plan changed on another gateway of the team updates this gateway's subscribers too.
import type { GatewayEvent } from '@mcp-gateway/core';
import { agentInstructions } from './agent-instructions.js';
import { agentNames } from './completions.js';
import type { Collab } from './collab.js';
import type { TaskEvent } from './events.js';
import { quickReference, WORKFLOW_GUIDE, type ToolSummary } from './guides.js';
import type { MessageSentEvent } from './mailbox.js';
import { AGENT_NAME_PATTERN, ANYONE, BROADCAST } from './model.js';
import type { PlanEvent } from './plans/plan-book.js';
import { planMarkdown, planUri } from './plans/plan-markdown.js';
import { MAX_ITEMS_PAGE } from './plans/plan-reads.js';
import { PLAN_ID_PATTERN } from './tools/plan-schemas.js';

/** Plans listed in resources/list at most (each is one entry); every plan is readable by its URI. */
const PLANS_LISTED = 1000;

export const instructionsUri = (agent: string) => `collab://agents/${agent}/instructions`;

export async function registerCollabResources(collab: Collab, tools: readonly ToolSummary[]): Promise<void> {
  const { ctx, plans } = collab;
  // The largest page of items: a plan within the default plans.maxItems reads whole; a larger one says where the rest is.
  const readPlan = async (id: string) => planMarkdown(await plans.get(id, { offset: 0, limit: MAX_ITEMS_PAGE }), await plans.tasks(id));

  ctx.resource(
    {
      uriTemplate: 'collab://plans/{id}',
      name: 'plan',
      title: 'A plan',
      description: 'A collab plan as Markdown: goal, context, progress, and its items by status with owner, priority, acceptance criteria, blockers, notes and linked tasks.',
      mimeType: 'text/markdown',
      variables: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: PLAN_ID_PATTERN } } },
      complete: { id: (value) => plans.ids(value) },
    },
    (_uri, { id }) => readPlan(id!),
  );

  // A template has no list of its own: each plan is also a resource, so that resources/list
  // offers every plan to attach. Plans are never deleted, so entries are only ever added.
  const listed = new Set<string>();
  const list = (id: string, title: string) => {
    if (listed.has(id) || listed.size >= PLANS_LISTED) return;
    listed.add(id);
    ctx.live.resource({ uri: planUri(id), name: `plan-${id}`, title: `Plan: ${title}`, mimeType: 'text/markdown' }, () => readPlan(id));
  };
  for (const plan of await plans.list(PLANS_LISTED)) list(plan.id, plan.title);

  ctx.events.subscribe('collab.plan.*', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const { plan_id } = event.data as PlanEvent;
    ctx.resourceUpdated(planUri(plan_id));
    if (event.channel === 'collab.plan.created') {
      plans
        .get(plan_id)
        // The gateway may have begun to close meanwhile: then there is nothing to list it in.
        .then((plan) => ctx.signal.aborted || list(plan.id, plan.title))
        .catch((err: unknown) => ctx.log.warn({ err, plan_id }, 'collab: a new plan could not be listed as a resource'));
    }
  });

  ctx.resource(
    {
      uriTemplate: 'collab://agents/{name}/instructions',
      name: 'agent-instructions',
      title: "An agent's instructions",
      description: 'For one agent: who it is, how to work here (join, claim, lock, report, complete, hand off), its current tasks, its unread messages and the active plan.',
      mimeType: 'text/markdown',
      variables: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: AGENT_NAME_PATTERN } } },
      complete: { name: (value) => agentNames(collab.store, value) },
    },
    (_uri, { name }, call) => {
      // They hold the agent's unread messages: a key pinned to another agent does not read them.
      collab.identity.checkKeyRights(call, name!);
      return agentInstructions(collab, name!);
    },
  );

  // An agent's instructions show its tasks and unread count: tell its subscribers when they change.
  const touched = (agent: string) => {
    if (agent !== ANYONE && agent !== BROADCAST) ctx.resourceUpdated(instructionsUri(agent));
  };
  ctx.events.subscribe('collab.message.sent', (event: GatewayEvent) => {
    if (event.source === 'collab') touched((event.data as MessageSentEvent).to);
  });
  ctx.events.subscribe('collab.task.*', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const task = event.data as TaskEvent;
    touched(task.assignee);
    if (task.previous_assignee !== undefined) touched(task.previous_assignee);
  });

  ctx.resource(
    { uri: 'collab://guides/workflow', name: 'workflow', title: 'collab workflow', description: 'The protocol a driver and its workers follow: plan, split into tasks, claim, lock, report, complete, hand off.', mimeType: 'text/markdown' },
    () => WORKFLOW_GUIDE,
  );
  const reference = quickReference(tools);
  ctx.resource(
    { uri: 'collab://guides/quick-reference', name: 'quick-reference', title: 'collab quick reference', description: 'Every collab tool in one line, and the resources and prompts.', mimeType: 'text/markdown' },
    () => reference,
  );
}
