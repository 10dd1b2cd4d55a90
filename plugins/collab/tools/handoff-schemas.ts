// Schemas of collab_handoff and collab_request_review.
import { actingAgent, agentName, taskId, text } from './common-schemas.js';
import { files, taskOutput } from './task-schemas.js';

export const handoffInput = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'summary', 'next_steps'],
  properties: {
    to: agentName,
    summary: text(10_000),
    next_steps: text(10_000),
    task_id: { ...taskId, description: 'Default: your task in progress.' },
    agent: actingAgent,
  },
} as const;

export const handoffOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task', 'message_id', 'released_locks'],
  properties: {
    task: taskOutput,
    message_id: { type: 'integer', description: 'The handoff message sent to the new assignee.' },
    released_locks: { type: 'array', items: { type: 'string' }, description: 'Your locks for the task, released.' },
  },
} as const;

export const requestReviewInput = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'description'],
  properties: {
    to: agentName,
    description: text(20_000, 'What to look at and for.'),
    files,
    agent: actingAgent,
  },
} as const;

export const requestReviewOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task', 'message_id'],
  properties: { task: taskOutput, message_id: { type: 'integer' } },
} as const;
