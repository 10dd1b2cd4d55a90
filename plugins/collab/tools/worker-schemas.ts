// Schemas of the worker tools.
import { WORKER_STATUSES } from '../workers/worker.js';
import { actingAgent, agentName, nullable, taskId, text } from './common-schemas.js';

export const MAX_INPUT_CHARS = 50_000;
export const MAX_OUTPUT_BYTES = 16_384;

const commitMessage = text(1000);

export const workerView = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'driver', 'status', 'task_id', 'pid', 'restarts', 'worktree', 'branch', 'spawned_at', 'last_output_age_s', 'heartbeat_age_s', 'reason', 'exit_code'],
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    driver: { type: 'string', description: 'The agent that spawned it, which gets its alerts.' },
    status: { enum: WORKER_STATUSES },
    task_id: nullable({ type: 'integer' }),
    pid: nullable({ type: 'integer', description: 'While a run of it is alive.' }),
    restarts: { type: 'integer' },
    worktree: nullable({ type: 'string', description: 'Its git worktree folder, if it has one.' }),
    branch: nullable({ type: 'string' }),
    spawned_at: { type: 'string' },
    last_output_age_s: nullable({ type: 'integer', description: 'Seconds since it last printed anything (null: never).' }),
    heartbeat_age_s: nullable({ type: 'integer', description: 'Seconds since its agent last made a collab call, as of the last health check.' }),
    reason: nullable({ type: 'string', description: 'Why it ended, or why it was last restarted.' }),
    exit_code: nullable({ type: 'integer' }),
  },
} as const;

const commitResult = {
  type: 'object',
  additionalProperties: false,
  required: ['committed', 'commit', 'files'],
  properties: {
    committed: { type: 'boolean', description: 'False when there was nothing to commit (or no worktree).' },
    commit: nullable({ type: 'string', description: 'The new commit hash.' }),
    files: { type: 'integer', description: 'Changed paths the commit took.' },
  },
} as const;

export const spawnInput = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { ...agentName, description: 'One of plugins.collab.config.workers.kinds.' },
    task_id: taskId,
    name: agentName,
    input: { type: 'string', maxLength: MAX_INPUT_CHARS, description: 'Its stdin, e.g. a prompt.' },
    agent: actingAgent,
  },
} as const;

export const listInput = {
  type: 'object',
  additionalProperties: false,
  properties: { live_only: { type: 'boolean', default: false } },
} as const;

export const sendInputInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'input'],
  properties: {
    name: agentName,
    input: { type: 'string', minLength: 1, maxLength: MAX_INPUT_CHARS, description: 'Add "\\n" to end a line.' },
    agent: actingAgent,
  },
} as const;

export const outputInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: agentName,
    max_bytes: { type: 'integer', minimum: 64, maximum: MAX_OUTPUT_BYTES, default: 2048, description: 'Per stream.' },
  },
} as const;

export const dismissInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: agentName,
    commit: { type: 'boolean', default: false, description: 'Else its changes are lost.' },
    message: commitMessage,
    agent: actingAgent,
  },
} as const;

export const commitInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'message'],
  properties: { name: agentName, message: commitMessage, agent: actingAgent },
} as const;

export const spawnOutput = workerView;

export const listOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['workers'],
  properties: { workers: { type: 'array', items: workerView } },
} as const;

export const sendInputOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'chars'],
  properties: { name: { type: 'string' }, chars: { type: 'integer', description: 'Characters written.' } },
} as const;

export const outputOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'status', 'stdout', 'stderr'],
  properties: {
    name: { type: 'string' },
    status: { enum: WORKER_STATUSES },
    stdout: { type: 'string', description: 'Its latest stdout (of its current or last run), control characters removed.' },
    stderr: { type: 'string' },
  },
} as const;

export const dismissOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['worker', 'commit'],
  properties: { worker: workerView, commit: nullable(commitResult) },
} as const;

export const commitOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'branch', 'committed', 'commit', 'files'],
  properties: { name: { type: 'string' }, branch: nullable({ type: 'string' }), ...commitResult.properties },
} as const;
