// Session notes: what the team decided, noticed, asks or is blocked on, in one shared log
// that collab_session_context shows the last of.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { nowIso, type NoteCategory, type SessionNote } from '../model.js';
import { insertNote, listNotes, type NoteRow } from '../store/note-store.js';
import { appendNoteInput, listNotesInput, listNotesOutput, noteOutput } from './note-schemas.js';

export const collabAppendNote = {
  name: 'collab_append_note',
  title: 'Append a session note',
  description: "Adds a decision, note, question or blocker to the team's shared log, shown in collab_session_context. For one agent, use collab_send_message.",
  inputSchema: { ...appendNoteInput, examples: [{ category: 'decision', content: 'We keep the v1 wire format until the clients move.' }] },
  outputSchema: noteOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListNotes = {
  name: 'collab_list_notes',
  title: 'List session notes',
  description: "Lists the team's shared session notes, newest first.",
  inputSchema: { ...listNotesInput, examples: [{ category: 'decision', limit: 10 }] },
  outputSchema: listNotesOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function toNote(row: NoteRow): SessionNote {
  return { id: row.id, author: row.author, category: row.category as NoteCategory, content: row.content, created_at: row.created_at };
}

export function registerNoteTools({ ctx, store, identity }: Collab): void {
  ctx.tool(collabAppendNote, async (args, call) => {
    const author = await identity.acting(call, args.agent);
    const row = await insertNote(store.db, { author, category: args.category, content: args.content, created_at: nowIso() });
    ctx.events.publish('collab.note.appended', { id: row.id, author, category: args.category });
    return toNote(row);
  });

  ctx.tool(collabListNotes, async (args) => {
    // One more than asked: whether another page follows.
    const rows = await listNotes(store.db, { category: args.category, author: args.author, before_id: args.before_id }, args.limit + 1);
    const more = rows.length > args.limit;
    const notes = (more ? rows.slice(0, args.limit) : rows).map(toNote);
    return { notes, count: notes.length, next_before_id: more ? notes[notes.length - 1]!.id : null };
  });
}
