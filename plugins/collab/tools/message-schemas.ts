// Schemas of the message tools.
import { MESSAGE_KINDS } from '../model.js';
import { actingAgent, agentName, nullable, taskId } from './common-schemas.js';

const messageId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

// The schema caps are the config's largest; the configured caps (COLLAB_MESSAGE_TOO_LARGE) are checked by the mailbox.
export const sendMessageInput = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'body'],
  properties: {
    agent: actingAgent,
    to: { ...agentName, description: 'An agent, or all.' },
    subject: { type: 'string', minLength: 1, maxLength: 1000 },
    // The configured cap, not the schema's, is the one a sender meets: say it.
    body: { type: 'string', minLength: 1, maxLength: 1_000_000, description: 'At most 50,000 characters by default; else send a file path.' },
    reply_to: messageId,
    task_id: taskId,
  },
} as const;

export const messageOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'from', 'to', 'subject', 'body', 'kind', 'reply_to', 'thread_id', 'task_id', 'created_at'],
  properties: {
    id: { type: 'integer' },
    from: { type: 'string', description: 'The sender; system for what the gateway says itself (alerts, STOP).' },
    to: { type: 'string', description: 'The recipient, or all.' },
    subject: nullable({ type: 'string' }),
    body: { type: 'string' },
    kind: { enum: MESSAGE_KINDS },
    reply_to: nullable({ type: 'integer' }),
    thread_id: { type: 'integer', description: "The id of the thread's first message." },
    task_id: nullable({ type: 'integer' }),
    created_at: { type: 'string' },
    read: { type: 'boolean', description: 'Whether you had read it before this call (your own messages to others count as read).' },
  },
} as const;

export const readMessagesInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    agent: actingAgent,
    filter: { enum: ['unread', 'all', 'sent'], default: 'unread', description: 'all: received and sent.' },
    from: { ...agentName, description: 'system: the gateway.' },
    thread_id: messageId,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    before_id: messageId,
    mark_read: { type: 'boolean', default: true },
  },
} as const;

export const readMessagesOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['messages', 'count', 'marked_read', 'unread', 'next_before_id'],
  properties: {
    messages: { type: 'array', items: messageOutput },
    count: { type: 'integer' },
    marked_read: { type: 'integer', description: 'How many of them this call marked read.' },
    unread: { type: 'integer', description: 'Unread messages left after this call.' },
    next_before_id: nullable({ type: 'integer', description: 'Pass it as before_id for the next (older) page; null when there is none.' }),
  },
} as const;

export const markReadInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    agent: actingAgent,
    ids: { type: 'array', items: messageId, minItems: 1, maxItems: 500, uniqueItems: true },
    all: { type: 'boolean', const: true },
  },
} as const;

export const markReadOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['marked', 'unread'],
  properties: {
    marked: { type: 'integer', description: 'How many were unread and are read now.' },
    unread: { type: 'integer', description: 'Unread messages left.' },
  },
} as const;
