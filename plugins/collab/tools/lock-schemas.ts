// Schemas of the file lock tools.
import { actingAgent, agentName, nullable, taskId, text, workspacePath } from './common-schemas.js';

export const lockOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'agent', 'reason', 'task_id', 'locked_at', 'expires_at'],
  properties: {
    path: { type: 'string', description: 'Relative to the workspace root, with /.' },
    agent: { type: 'string', description: 'Who holds it.' },
    reason: nullable({ type: 'string' }),
    task_id: nullable({ type: 'integer' }),
    locked_at: { type: 'string' },
    expires_at: { type: 'string' },
  },
} as const;

const minutes = { type: 'integer', minimum: 1, maximum: 120, description: 'Default 30.' } as const;

export const lockFileInput = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: workspacePath,
    reason: text(500),
    duration_minutes: minutes,
    task_id: { ...taskId, description: 'Default: your task in progress.' },
    agent: actingAgent,
  },
} as const;

export const lockFileOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['lock', 'extended'],
  properties: { lock: lockOutput, extended: { type: 'boolean', description: 'Whether you held it already and this call extended it.' } },
} as const;

export const unlockFileInput = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: workspacePath,
    force: { type: 'boolean', default: false, description: "Release another's lock: audited." },
    agent: actingAgent,
  },
} as const;

export const unlockFileOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'released', 'forced', 'holder'],
  properties: {
    path: { type: 'string' },
    released: { type: 'boolean', description: 'False when the path was not locked.' },
    forced: { type: 'boolean', description: "Whether it was another agent's lock." },
    holder: nullable({ type: 'string' }),
  },
} as const;

export const checkLockInput = { type: 'object', additionalProperties: false, required: ['path'], properties: { path: workspacePath } } as const;

export const checkLockOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'locked', 'lock'],
  properties: { path: { type: 'string' }, locked: { type: 'boolean' }, lock: nullable(lockOutput) },
} as const;

export const listLocksInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // A filter here, not the acting agent as everywhere else: say so.
    agent: { ...agentName, description: "Only this agent's locks." },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    offset: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
  },
} as const;

export const listLocksOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['locks', 'count', 'next_offset'],
  properties: {
    locks: { type: 'array', items: lockOutput },
    count: { type: 'integer' },
    next_offset: nullable({ type: 'integer', description: 'Pass it as offset for the next page; null when there is none. Locks taken or released between two pages shift them.' }),
  },
} as const;
