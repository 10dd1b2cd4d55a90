// The example of docs/writing-a-plugin.md: a small "notes" plugin kept in SQLite.
// It imports core through its public entry. A plugin in its own package writes
// `from '@mcp-gateway/core'` instead of this relative path.
import { definePlugin, type ConfigType, type ToolDefinition } from '../../../core/index.js';

/** What setup returns: reachable by a plugin that lists `notes` in `requires`. */
export interface NotesApi {
  count(): number;
}

// Makes `ctx.api('notes')` return NotesApi in every plugin that requires notes. A plugin in its
// own package writes `declare module '@mcp-gateway/core'`.
declare module '../../../core/index.js' {
  interface PluginApis {
    notes: NotesApi;
  }
}

interface Note {
  id: number;
  text: string;
  tags: string[];
  author: string;
  createdAt: string;
}

interface NoteRow {
  id: number;
  text: string;
  author: string;
  created_at: string;
  tags: string | null;
}

// `as const` keeps the schema a literal type, so `ctx.config` is typed from it.
const configSchema = {
  type: 'object',
  properties: {
    maxNotes: {
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      default: 1000,
      description: 'How many notes are kept; adding one more deletes the oldest.',
    },
  },
} as const;

export type NotesConfig = ConfigType<typeof configSchema>;

// Index 0 is migration 1. Migrations are append-only: never edit one that has shipped,
// add the next one to the end of the list.
const migrations = [
  `CREATE TABLE notes_items (
     id INTEGER PRIMARY KEY,
     text TEXT NOT NULL,
     author TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE notes_tags (
     note_id INTEGER NOT NULL REFERENCES notes_items (id) ON DELETE CASCADE,
     tag TEXT NOT NULL,
     PRIMARY KEY (note_id, tag)
   );
   CREATE INDEX notes_tags_tag ON notes_tags (tag, note_id);`,
];

const tagSchema = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,31}$' } as const;

const noteSchema = {
  type: 'object',
  required: ['id', 'text', 'tags', 'author', 'createdAt'],
  properties: {
    id: { type: 'integer' },
    text: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    author: { type: 'string' },
    createdAt: { type: 'string' },
  },
} as const;

const noteAdd = {
  name: 'note_add',
  title: 'Add a note',
  description:
    'Stores a short text note with optional tags and returns it with its id. When the store is full (maxNotes), the oldest note is deleted to make room.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 10_000, description: 'The note.' },
      tags: {
        type: 'array',
        items: tagSchema,
        uniqueItems: true,
        maxItems: 10,
        default: [],
        description: 'Lower-case words such as "todo" or "bug-123".',
      },
    },
  },
  outputSchema: noteSchema,
  // Not read-only; destructive because a full store drops its oldest note.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

const noteList = {
  name: 'note_list',
  title: 'List notes',
  description: 'Lists notes, newest first, optionally only those with a given tag.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      tag: { ...tagSchema, description: 'Only notes with this tag.' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['notes'],
    properties: { notes: { type: 'array', items: noteSchema } },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const noteDelete = {
  name: 'note_delete',
  title: 'Delete a note',
  description: 'Deletes the note with this id. Fails with NOTE_NOT_FOUND when there is none.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'integer', minimum: 1 } },
  },
  outputSchema: {
    type: 'object',
    required: ['deleted'],
    properties: { deleted: { type: 'integer' } },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export default definePlugin({
  name: 'notes',
  version: '1.0.0',
  description: 'Short text notes with tags, kept in the gateway database.',
  configSchema,
  errors: {
    NOTE_NOT_FOUND: {
      status: 404,
      mcp: 'result',
      description: 'No note has this id. List the notes (note_list) for valid ids.',
    },
  },
  setup(ctx) {
    ctx.db.migrate(migrations);
    const db = ctx.db.sqlite;
    // Prepared once, at setup: better-sqlite3 statements are synchronous and reusable.
    const insertNote = db.prepare('INSERT INTO notes_items (text, author, created_at) VALUES (?, ?, ?)');
    const insertTag = db.prepare('INSERT INTO notes_tags (note_id, tag) VALUES (?, ?)');
    const countNotes = db.prepare('SELECT COUNT(*) AS n FROM notes_items');
    const deleteOldest = db.prepare(
      'DELETE FROM notes_items WHERE id IN (SELECT id FROM notes_items ORDER BY id LIMIT ?)',
    );
    const deleteNote = db.prepare('DELETE FROM notes_items WHERE id = ?');
    const selectColumns = `SELECT n.id, n.text, n.author, n.created_at,
        (SELECT json_group_array(tag) FROM (SELECT tag FROM notes_tags WHERE note_id = n.id ORDER BY tag)) AS tags
      FROM notes_items n`;
    const selectOne = db.prepare(`${selectColumns} WHERE n.id = ?`);
    const selectAll = db.prepare(`${selectColumns} ORDER BY n.id DESC LIMIT ?`);
    const selectTagged = db.prepare(
      `${selectColumns} WHERE n.id IN (SELECT note_id FROM notes_tags WHERE tag = ?) ORDER BY n.id DESC LIMIT ?`,
    );
    const count = () => (countNotes.get() as { n: number }).n;
    let added = 0;

    // One transaction: the note, its tags and any eviction land together or not at all.
    const addNote = db.transaction((text: string, tags: string[], author: string): number => {
      const over = count() + 1 - ctx.config.maxNotes;
      if (over > 0) deleteOldest.run(over);
      const id = Number(insertNote.run(text, author, new Date().toISOString()).lastInsertRowid);
      for (const tag of tags) insertTag.run(id, tag);
      return id;
    });

    ctx.tool(noteAdd, (args, call) => {
      // The MCP client's name from initialize, or the peer address when it gave none.
      const id = addNote(args.text, args.tags, call.caller.identity ?? call.caller.transport);
      added += 1;
      call.log.debug({ id }, 'note added');
      ctx.events.publish('notes.added', { id, tags: args.tags });
      return toNote(selectOne.get(id) as NoteRow);
    });

    ctx.tool(noteList, (args) => {
      const rows = (args.tag === undefined ? selectAll.all(args.limit) : selectTagged.all(args.tag, args.limit)) as NoteRow[];
      return { notes: rows.map(toNote) };
    });

    ctx.tool(noteDelete, (args) => {
      if (deleteNote.run(args.id).changes === 0) {
        throw ctx.error('NOTE_NOT_FOUND', `No note has id ${args.id}. List the notes (note_list) for valid ids.`, {
          id: args.id,
        });
      }
      return { deleted: args.id };
    });

    // Closers run at shutdown, newest plugin first. This one only logs; a plugin with
    // timers, child processes or sockets releases them here. Never close ctx.db.sqlite:
    // it is shared, and core closes it after every closer has run.
    ctx.onClose(() => {
      ctx.log.info({ added, kept: count() }, 'notes plugin closed');
    });

    const api: NotesApi = { count };
    return api;
  },
});

function toNote(row: NoteRow): Note {
  return {
    id: row.id,
    text: row.text,
    tags: JSON.parse(row.tags ?? '[]') as string[],
    author: row.author,
    createdAt: row.created_at,
  };
}
