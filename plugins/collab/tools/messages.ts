// Messages: send (direct, broadcast, replies in threads), read (unread, all, sent; paged),
// mark read. Storage, caps and retention are the mailbox's (mailbox.ts).
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { BROADCAST, type Message, type MessageKind } from '../model.js';
import { inMailboxOf, messagesOf, readableIds, type MarkedMessageRow as MessageRow } from '../store/message-store.js';
import { taskExists } from '../store/task-store.js';
import { markReadInput, markReadOutput, messageOutput, readMessagesInput, readMessagesOutput, sendMessageInput } from './message-schemas.js';

export const collabSendMessage = {
  name: 'collab_send_message',
  title: 'Send a message',
  description: 'Sends a message to an agent or to all, notified at once; reply_to keeps a thread. For what the whole team should keep, use collab_append_note.',
  inputSchema: { ...sendMessageInput, examples: [{ to: 'system', subject: 'Reminder', body: 'Look at the failing test after lunch.' }] },
  outputSchema: messageOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabReadMessages = {
  name: 'collab_read_messages',
  title: 'Read messages',
  description: 'Reads your messages, newest first, marking those returned read. Call it when a result says you have unread messages.',
  inputSchema: { ...readMessagesInput, examples: [{}, { filter: 'all', limit: 5, mark_read: false }] },
  outputSchema: readMessagesOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabMarkRead = {
  name: 'collab_mark_read',
  title: 'Mark messages read',
  description: 'Marks messages read without reading them: by ids, or all up to now.',
  inputSchema: { ...markReadInput, examples: [{ all: true }] },
  outputSchema: markReadOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerMessageTools({ ctx, store, identity, mailbox, banners }: Collab): void {
  ctx.tool(collabSendMessage, async (args, call) => {
    const from = await identity.acting(call, args.agent);
    if (args.reply_to !== undefined) {
      // A reply joins a thread you are part of: not one you could not read.
      if (!(await inMailboxOf(store.db, from, args.reply_to))) throw ctx.error('COLLAB_MESSAGE_NOT_FOUND', `You have no message with id ${args.reply_to} (it may have been pruned): send without reply_to.`, { id: args.reply_to });
    }
    if (args.task_id !== undefined) {
      if (!(await taskExists(store.db, args.task_id))) throw ctx.error('COLLAB_TASK_NOT_FOUND', `No task has id ${args.task_id}: list them with collab_list_tasks, or leave task_id out.`, { id: args.task_id });
    }
    return mailbox.send({ from, to: args.to, subject: args.subject, body: args.body, reply_to: args.reply_to, task_id: args.task_id });
  });

  ctx.tool(collabReadMessages, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    // One more than asked: whether another page follows.
    const rows = await messagesOf(store.db, agent, { filter: args.filter, from: args.from, thread_id: args.thread_id, before_id: args.before_id }, args.limit + 1);
    const more = rows.length > args.limit;
    const page = more ? rows.slice(0, args.limit) : rows;
    const messages = page.map((row) => toMessage(row, agent));
    const toMark = args.mark_read ? page.filter((row) => !Boolean(row.marked) && receivedBy(row, agent)).map((row) => row.id) : [];
    const marked = await mailbox.markRead(agent, toMark);
    // Reading is how the news is taken in: the banner has nothing left to say.
    banners.clear(agent);
    if (marked > 0) ctx.events.publish('collab.message.read', { agent, ids: toMark });
    return { messages, count: messages.length, marked_read: marked, unread: await mailbox.unreadCount(agent), next_before_id: more ? page[page.length - 1]!.id : null };
  });

  ctx.tool(collabMarkRead, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    let marked: number;
    if (args.all === true) {
      marked = await mailbox.markAllRead(agent);
    } else if (args.ids !== undefined) {
      const known = new Set(await readableIds(store.db, agent, args.ids));
      const missing = args.ids.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw ctx.error('COLLAB_MESSAGE_NOT_FOUND', `You have no message with id ${missing.join(', ')} to read (pruned, or not addressed to you); nothing was marked. Read them with collab_read_messages.`, { ids: missing });
      }
      marked = await mailbox.markRead(agent, args.ids);
    } else {
      throw ctx.error('INVALID_ARGUMENTS', 'Say which messages to mark read: ids (a list of message ids) or all: true.');
    }
    banners.clear(agent);
    if (marked > 0) ctx.events.publish('collab.message.read', { agent, ...(args.ids ? { ids: args.ids } : { all: true }) });
    return { marked, unread: await mailbox.unreadCount(agent) };
  });
}

/** Whether `agent` is a reader of the message (so it can be marked read), not only its sender. */
function receivedBy(row: MessageRow, agent: string): boolean {
  return row.to_agent === agent || (row.to_agent === BROADCAST && row.from_agent !== agent);
}

function toMessage(row: MessageRow, agent: string): Message {
  return {
    id: row.id,
    from: row.from_agent,
    to: row.to_agent,
    subject: row.subject,
    body: row.body,
    kind: row.kind as MessageKind,
    reply_to: row.reply_to,
    thread_id: row.thread_id,
    task_id: row.task_id,
    created_at: row.created_at,
    read: receivedBy(row, agent) ? Boolean(row.marked) : true,
  };
}
