// Session notes' rows (collab_notes): the only module with their SQL.
import type { Insertable, Selectable } from '@mcp-gateway/core';
import type { CollabDb } from './db.js';
import type { CollabTables } from './schema.js';

export type NoteRow = Selectable<CollabTables['collab_notes']>;

/** Appends a note; answers its row with the id the store gave it. */
export function insertNote(db: CollabDb, note: Insertable<CollabTables['collab_notes']>): Promise<NoteRow> {
  return db.insertInto('collab_notes').values(note).returningAll().executeTakeFirstOrThrow();
}

/** What collab_list_notes filters by. */
export interface NoteFilter {
  category?: string | undefined;
  author?: string | undefined;
  /** Notes older than this id (the cursor). */
  before_id?: number | undefined;
}

/** Notes that match `filter`, newest first, at most `limit`. */
export function listNotes(db: CollabDb, filter: NoteFilter, limit: number): Promise<NoteRow[]> {
  let query = db.selectFrom('collab_notes').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.author !== undefined) query = query.where('author', '=', filter.author);
  if (filter.before_id !== undefined) query = query.where('id', '<', filter.before_id);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** The newest notes, at most `limit`. */
export function latestNotes(db: CollabDb, limit: number): Promise<NoteRow[]> {
  return db.selectFrom('collab_notes').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
