// Schemas of the plan tools.
import { PLAN_ITEM_STATUSES } from '../model.js';
import { MAX_ITEM_BLOCKERS } from '../limits.js';
import { FIRST_PAGE, MAX_ITEMS_PAGE } from '../plans/plan-reads.js';
import { actingAgent, agentName, nullable, priority, text } from './common-schemas.js';

/** Plan and item ids: short, lower case, safe in a URI (`collab://plans/<id>`). */
export const PLAN_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

export const planId = { type: 'string', pattern: PLAN_ID_PATTERN, description: 'A plan id: lower case letters, digits, - and _ (at most 64).' } as const;
const itemId = { type: 'string', pattern: PLAN_ID_PATTERN, description: 'An item id, unique within its plan: lower case letters, digits, - and _ (at most 64).' } as const;
const planIdOrActive = { ...planId, description: 'The plan; the active plan when left out.' } as const;
const lines = (description: string) => ({ type: 'array', items: text(1000, 'One line.'), maxItems: 50, description }) as const;

export const createPlanInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'goal'],
  properties: {
    id: planId,
    title: text(200, 'A short title.'),
    goal: text(4000, 'What the plan achieves when done.'),
    context: text(20_000, 'Background the agents need: the codebase, decisions taken, links.'),
    set_active: { type: 'boolean', default: true, description: 'Make it the active plan (the only one): the plan collab_get_plan and collab_add_plan_item use when they are given no id.' },
    agent: actingAgent,
  },
} as const;

export const getPlanInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: planIdOrActive,
    offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0, description: 'Items to skip, in the order they were added: next_offset of the previous page.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_ITEMS_PAGE, default: FIRST_PAGE.limit, description: 'Items at most in this page.' },
  },
} as const;

export const listPlansInput = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'Plans at most.' } },
} as const;

export const activatePlanInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: planId, agent: actingAgent },
} as const;

export const addPlanItemInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title'],
  properties: {
    plan_id: planIdOrActive,
    id: itemId,
    title: text(200, 'A short title.'),
    description: text(10_000, 'What the item is.'),
    owner: { ...agentName, description: 'The agent responsible for it (registered).' },
    priority: { ...priority, default: 2 },
    reasoning: text(4000, 'Why this item, why this way.'),
    dependencies: { type: 'array', items: itemId, maxItems: 50, uniqueItems: true, description: 'Ids of items of the same plan that must be done first (added before this one).' },
    acceptance: lines('Acceptance criteria: when the item counts as done.'),
    constraints: lines('Constraints to respect.'),
    agent: actingAgent,
  },
} as const;

export const updatePlanItemInput = {
  type: 'object',
  additionalProperties: false,
  required: ['item_id'],
  properties: {
    plan_id: planIdOrActive,
    item_id: itemId,
    status: { enum: PLAN_ITEM_STATUSES, description: 'The new status.' },
    owner: { ...nullable(agentName), description: 'The new owner (a registered agent), or null for none.' },
    add_blocker: text(1000, `A blocker to add (what stops the item); an item holds ${MAX_ITEM_BLOCKERS} at most.`),
    remove_blocker: text(1000, 'A blocker to remove, as written when added.'),
    add_note: text(4000, 'A note, stored with you as its author and the time (the newest plans.maxNotesPerItem, 50 by default, are kept).'),
    reasoning: text(4000, 'Replaces the reasoning.'),
    acceptance: lines('Replaces the acceptance criteria.'),
    constraints: lines('Replaces the constraints.'),
    agent: actingAgent,
  },
} as const;

const strings = { type: 'array', items: { type: 'string' } } as const;

export const planItemOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'description', 'owner', 'priority', 'status', 'reasoning', 'acceptance', 'constraints', 'dependencies', 'blockers', 'notes', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: nullable({ type: 'string' }),
    owner: nullable({ type: 'string' }),
    priority: { type: 'integer' },
    status: { enum: PLAN_ITEM_STATUSES },
    reasoning: nullable({ type: 'string' }),
    acceptance: strings,
    constraints: strings,
    dependencies: strings,
    blockers: strings,
    notes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['author', 'text', 'at'],
        properties: { author: { type: 'string' }, text: { type: 'string' }, at: { type: 'string' } },
      },
    },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const progressOutput = {
  type: 'object',
  additionalProperties: false,
  required: [...PLAN_ITEM_STATUSES, 'total'],
  description: 'Items per status, and in all.',
  properties: { ...Object.fromEntries(PLAN_ITEM_STATUSES.map((s) => [s, { type: 'integer' }])), total: { type: 'integer' } },
} as const;

const planSummaryProperties = {
  id: { type: 'string' },
  title: { type: 'string' },
  goal: { type: 'string' },
  context: nullable({ type: 'string' }),
  created_by: { type: 'string' },
  active: { type: 'boolean' },
  created_at: { type: 'string' },
  updated_at: { type: 'string' },
  progress: progressOutput,
} as const;
const planSummaryRequired = ['id', 'title', 'goal', 'context', 'created_by', 'active', 'created_at', 'updated_at', 'progress'] as const;

export const planOutput = {
  type: 'object',
  additionalProperties: false,
  required: [...planSummaryRequired, 'items', 'next_offset'],
  properties: {
    ...planSummaryProperties,
    items: { type: 'array', items: planItemOutput, description: 'One page of the items, in the order they were added (progress counts them all).' },
    next_offset: nullable({ type: 'integer', description: 'Pass it as offset for the next page of items; null when there is none.' }),
  },
} as const;

export const listPlansOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['plans', 'count'],
  properties: {
    plans: { type: 'array', items: { type: 'object', additionalProperties: false, required: planSummaryRequired, properties: planSummaryProperties } },
    count: { type: 'integer' },
  },
} as const;

export const addPlanItemOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['plan_id', 'item'],
  properties: { plan_id: { type: 'string' }, item: planItemOutput },
} as const;

export const updatePlanItemOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['plan_id', 'item', 'changed'],
  properties: { plan_id: { type: 'string' }, item: planItemOutput, changed: { ...strings, description: 'What this call changed; empty when nothing did.' } },
} as const;
