// Schemas of the plan tools.
import { PLAN_ITEM_STATUSES } from '../model.js';
import { FIRST_PAGE, MAX_ITEMS_PAGE } from '../plans/plan-reads.js';
import { actingAgent, agentName, nullable, priority, text } from './common-schemas.js';

/** Plan and item ids: short, lower case, safe in a URI (`collab://plans/<id>`). */
export const PLAN_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

export const planId = { type: 'string', pattern: PLAN_ID_PATTERN } as const;
const itemId = { type: 'string', pattern: PLAN_ID_PATTERN } as const;
const planIdOrActive = { ...planId, description: 'Default: the active plan.' } as const;
const lines = { type: 'array', items: text(1000), maxItems: 50 } as const;

export const createPlanInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'goal'],
  properties: {
    id: planId,
    title: text(200),
    goal: text(4000),
    context: text(20_000),
    set_active: { type: 'boolean', default: true },
    agent: actingAgent,
  },
} as const;

export const getPlanInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: planIdOrActive,
    offset: { type: 'integer', minimum: 0, maximum: 10_000, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: MAX_ITEMS_PAGE, default: FIRST_PAGE.limit },
  },
} as const;

export const listPlansInput = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
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
    title: text(200),
    description: text(10_000),
    owner: agentName,
    priority: { ...priority, default: 2 },
    reasoning: text(4000),
    dependencies: { type: 'array', items: itemId, maxItems: 50, uniqueItems: true, description: 'Earlier items to finish first.' },
    acceptance: lines,
    constraints: lines,
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
    status: { enum: PLAN_ITEM_STATUSES },
    owner: nullable(agentName),
    add_blocker: text(1000),
    remove_blocker: text(1000, 'As written when added.'),
    add_note: text(4000),
    reasoning: text(4000),
    acceptance: lines,
    constraints: lines,
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
