// Messages between agents: checked, stored, pruned by retention, and announced as the event
// `collab.message.sent` — which every gateway of the team hears and turns into notifications
// for its own sessions of the recipient (delivery.ts, which reads the subject from the store).
import type { ExpressionBuilder, Transaction } from '../../core/index.js';
import type { CollabContext, CollabStore } from './context.js';
import { checkCap } from './limits.js';
import { BROADCAST, nowIso, SYSTEM_AGENT, type Message, type MessageKind } from './model.js';
import { agentExists } from './store/agent-store.js';
import type { CollabTables } from './store/schema.js';

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

type Db = CollabStore['db'] | Transaction<CollabTables>;

/** A body's first PREVIEW_CHARS characters, for notifications and session context. */
export function previewOf(body: string): string {
  return body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}…` : body;
}

/** Messages `agent` may read: to it, or broadcasts from others sent since it registered. */
function readableBy(eb: ExpressionBuilder<CollabTables, 'collab_messages'>, agent: string) {
  return eb.or([
    eb('to_agent', '=', agent),
    eb.and([
      eb('to_agent', '=', BROADCAST),
      eb('from_agent', '!=', agent),
      eb('created_at', '>=', eb.selectFrom('collab_agents').select('registered_at').where('name', '=', agent)),
    ]),
  ]);
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
  async insert(db: Db, given: NewMessage): Promise<Message> {
    // What the gateway says itself (alerts, STOP) is cut to the caps, never refused: a small
    // cap must not make a forced unlock fail halfway or the watchdog stall on one task.
    const message = given.from === SYSTEM_AGENT ? this.#clipped(given) : given;
    this.checkSize(message.subject, message.body);
    if (message.to !== BROADCAST) {
      if (!(await agentExists(db, message.to))) throw this.#ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${message.to}": list them with collab_list_agents, or send to "all".`, { agent: message.to });
    }
    let threadId: number | undefined;
    if (message.reply_to != null) {
      const parent = await db.selectFrom('collab_messages').select('thread_id').where('id', '=', message.reply_to).executeTakeFirst();
      if (!parent) throw this.#ctx.error('COLLAB_MESSAGE_NOT_FOUND', `No message has id ${message.reply_to} (it may have been pruned): send without reply_to.`, { id: message.reply_to });
      threadId = parent.thread_id;
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
    const { id } = await db.insertInto('collab_messages').values({ ...row, thread_id: threadId }).returning('id').executeTakeFirstOrThrow();
    if (threadId === undefined) {
      threadId = id;
      await db.updateTable('collab_messages').set({ thread_id: id }).where('id', '=', id).execute();
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
    const row = await this.#store.db
      .selectFrom('collab_messages')
      // One character past the preview: enough for previewOf to tell a longer body, without reading all of it.
      .select((eb) => ['subject', eb.fn<string>('substr', ['body', eb.lit(1), eb.lit(PREVIEW_CHARS + 1)]).as('head')])
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : { subject: row.subject, preview: previewOf(row.head) };
  }

  /** Deletes messages past retainDays, and all but the newest retainCount, with their read marks. */
  async prune(now: number = Date.now()): Promise<number> {
    const { retainCount, retainDays } = this.#ctx.config.messages;
    return this.#store.transaction(async (trx) => {
      const cutoff = nowIso(now - retainDays * 86_400_000);
      const boundary = await trx.selectFrom('collab_messages').select('id').orderBy('id', 'desc').offset(retainCount).limit(1).executeTakeFirst();
      let query = trx.deleteFrom('collab_messages').where('created_at', '<', cutoff);
      if (boundary) query = trx.deleteFrom('collab_messages').where((eb) => eb.or([eb('created_at', '<', cutoff), eb('id', '<=', boundary.id)]));
      const result = await query.executeTakeFirst();
      await trx
        .deleteFrom('collab_message_reads')
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('collab_messages').select('id').whereRef('collab_messages.id', '=', 'collab_message_reads.message_id'))))
        .execute();
      return Number(result.numDeletedRows);
    });
  }

  /** Messages `agent` has not read: its own and broadcasts (not its own) since it registered. */
  async unreadCount(agent: string): Promise<number> {
    const row = await this.unreadQuery(this.#store.db, agent).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The messages `agent` may read (to it, or broadcasts from others since it registered) that it has not read. */
  unreadQuery(db: Db, agent: string) {
    return this.readableQuery(db, agent).where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('collab_message_reads').select('message_id').whereRef('collab_message_reads.message_id', '=', 'collab_messages.id').where('collab_message_reads.agent', '=', agent))),
    );
  }

  /** Every message `agent` may read: to it, or broadcasts from others sent since it registered. */
  readableQuery(db: Db, agent: string) {
    return db.selectFrom('collab_messages').where((eb) => readableBy(eb, agent));
  }

  /** The agent's whole mailbox: what it may read and what it sent. */
  mailboxQuery(db: Db, agent: string) {
    return db.selectFrom('collab_messages').where((eb) => eb.or([readableBy(eb, agent), eb('from_agent', '=', agent)]));
  }

  /** Marks these messages read by `agent` (ids it may read: the caller checks); answers how many were unread. */
  async markRead(agent: string, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const readAt = nowIso();
    const result = await this.#store.db
      .insertInto('collab_message_reads')
      .values(ids.map((id) => ({ message_id: id, agent, read_at: readAt })))
      // Another session of the same agent may mark them at the same moment.
      .onConflict((oc) => oc.columns(['message_id', 'agent']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }

  /** Marks every message `agent` may read, up to now, read; answers how many were unread. */
  async markAllRead(agent: string): Promise<number> {
    const db = this.#store.db;
    const unread = this.unreadQuery(db, agent).select((eb) => [
      'collab_messages.id',
      // Typed, so that PostgreSQL knows what the parameters in a select list are.
      eb.cast<string>(eb.val(agent), 'text').as('agent'),
      eb.cast<string>(eb.val(nowIso()), 'text').as('read_at'),
    ]);
    const result = await db
      .insertInto('collab_message_reads')
      .columns(['message_id', 'agent', 'read_at'])
      .expression(unread)
      .onConflict((oc) => oc.columns(['message_id', 'agent']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
}
