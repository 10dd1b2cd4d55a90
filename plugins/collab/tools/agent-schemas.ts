// Schemas of the agent and presence tools.
import { PRESENCE_STATES } from '../model.js';
import { agentName, nullable, text } from './common-schemas.js';

const registration = {
  name: agentName,
  display_name: text(128, 'A name for people to read.'),
  capabilities: { type: 'array', items: text(64, 'A capability, e.g. go, review, frontend.'), maxItems: 32, uniqueItems: true, description: 'What the agent is good at.' },
  project: text(128, 'The project the agent works on.'),
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
  required: ['agent', 'created', 'session_bound', 'unread_messages', 'pending_tasks'],
  properties: {
    agent: agentOutput,
    created: { type: 'boolean', description: 'Whether the agent was registered by this call.' },
    session_bound: { type: 'boolean', description: 'Whether this session now acts as the agent (false over REST, which has no session).' },
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
