// Schemas of the task tools and collab_claim_next.
import { MAX_TASK_CONSTRAINTS, MAX_TASK_DEPENDENCIES, MAX_TASK_FILES } from '../limits.js';
import { TASK_KINDS, TASK_STATUSES } from '../model.js';
import { actingAgent, agentName, nullable, priority, taskId, text, workspacePath } from './common-schemas.js';
import { lockOutput } from './lock-schemas.js';

const DAY = 86_400;
const nullableString = nullable({ type: 'string' });
const nullableInteger = nullable({ type: 'integer' });
const strings = { type: 'array', items: { type: 'string' } } as const;

export const taskOutput = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id', 'title', 'description', 'kind', 'priority', 'status', 'assignee', 'created_by', 'relevant_files', 'constraints', 'background', 'depends_on',
    'expected_duration_seconds', 'progress_percent', 'progress_note', 'eta_at', 'blocked_reason', 'plan_id', 'plan_item_id', 'created_at', 'updated_at', 'started_at', 'finished_at',
  ],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    description: nullableString,
    kind: { enum: TASK_KINDS },
    priority: { type: 'integer' },
    status: { enum: TASK_STATUSES },
    assignee: { type: 'string', description: 'An agent, or any.' },
    created_by: { type: 'string' },
    relevant_files: { ...strings, description: 'Workspace paths, relative to its root.' },
    constraints: strings,
    background: nullableString,
    depends_on: { type: 'array', items: { type: 'integer' } },
    expected_duration_seconds: nullableInteger,
    progress_percent: nullableInteger,
    progress_note: nullableString,
    eta_at: nullableString,
    blocked_reason: nullableString,
    plan_id: nullableString,
    plan_item_id: nullableString,
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    started_at: nullableString,
    finished_at: nullableString,
  },
} as const;

const taskRef = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'status'],
  properties: { id: { type: 'integer' }, title: { type: 'string' }, status: { enum: TASK_STATUSES } },
} as const;

const noteOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'value', 'author', 'updated_at'],
  properties: { key: { type: 'string' }, value: { type: 'string' }, author: { type: 'string' }, updated_at: { type: 'string' } },
} as const;

export const files = { type: 'array', items: workspacePath, maxItems: MAX_TASK_FILES } as const;
export const constraints = { type: 'array', items: text(1000), maxItems: MAX_TASK_CONSTRAINTS } as const;
const assignee = { ...agentName, description: 'An agent, or any: whoever claims it first.' } as const;

export const createTaskInput = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    title: text(200),
    description: text(20_000),
    priority: { ...priority, default: 3 },
    assignee: { ...assignee, default: 'any' },
    relevant_files: { ...files, description: 'Locked for whoever claims the task.' },
    constraints,
    background: text(20_000),
    expected_duration_seconds: { type: 'integer', minimum: 1, maximum: 30 * DAY },
    depends_on: { type: 'array', items: taskId, maxItems: MAX_TASK_DEPENDENCIES, uniqueItems: true },
    plan_id: text(128),
    plan_item_id: text(128, 'Needs plan_id.'),
    agent: actingAgent,
  },
} as const;

export const taskResultOutput = { type: 'object', additionalProperties: false, required: ['task'], properties: { task: taskOutput } } as const;

export const listTasksInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { enum: [...TASK_STATUSES, 'all'], default: 'all' },
    assignee: { ...agentName, description: 'Tasks for any match too, unless exact.' },
    exact: { type: 'boolean', default: false },
    created_by: agentName,
    kind: { enum: TASK_KINDS },
    plan_id: text(128),
    depends_on: { ...taskId, description: 'Only tasks waiting for it.' },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    cursor: { type: 'string', pattern: '^[0-9]{1,16}$' },
  },
} as const;

export const listTasksOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['tasks', 'count'],
  properties: {
    tasks: { type: 'array', items: taskOutput },
    count: { type: 'integer' },
    next_cursor: { type: 'string', description: 'Present when more tasks follow: pass it as cursor.' },
  },
} as const;

export const getTaskInput = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: taskId } } as const;

export const getTaskOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task', 'dependencies', 'dependents', 'dependents_total', 'notes'],
  properties: {
    task: taskOutput,
    dependencies: { type: 'array', items: taskRef, description: 'The tasks it waits for, with their statuses.' },
    dependents: { type: 'array', items: taskRef, description: 'The first tasks that wait for it, by id (at most 50): collab_list_tasks with depends_on pages through all of them.' },
    dependents_total: { type: 'integer', description: 'How many tasks wait for it.' },
    notes: { type: 'array', items: noteOutput, description: 'Its shared notes (collab_update_work_context).' },
  },
} as const;

export const updateTaskInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: taskId,
    status: { enum: TASK_STATUSES, description: 'in_progress → pending gives it back.' },
    blocked_by: text(2000, 'Sets status blocked.'),
    assignee,
    priority,
    add_dependency: taskId,
    remove_dependency: taskId,
    agent: actingAgent,
  },
} as const;

export const taskChangeOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task', 'released_locks'],
  properties: { task: taskOutput, released_locks: { ...strings, description: 'Locks of its holder for this task that were released.' } },
} as const;

export const replayTaskInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: taskId,
    reassign_to: agentName,
    keep: { type: 'boolean', default: false, description: 'Keep its assignee.' },
    agent: actingAgent,
  },
} as const;

export const reportProgressInput = {
  type: 'object',
  additionalProperties: false,
  required: ['task_id', 'description'],
  properties: {
    task_id: taskId,
    description: text(2000, 'What is done, what is next.'),
    percent: { type: 'integer', minimum: 0, maximum: 100 },
    eta_seconds: { type: 'integer', minimum: 0, maximum: 30 * DAY },
    agent: actingAgent,
  },
} as const;

export const workContextInput = { type: 'object', additionalProperties: false, required: ['task_id'], properties: { task_id: taskId } } as const;

export const updateWorkContextInput = {
  type: 'object',
  additionalProperties: false,
  required: ['task_id'],
  dependentRequired: { key: ['value'], value: ['key'] },
  properties: {
    task_id: taskId,
    key: text(128, 'With value: a shared note; same key replaces.'),
    value: text(20_000),
    background: text(20_000, 'Replaces the background.'),
    add_files: files,
    add_constraints: constraints,
    agent: actingAgent,
  },
} as const;

export const workContextOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task_id', 'title', 'status', 'relevant_files', 'background', 'constraints', 'notes'],
  properties: {
    task_id: { type: 'integer' },
    title: { type: 'string' },
    status: { enum: TASK_STATUSES },
    relevant_files: strings,
    background: nullableString,
    constraints: strings,
    notes: { type: 'array', items: noteOutput },
  },
} as const;

export const claimNextInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    dry_run: { type: 'boolean', default: false },
    agent: actingAgent,
  },
} as const;

export const claimNextOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['action', 'dry_run'],
  properties: {
    action: { enum: ['continue_task', 'read_messages', 'claimed', 'work_on_plan_item', 'idle'] },
    dry_run: { type: 'boolean' },
    task: { ...taskOutput, description: 'continue_task: your task in progress; claimed: the task now yours.' },
    unread: { type: 'integer', description: 'read_messages: how many (collab_read_messages).' },
    locked: { ...strings, description: "claimed: the task's files now locked for you." },
    lock_conflicts: { type: 'array', items: lockOutput, description: "claimed: the task's files other agents hold; coordinate with them." },
    plan_id: { type: 'string' },
    item: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'title', 'description', 'priority', 'acceptance'],
      description: 'work_on_plan_item: a pending item of the active plan without owner (take it with collab_update_plan_item, owner: you).',
      properties: { id: { type: 'string' }, title: { type: 'string' }, description: nullableString, priority: { type: 'integer' }, acceptance: strings },
    },
  },
} as const;
