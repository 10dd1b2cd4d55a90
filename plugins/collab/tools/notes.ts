// Session notes: what the team decided, noticed, asks or is blocked on, in one shared log
// that collab_session_context shows the last of.
import type { Selectable, ToolDefinition } from '../../../core/index.js';
import type { Collab } from '../collab.js';
import { nowIso, type NoteCategory, type SessionNote } from '../model.js';
import type { CollabTables } from '../store/schema.js';
import { appendNoteInput, listNotesInput, listNotesOutput, noteOutput } from './note-schemas.js';

export const collabAppendNote = {
  name: 'collab_append_note',
  title: 'Append a session note',
  description:
    'Adds a note to the shared session log: a decision, a note, a question or a blocker (up to 10,000 characters). Everyone sees the latest in collab_session_context. ' +
    'Use it for what the whole team should know; message one agent with collab_send_message. Errors: COLLAB_AGENT_REQUIRED, COLLAB_AGENT_NOT_FOUND, COLLAB_NOT_PERMITTED.',
  inputSchema: { ...appendNoteInput, examples: [{ category: 'decision', content: 'We keep the v1 wire format until the clients move.' }] },
  outputSchema: noteOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListNotes = {
  name: 'collab_list_notes',
  title: 'List session notes',
  description: 'Lists the session notes, newest first, by category or author, paged with before_id. No errors of its own.',
  inputSchema: { ...listNotesInput, examples: [{ category: 'decision', limit: 10 }] },
  outputSchema: listNotesOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function toNote(row: Selectable<CollabTables['collab_notes']>): SessionNote {
  return { id: row.id, author: row.author, category: row.category as NoteCategory, content: row.content, created_at: row.created_at };
}

export function registerNoteTools({ ctx, store, identity }: Collab): void {
  ctx.tool(collabAppendNote, async (args, call) => {
    const author = await identity.acting(call, args.agent);
    const row = await store.db
      .insertInto('collab_notes')
      .values({ author, category: args.category, content: args.content, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    ctx.events.publish('collab.note.appended', { id: row.id, author, category: args.category });
    return toNote(row);
  });

  ctx.tool(collabListNotes, async (args) => {
    let query = store.db.selectFrom('collab_notes').selectAll();
    if (args.category !== undefined) query = query.where('category', '=', args.category);
    if (args.author !== undefined) query = query.where('author', '=', args.author);
    if (args.before_id !== undefined) query = query.where('id', '<', args.before_id);
    const rows = await query.orderBy('id', 'desc').limit(args.limit + 1).execute();
    const more = rows.length > args.limit;
    const notes = (more ? rows.slice(0, args.limit) : rows).map(toNote);
    return { notes, count: notes.length, next_before_id: more ? notes[notes.length - 1]!.id : null };
  });
}
