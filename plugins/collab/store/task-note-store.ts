// A task's shared notes (collab_task_notes): the only module with their SQL.
import type { CollabDb } from './db.js';

/** Writes a shared note of a task's work context: one per key, the last writer's value and name. */
export async function putTaskNote(db: CollabDb, note: { task_id: number; key: string; value: string; author: string; updated_at: string }): Promise<void> {
  await db
    .insertInto('collab_task_notes')
    .values(note)
    .onConflict((oc) => oc.columns(['task_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), author: eb.ref('excluded.author'), updated_at: eb.ref('excluded.updated_at') })))
    .execute();
}

/** The task's notes, by key. */
export function taskNotes(db: CollabDb, taskId: number): Promise<Array<{ key: string; value: string; author: string; updated_at: string }>> {
  return db.selectFrom('collab_task_notes').select(['key', 'value', 'author', 'updated_at']).where('task_id', '=', taskId).orderBy('key').execute();
}

/** The keys of the task's notes, in no order. */
export async function taskNoteKeys(db: CollabDb, taskId: number): Promise<string[]> {
  const rows = await db.selectFrom('collab_task_notes').select('key').where('task_id', '=', taskId).execute();
  return rows.map((row) => row.key);
}
