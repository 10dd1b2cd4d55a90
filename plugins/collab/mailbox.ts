// Messages between agents: checked, stored, pruned by retention, and announced as the event
// `collab.message.sent` — which every gateway of the team hears and turns into notifications
// for its own sessions of the recipient (delivery.ts, which reads the subject from the store).
// The rows are store/message-store.ts's.
import type { CollabContext, CollabStore } from './context.js';
import { checkCap } from './limits.js';
import { BROADCAST, nowIso, SYSTEM_AGENT, type Message, type MessageKind } from './model.js';
import { agentExists } from './store/agent-store.js';
import type { CollabDb } from './store/db.js';
import { countUnread, deleteOldMessages, insertMessageRow, insertReadMarks, markAllReadBy, messageHead, startThread, threadOf } from './store/message-store.js';

export interface NewMessage {
  from: string;
  /** An agent, or `all`. */
  to: string;
  subject?: string | null;
  body: string;
  kind?: MessageKind;
  reply_to?: number | null;
  task_id?: number | null;
}

/**
 * What `collab.message.sent` carries: who wrote to whom, never what. Events reach every
 * subscriber of /events (a key with only the `events` scope too) and every gateway of the
 * team, while a message is readable only by its recipients: its subject and body stay in the
 * store, where collab_read_messages (and delivery.ts, for the recipient's own sessions) read them.
 */
export interface MessageSentEvent {
  id: number;
  from: string;
  to: string;
  kind: MessageKind;
  thread_id: number;
  task_id: number | null;
}

/** Retention runs once per this many messages sent from this gateway, not on every insert. */
const PRUNE_EVERY = 32;
const PREVIEW_CHARS = 160;

/** A body's first PREVIEW_CHARS characters, for notifications and session context. */
export function previewOf(body: string): string {
  return body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}…` : body;
}

export class Mailbox {
  readonly #ctx: CollabContext;
  readonly #store: CollabStore;
  #sentSincePrune = 0;

  constructor(ctx: CollabContext, store: CollabStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  /** Refuses a subject or body over the configured caps (COLLAB_MESSAGE_TOO_LARGE). */
  checkSize(subject: string | null | undefined, body: string): void {
    const { maxSubjectChars, maxBodyChars } = this.#ctx.config.messages;
    if (subject != null) {
      checkCap(this.#ctx.error, 'COLLAB_MESSAGE_TOO_LARGE', 'The subject', subject.length, { field: 'subject', limit: maxSubjectChars, unit: 'characters', setting: 'plugins.collab.config.messages.maxSubjectChars', advice: 'Shorten it.' });
    }
    checkCap(this.#ctx.error, 'COLLAB_MESSAGE_TOO_LARGE', 'The body', body.length, {
      field: 'body',
      limit: maxBodyChars,
      unit: 'characters',
      setting: 'plugins.collab.config.messages.maxBodyChars',
      advice: 'Put long text in a file and send its path.',
    });
  }

  /** Stores and announces one message (one transaction); the recipient must exist. */
  async send(message: NewMessage): Promise<Message> {
    const stored = await this.#store.transaction((trx) => this.insert(trx, message));
    this.announce(stored);
    return stored;
  }

  /**
   * Stores a message inside the caller's transaction, without announcing it: call
   * `announce` once the transaction committed (a handoff moves the task and sends its message
   * together). Checks size, recipient and reply_to.
   */
  async insert(db: CollabDb, given: NewMessage): Promise<Message> {
    // What the gateway says itself (alerts, STOP) is cut to the caps, never refused: a small
    // cap must not make a forced unlock fail halfway or the watchdog stall on one task.
    const message = given.from === SYSTEM_AGENT ? this.#clipped(given) : given;
    this.checkSize(message.subject, message.body);
    if (message.to !== BROADCAST) {
      if (!(await agentExists(db, message.to))) throw this.#ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${message.to}": list them with collab_list_agents, or send to "all".`, { agent: message.to });
    }
    let threadId: number | undefined;
    if (message.reply_to != null) {
      threadId = await threadOf(db, message.reply_to);
      if (threadId === undefined) throw this.#ctx.error('COLLAB_MESSAGE_NOT_FOUND', `No message has id ${message.reply_to} (it may have been pruned): send without reply_to.`, { id: message.reply_to });
    }
    const row = {
      from_agent: message.from,
      to_agent: message.to,
      subject: message.subject ?? null,
      body: message.body,
      kind: message.kind ?? 'message',
      reply_to: message.reply_to ?? null,
      task_id: message.task_id ?? null,
      created_at: nowIso(),
    };
    const id = await insertMessageRow(db, { ...row, thread_id: threadId });
    if (threadId === undefined) {
      threadId = id;
      await startThread(db, id);
    }
    return { id, from: row.from_agent, to: row.to_agent, subject: row.subject, body: row.body, kind: row.kind, reply_to: row.reply_to, thread_id: threadId, task_id: row.task_id, created_at: row.created_at };
  }

  #clipped(message: NewMessage): NewMessage {
    const { maxSubjectChars, maxBodyChars } = this.#ctx.config.messages;
    const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`);
    return { ...message, subject: message.subject == null ? message.subject : clip(message.subject, maxSubjectChars), body: clip(message.body, maxBodyChars) };
  }

  /** Publishes `collab.message.sent` for a committed message, and prunes now and then. */
  announce(message: Message): void {
    const event: MessageSentEvent = {
      id: message.id,
      from: message.from,
      to: message.to,
      kind: message.kind,
      thread_id: message.thread_id,
      task_id: message.task_id,
    };
    this.#ctx.events.publish('collab.message.sent', event);
    this.#sentSincePrune += 1;
    if (this.#sentSincePrune >= PRUNE_EVERY) {
      this.#sentSincePrune = 0;
      this.prune().catch((err: unknown) => this.#ctx.log.warn({ err }, 'collab: pruning old messages failed; tried again later'));
    }
  }

  /** A message's subject and preview, for its recipients' notifications; undefined once pruned. */
  async summary(id: number): Promise<{ subject: string | null; preview: string } | undefined> {
    // One character past the preview: enough for previewOf to tell a longer body, without reading all of it.
    const row = await messageHead(this.#store.db, id, PREVIEW_CHARS + 1);
    return row === undefined ? undefined : { subject: row.subject, preview: previewOf(row.head) };
  }

  /** Deletes messages past retainDays, and all but the newest retainCount, with their read marks. */
  async prune(now: number = Date.now()): Promise<number> {
    const { retainCount, retainDays } = this.#ctx.config.messages;
    return this.#store.transaction((trx) => deleteOldMessages(trx, nowIso(now - retainDays * 86_400_000), retainCount));
  }

  /** Messages `agent` has not read: its own and broadcasts (not its own) since it registered. */
  unreadCount(agent: string): Promise<number> {
    return countUnread(this.#store.db, agent);
  }

  /** Marks these messages read by `agent` (ids it may read: the caller checks); answers how many were unread. */
  async markRead(agent: string, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return insertReadMarks(this.#store.db, agent, ids, nowIso());
  }

  /** Marks every message `agent` may read, up to now, read; answers how many were unread. */
  markAllRead(agent: string): Promise<number> {
    return markAllReadBy(this.#store.db, agent, nowIso());
  }
}
