// Schemas of the message tools.
import { MESSAGE_KINDS } from '../model.js';
import { actingAgent, agentName, nullable, taskId } from './common-schemas.js';

const messageId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "A message's id." } as const;

// The schema caps are the config's largest; the configured caps (COLLAB_MESSAGE_TOO_LARGE) are checked by the mailbox.
export const sendMessageInput = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'body'],
  properties: {
    agent: actingAgent,
    to: { ...agentName, description: 'The agent to send to, or "all" for every agent (but you). You may send to yourself: a reminder that shows as unread.' },
    subject: { type: 'string', minLength: 1, maxLength: 1000, description: 'A subject line (at most messages.maxSubjectChars, 200 by default).' },
    body: { type: 'string', minLength: 1, maxLength: 1_000_000, description: 'The text (at most messages.maxBodyChars, 50,000 by default). Long material: put it in a file and send its path.' },
    reply_to: { ...messageId, description: 'The message this answers (one you received or sent): the reply joins its thread.' },
    task_id: { ...taskId, description: 'A task the message is about.' },
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
    filter: { enum: ['unread', 'all', 'sent'], default: 'unread', description: 'unread: what you have not read; all: everything you received and sent; sent: what you sent.' },
    from: { ...agentName, description: 'Only messages from this agent (system: what the gateway said).' },
    thread_id: { ...messageId, description: 'Only this thread.' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Messages at most, newest first.' },
    before_id: { ...messageId, description: 'Only messages older than this id: next_before_id of the previous page.' },
    mark_read: { type: 'boolean', default: true, description: 'Mark the messages returned (exactly those) read.' },
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
    ids: { type: 'array', items: messageId, minItems: 1, maxItems: 500, uniqueItems: true, description: 'The messages to mark read (ones you may read).' },
    all: { type: 'boolean', const: true, description: 'Mark every message you may read, up to now, read.' },
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
