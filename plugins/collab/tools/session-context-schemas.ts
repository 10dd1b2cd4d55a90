// Schemas of collab_session_context: everything an agent needs at the start of a session, in one answer.
import { MESSAGE_KINDS, TASK_KINDS, TASK_STATUSES } from '../model.js';
import { agentOutput } from './agent-schemas.js';
import { actingAgent, nullable } from './common-schemas.js';
import { noteOutput } from './note-schemas.js';

export const sessionContextInput = {
  type: 'object',
  additionalProperties: false,
  properties: { agent: actingAgent },
} as const;

const messagePreview = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'from', 'to', 'subject', 'kind', 'preview', 'created_at'],
  properties: {
    id: { type: 'integer' },
    from: { type: 'string' },
    to: { type: 'string' },
    subject: nullable({ type: 'string' }),
    kind: { enum: MESSAGE_KINDS },
    preview: { type: 'string', description: 'The first 160 characters of the body.' },
    created_at: { type: 'string' },
  },
} as const;

const taskSummary = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'kind', 'status', 'priority', 'progress_percent', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    kind: { enum: TASK_KINDS },
    status: { enum: TASK_STATUSES },
    priority: { type: 'integer' },
    progress_percent: nullable({ type: 'integer' }),
    updated_at: { type: 'string' },
  },
} as const;

const heldLock = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'reason', 'task_id', 'expires_at'],
  properties: { path: { type: 'string' }, reason: nullable({ type: 'string' }), task_id: nullable({ type: 'integer' }), expires_at: { type: 'string' } },
} as const;

export const sessionContextOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'session_bound', 'unread_messages', 'unread_previews', 'tasks', 'locks', 'notes', 'workspace', 'active_plan'],
  properties: {
    agent: agentOutput,
    session_bound: { type: 'boolean', description: 'Whether this session acts as the agent (collab_join).' },
    unread_messages: { type: 'integer' },
    unread_previews: { type: 'array', items: messagePreview, description: 'The newest unread messages (5 at most); collab_read_messages reads them.' },
    tasks: {
      type: 'object',
      additionalProperties: false,
      required: ['in_progress', 'pending'],
      description: 'Tasks assigned to the agent by name (20 of each at most, most urgent first).',
      properties: { in_progress: { type: 'array', items: taskSummary }, pending: { type: 'array', items: taskSummary } },
    },
    locks: { type: 'array', items: heldLock, description: 'File locks the agent holds.' },
    notes: { type: 'array', items: noteOutput, description: 'The last 5 session notes, newest first.' },
    workspace: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'git_branch'],
      properties: { name: { type: 'string', description: "The workspace folder's name." }, git_branch: nullable({ type: 'string' }) },
    },
    active_plan: nullable({ type: 'object', additionalProperties: false, required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } }),
  },
} as const;
