// Messages' rows and read marks (collab_messages, collab_message_reads): the only module with
// message SQL. Checks, caps, threads' rules and announcing are mailbox.ts's.
import type { ExpressionBuilder, Insertable, Selectable } from '@mcp-gateway/core';
import { BROADCAST } from '../model.js';
import type { CollabDb } from './db.js';
import type { CollabTables } from './schema.js';

export type MessageRow = Selectable<CollabTables['collab_messages']>;
/** A message row with whether the reader marked it read (a boolean, or 0/1 on SQLite). */
export type MarkedMessageRow = MessageRow & { marked: unknown };

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

/** Every message `agent` may read: to it, or broadcasts from others sent since it registered. */
function readableQuery(db: CollabDb, agent: string) {
  return db.selectFrom('collab_messages').where((eb) => readableBy(eb, agent));
}

/** The messages `agent` may read (to it, or broadcasts from others since it registered) that it has not read. */
function unreadQuery(db: CollabDb, agent: string) {
  return readableQuery(db, agent).where(({ not, exists, selectFrom }) =>
    not(exists(selectFrom('collab_message_reads').select('message_id').whereRef('collab_message_reads.message_id', '=', 'collab_messages.id').where('collab_message_reads.agent', '=', agent))),
  );
}

/** The agent's whole mailbox: what it may read and what it sent. */
function mailboxQuery(db: CollabDb, agent: string) {
  return db.selectFrom('collab_messages').where((eb) => eb.or([readableBy(eb, agent), eb('from_agent', '=', agent)]));
}

/** The thread of message `id`, or undefined when no message has the id. */
export async function threadOf(db: CollabDb, id: number): Promise<number | undefined> {
  const parent = await db.selectFrom('collab_messages').select('thread_id').where('id', '=', id).executeTakeFirst();
  return parent?.thread_id;
}

/** Stores a message; answers its id. */
export async function insertMessageRow(db: CollabDb, row: Insertable<CollabTables['collab_messages']>): Promise<number> {
  const { id } = await db.insertInto('collab_messages').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Makes message `id` the first of its own thread. */
export async function startThread(db: CollabDb, id: number): Promise<void> {
  await db.updateTable('collab_messages').set({ thread_id: id }).where('id', '=', id).execute();
}

/** A message's subject and its body's first `chars` characters, or undefined once pruned. */
export function messageHead(db: CollabDb, id: number, chars: number): Promise<{ subject: string | null; head: string } | undefined> {
  return db
    .selectFrom('collab_messages')
    .select((eb) => ['subject', eb.fn<string>('substr', ['body', eb.lit(1), eb.lit(chars)]).as('head')])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Deletes messages created before `cutoff`, and all but the newest `retainCount`, with their read marks; answers how many messages went. */
export async function deleteOldMessages(trx: CollabDb, cutoff: string, retainCount: number): Promise<number> {
  const boundary = await trx.selectFrom('collab_messages').select('id').orderBy('id', 'desc').offset(retainCount).limit(1).executeTakeFirst();
  let query = trx.deleteFrom('collab_messages').where('created_at', '<', cutoff);
  if (boundary) query = trx.deleteFrom('collab_messages').where((eb) => eb.or([eb('created_at', '<', cutoff), eb('id', '<=', boundary.id)]));
  const result = await query.executeTakeFirst();
  await trx
    .deleteFrom('collab_message_reads')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('collab_messages').select('id').whereRef('collab_messages.id', '=', 'collab_message_reads.message_id'))))
    .execute();
  return Number(result.numDeletedRows);
}

/** How many messages `agent` may read and has not. */
export async function countUnread(db: CollabDb, agent: string): Promise<number> {
  const row = await unreadQuery(db, agent).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether message `id` is in the agent's mailbox (readable by it, or sent by it). */
export async function inMailboxOf(db: CollabDb, agent: string, id: number): Promise<boolean> {
  const row = await mailboxQuery(db, agent).select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Those of `ids` that `agent` may read. */
export async function readableIds(db: CollabDb, agent: string, ids: readonly number[]): Promise<number[]> {
  const rows = await readableQuery(db, agent).select('id').where('id', 'in', [...ids]).execute();
  return rows.map((row) => row.id);
}

/** What collab_read_messages reads: unread, every readable message and its own (`all`), or `sent`. */
export interface MessageFilter {
  filter: 'unread' | 'all' | 'sent';
  from?: string | undefined;
  thread_id?: number | undefined;
  before_id?: number | undefined;
}

/** A page of the agent's messages, newest first, at most `limit`, each with whether it marked it read. */
export async function messagesOf(db: CollabDb, agent: string, filter: MessageFilter, limit: number): Promise<MarkedMessageRow[]> {
  let query =
    filter.filter === 'unread'
      ? unreadQuery(db, agent)
      : filter.filter === 'sent'
        ? db.selectFrom('collab_messages').where('from_agent', '=', agent)
        : mailboxQuery(db, agent);
  if (filter.from !== undefined) query = query.where('from_agent', '=', filter.from);
  if (filter.thread_id !== undefined) query = query.where('thread_id', '=', filter.thread_id);
  if (filter.before_id !== undefined) query = query.where('id', '<', filter.before_id);
  return (await query
    .selectAll('collab_messages')
    .select(({ exists, selectFrom }) =>
      exists(selectFrom('collab_message_reads').select('message_id').whereRef('collab_message_reads.message_id', '=', 'collab_messages.id').where('collab_message_reads.agent', '=', agent)).as('marked'),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()) as MarkedMessageRow[];
}

/** The agent's newest unread messages, at most `limit`. */
export function newestUnread(db: CollabDb, agent: string, limit: number) {
  return unreadQuery(db, agent).select(['id', 'from_agent', 'to_agent', 'subject', 'kind', 'body', 'created_at']).orderBy('id', 'desc').limit(limit).execute();
}

/** The agent's oldest unread messages from `sender`, at most `limit`. */
export function oldestUnreadFrom(db: CollabDb, agent: string, sender: string, limit: number): Promise<MessageRow[]> {
  return unreadQuery(db, agent).where('from_agent', '=', sender).selectAll().orderBy('id').limit(limit).execute();
}

/** Marks these messages read by `agent` at `readAt`; answers how many were unread. */
export async function insertReadMarks(db: CollabDb, agent: string, ids: readonly number[], readAt: string): Promise<number> {
  const result = await db
    .insertInto('collab_message_reads')
    .values(ids.map((id) => ({ message_id: id, agent, read_at: readAt })))
    // Another session of the same agent may mark them at the same moment.
    .onConflict((oc) => oc.columns(['message_id', 'agent']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** Marks every message `agent` may read, up to now, read at `readAt`; answers how many were unread. */
export async function markAllReadBy(db: CollabDb, agent: string, readAt: string): Promise<number> {
  const unread = unreadQuery(db, agent).select((eb) => [
    'collab_messages.id',
    // Typed, so that PostgreSQL knows what the parameters in a select list are.
    eb.cast<string>(eb.val(agent), 'text').as('agent'),
    eb.cast<string>(eb.val(readAt), 'text').as('read_at'),
  ]);
  const result = await db
    .insertInto('collab_message_reads')
    .columns(['message_id', 'agent', 'read_at'])
    .expression(unread)
    .onConflict((oc) => oc.columns(['message_id', 'agent']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}
