// Schemas of the session-note tools.
import { NOTE_CATEGORIES } from '../model.js';
import { actingAgent, agentName, text } from './common-schemas.js';

const noteId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

export const appendNoteInput = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: {
    agent: actingAgent,
    category: { enum: NOTE_CATEGORIES, default: 'note' },
    content: text(10_000),
  },
} as const;

export const noteOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'author', 'category', 'content', 'created_at'],
  properties: {
    id: { type: 'integer' },
    author: { type: 'string' },
    category: { enum: NOTE_CATEGORIES },
    content: { type: 'string' },
    created_at: { type: 'string' },
  },
} as const;

export const listNotesInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    category: { enum: NOTE_CATEGORIES },
    author: agentName,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    before_id: noteId,
  },
} as const;

export const listNotesOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['notes', 'count', 'next_before_id'],
  properties: {
    notes: { type: 'array', items: noteOutput },
    count: { type: 'integer' },
    next_before_id: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'Pass it as before_id for the next (older) page; null when there is none.' },
  },
} as const;
