// The chat tools: sessions, their messages, their plans.
import { randomUUID } from 'node:crypto';
import type { ToolDefinition } from '@mcp-gateway/core';
import { readSession } from '../model.js';
import { readThrough, submit, type IdeDeps } from './deps.js';
import { limit, messageSchema, output, sessionId, sessionSchema, stale } from './schemas.js';

const sent = { queued: { type: 'boolean', description: 'true: the backend is down and the message waits in the queue, to be sent in order on reconnect.' } } as const;

const chatSend = {
  name: 'ide_chat_send',
  title: 'Send a chat message',
  description: 'Sends a message to an agent chat session on the IDE backend; replies arrive as ide-bridge.chat notifications and in ide_chat_history. While the backend is down it waits in a queue (queued: true).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId', 'message'],
    properties: { sessionId, message: { type: 'string', minLength: 1, maxLength: 32_000 } },
    examples: [{ sessionId: 'sess-00000000-0000-0000-0000-000000000000', message: 'Hello from the explorer: what are you working on?' }],
  },
  outputSchema: output({ sent: { type: 'boolean', description: 'true: the backend took it.' }, ...sent, sessionId: { type: 'string' }, messageId: { type: 'string' }, timestamp: { type: 'string' } }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const chatHistory = {
  name: 'ide_chat_history',
  title: 'Chat history',
  description: 'The last limit messages of a chat session, oldest first.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId'],
    properties: { sessionId, limit: limit(50, 500) },
    examples: [{ sessionId: 'sess-demo', limit: 20 }],
  },
  outputSchema: output({ sessionId: { type: 'string' }, messages: { type: 'array', items: messageSchema }, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const sessionList = {
  name: 'ide_session_list',
  title: 'List chat sessions',
  description: 'The agent chat sessions on the IDE backend, newest first.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: output({ sessions: { type: 'array', items: sessionSchema }, stale }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

const sessionCreate = {
  name: 'ide_session_create',
  title: 'Create a chat session',
  description: 'Creates an agent chat session on the IDE backend. Its id is known at once, even while the backend is down and the request waits in a queue (status "creating" until confirmed).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
    examples: [{ name: 'Explorer example session' }],
  },
  outputSchema: output({ session: sessionSchema, ...sent }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const planStatus = {
  name: 'ide_plan_status',
  title: 'Plan status',
  description: 'The plan of a chat session: its status and steps ("unknown" and no steps when there is none).',
  inputSchema: { type: 'object', additionalProperties: false, required: ['sessionId'], properties: { sessionId }, examples: [{ sessionId: 'sess-demo' }] },
  outputSchema: output({
    sessionId: { type: 'string' },
    status: { type: 'string' },
    steps: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['name', 'status'], properties: { name: { type: 'string' }, status: { type: 'string' } } } },
    stale,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerChatTools(deps: IdeDeps): void {
  const { ctx, cache } = deps;

  ctx.tool(chatSend, async (args, call) => {
    const result = await submit(deps, { type: 'chat.send', sessionId: args.sessionId, data: { message: args.message } }, call.signal);
    return { sent: !result.queued, queued: result.queued, sessionId: args.sessionId, messageId: result.id, timestamp: new Date().toISOString() };
  });

  ctx.tool(chatHistory, async (args, call) => {
    const request = { type: 'chat.history', sessionId: args.sessionId, data: { limit: cache.limits.messagesPerSession } } as const;
    const isStale = await readThrough(deps, () => cache.isFresh(cache.chats.get(args.sessionId)), request, call.signal, () => cache.chats.get(args.sessionId) !== undefined);
    const messages = cache.chats.get(args.sessionId)?.value ?? [];
    return { sessionId: args.sessionId, messages: messages.slice(-args.limit), stale: isStale };
  });

  ctx.tool(sessionList, async (_args, call) => {
    const isStale = await readThrough(deps, () => cache.sessionListFresh, { type: 'session.list', data: {} }, call.signal);
    const sessions = [...cache.sessions.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { sessions, stale: isStale };
  });

  ctx.tool(sessionCreate, async (args, call) => {
    const proposed = { id: `sess-${randomUUID()}`, name: args.name, status: 'creating', createdAt: new Date().toISOString() };
    const result = await submit(deps, { type: 'session.create', data: { id: proposed.id, name: args.name } }, call.signal);
    if (result.queued) {
      // Known at once: ide_session_list shows it (status "creating") until the backend confirms it.
      cache.putSession(proposed);
      return { session: proposed, queued: true };
    }
    return { session: readSession(result.data.session) ?? proposed, queued: false };
  });

  ctx.tool(planStatus, async (args, call) => {
    const isStale = await readThrough(deps, () => cache.isFresh(cache.plans.get(args.sessionId)), { type: 'plan.status', sessionId: args.sessionId, data: {} }, call.signal, () => cache.plans.get(args.sessionId) !== undefined);
    const plan = cache.plans.get(args.sessionId)?.value;
    return { sessionId: args.sessionId, status: plan?.status ?? 'unknown', steps: plan?.steps ?? [], stale: isStale };
  });
}
