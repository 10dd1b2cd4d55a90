// Schemas of collab_handoff and collab_request_review.
import { actingAgent, agentName, taskId, text } from './common-schemas.js';
import { files, taskOutput } from './task-schemas.js';

export const handoffInput = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'summary', 'next_steps'],
  properties: {
    to: { ...agentName, description: 'The agent who takes the task over.' },
    summary: text(10_000, 'Where the work stands.'),
    next_steps: text(10_000, 'What the next agent should do.'),
    task_id: { ...taskId, description: 'The task handed off (default: your task in progress).' },
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
    to: { ...agentName, description: 'The reviewer.' },
    description: text(20_000, 'What to review and what to look for.'),
    files: { ...files, description: 'The workspace files to look at.' },
    agent: actingAgent,
  },
} as const;

export const requestReviewOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['task', 'message_id'],
  properties: { task: taskOutput, message_id: { type: 'integer' } },
} as const;
