// Schemas of the agent and presence tools.
import { PRESENCE_STATES, type Presence } from '../model.js';
import { actingAgent, agentName, nullable, taskId, text } from './common-schemas.js';

const registration = {
  name: agentName,
  display_name: text(128),
  capabilities: { type: 'array', items: text(64), maxItems: 32, uniqueItems: true, description: 'e.g. go, review.' },
  project: text(128),
} as const;

export const joinInput = { type: 'object', additionalProperties: false, required: ['name'], properties: registration } as const;
export const registerInput = joinInput;

export const agentOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'display_name', 'capabilities', 'project', 'presence', 'presence_note', 'current_task_id', 'progress', 'step', 'total_steps', 'kind', 'registered_at', 'last_seen_at'],
  properties: {
    name: { type: 'string' },
    display_name: nullable({ type: 'string' }),
    capabilities: { type: 'array', items: { type: 'string' } },
    project: nullable({ type: 'string' }),
    presence: { enum: PRESENCE_STATES },
    presence_note: nullable({ type: 'string' }),
    current_task_id: nullable({ type: 'integer' }),
    progress: nullable({ type: 'string' }),
    step: nullable({ type: 'integer' }),
    total_steps: nullable({ type: 'integer' }),
    kind: { enum: ['agent', 'worker'] },
    registered_at: { type: 'string' },
    last_seen_at: { type: 'string' },
  },
} as const;

export const joinOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'created', 'session_bound', 'agent_handle', 'handle_expires_at', 'unread_messages', 'pending_tasks'],
  properties: {
    agent: agentOutput,
    created: { type: 'boolean', description: 'Whether the agent was registered by this call.' },
    session_bound: { type: 'boolean', description: 'Whether this session now acts as the agent (false without one: 2026-07-28, REST).' },
    agent_handle: { type: 'string', description: 'Without a session, pass it as agent in later collab calls.' },
    handle_expires_at: { type: 'string', format: 'date-time' },
    unread_messages: { type: 'integer' },
    pending_tasks: { type: 'integer', description: 'Pending tasks assigned to the agent by name.' },
  },
} as const;

export const registerOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'created'],
  properties: { agent: agentOutput, created: { type: 'boolean' } },
} as const;

/** What an agent may say it is doing; `offline` is only ever read, never set. */
const SETTABLE_PRESENCE = ['idle', 'working', 'reviewing', 'away'] as const satisfies readonly Presence[];

export const listAgentsInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    active_only: { type: 'boolean', default: false, description: 'Only agents seen recently (an hour by default).' },
    project: text(128),
    capability: text(64),
    presence: { enum: PRESENCE_STATES },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    cursor: agentName,
  },
} as const;

export const listAgentsOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agents', 'count'],
  properties: {
    agents: { type: 'array', items: agentOutput },
    count: { type: 'integer' },
    next_cursor: { type: 'string', description: 'Present when more agents follow: pass it as cursor. With capability, a page may hold fewer than limit agents (even none) and still have one.' },
  },
} as const;

export const heartbeatInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    agent: actingAgent,
    progress: text(500),
    step: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    total_steps: { type: 'integer', minimum: 1, maximum: 1_000_000 },
  },
} as const;

export const heartbeatOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['ok', 'agent'],
  properties: { ok: { const: true }, agent: agentOutput },
} as const;

export const setPresenceInput = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    agent: actingAgent,
    status: { enum: SETTABLE_PRESENCE },
    note: text(500),
    current_task_id: { ...nullable(taskId), description: 'null clears it.' },
  },
} as const;

export const setPresenceOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agent'],
  properties: { agent: agentOutput },
} as const;

export const cancelAgentInput = {
  type: 'object',
  additionalProperties: false,
  required: ['target'],
  properties: {
    agent: actingAgent,
    target: { ...agentName, description: 'The agent to stop.' },
    reason: text(1000),
  },
} as const;

export const cancelAgentOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'cancelled_tasks', 'message_id'],
  properties: {
    agent: agentOutput,
    cancelled_tasks: {
      type: 'array',
      description: 'The tasks it had in progress, now cancelled.',
      items: { type: 'object', additionalProperties: false, required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' } } },
    },
    message_id: { type: 'integer', description: 'The STOP message sent to it.' },
  },
} as const;
