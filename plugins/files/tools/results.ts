// The outputSchema of every files tool: the exact shape its handler returns. Closed
// (additionalProperties: false) so that a handler that changes its result without its schema
// fails the contract test instead of surprising a client; core checks every result against it.
import { closedObject, type JsonSchema } from '@mcp-gateway/core';

const shownPath = { type: 'string', description: 'The path as the gateway shows it: relative to the first root when inside it, else absolute.' };
const count = { type: 'integer', minimum: 0 };
const nullableText = { type: ['string', 'null'] };

const textFile = closedObject(
  {
    path: shownPath,
    content: { type: 'string' },
    language: { ...nullableText, description: 'Language id (see lang_list), null when unknown.' },
    total_lines: { ...count, description: 'Lines in the whole file; only when part of it was asked for.' },
  },
  ['total_lines'],
);

const unreadableFile = closedObject({
  path: { type: 'string', description: 'The path as given.' },
  error: closedObject({ code: { type: 'string', description: 'Stable error code; see docs/errors.md.' }, message: { type: 'string' } }),
});

const folderEntry = closedObject({
  name: { type: 'string' },
  path: shownPath,
  isDir: { type: 'boolean' },
  isSymlink: { type: 'boolean' },
  size: { ...count, description: 'Bytes; 0 for folders and symlinks.' },
});

const searchMatch = closedObject(
  {
    path: shownPath,
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    text: { type: 'string', description: 'The matching line.' },
    before: { type: 'array', items: { type: 'string' }, description: 'context_lines lines before; only when context_lines > 0.' },
    after: { type: 'array', items: { type: 'string' }, description: 'context_lines lines after; only when context_lines > 0.' },
  },
  ['before', 'after'],
);

export const fileResults = {
  file_read: textFile,
  file_read_many: closedObject({ files: { type: 'array', items: { anyOf: [textFile, unreadableFile] } } }),
  file_read_media: closedObject(
    {
      path: shownPath,
      mimeType: { type: 'string' },
      size: { ...count, description: 'Bytes.' },
      base64: { type: 'string', contentEncoding: 'base64', description: 'The bytes, for types other than images and audio (those come as MCP image/audio content).' },
    },
    ['base64'],
  ),
  file_exists: closedObject({ exists: { type: 'boolean' }, isDir: { type: 'boolean' } }),
  file_info: closedObject(
    {
      path: shownPath,
      type: { enum: ['file', 'directory', 'symlink', 'other'] },
      size: { ...count, description: 'Bytes.' },
      created: { type: 'string', format: 'date-time' },
      modified: { type: 'string', format: 'date-time' },
      accessed: { type: 'string', format: 'date-time' },
      permissions: { type: 'string', pattern: '^[0-7]{4}$', description: 'Octal, e.g. "0644".' },
      target: { type: 'string', description: 'What a symlink points to, as stored in it.' },
    },
    ['target'],
  ),
  lang_detect: closedObject({
    path: shownPath,
    language: { ...nullableText, description: 'Language id, null when unknown.' },
    name: { ...nullableText, description: 'Language name, null when unknown.' },
  }),
  lang_list: closedObject({
    languages: {
      type: 'array',
      items: closedObject({
        id: { type: 'string' },
        name: { type: 'string' },
        extensions: { type: 'array', items: { type: 'string' } },
        filenames: { type: 'array', items: { type: 'string' } },
      }),
    },
  }),
  dir_list: closedObject(
    {
      path: shownPath,
      entries: { type: 'array', items: folderEntry, description: 'detail "full" (the default): one object per entry.' },
      names: { type: 'array', items: { type: 'string' }, description: 'detail "names": the entry names, a folder\'s with a trailing "/".' },
    },
    ['entries', 'names'],
  ),
  dir_tree: {
    ...closedObject({
      path: shownPath,
      tree: { type: 'array', items: { $ref: '#/$defs/node' } },
      truncated: { type: 'boolean', description: 'The walk stopped at the entry cap.' },
    }),
    $defs: {
      node: closedObject(
        {
          name: { type: 'string' },
          isDir: { type: 'boolean' },
          children: { type: 'array', items: { $ref: '#/$defs/node' }, description: 'Only on folders.' },
        },
        ['children'],
      ),
    },
  },
  file_find: closedObject({
    matches: { type: 'array', items: shownPath },
    truncated: { type: 'boolean', description: 'More matches (max_results reached) or the walk stopped at the entry cap.' },
  }),
  file_search: closedObject({
    path: shownPath,
    matches: { type: 'array', items: searchMatch },
    filesScanned: count,
    truncated: { type: 'boolean', description: 'max_results reached or the walk stopped at the entry cap.' },
  }),
  file_roots: closedObject({ roots: { type: 'array', items: { type: 'string', description: 'Absolute real path.' } } }),
  file_write: closedObject({ path: shownPath, bytes: count, created: { type: 'boolean', description: 'false when an existing file was overwritten.' } }),
  file_edit: closedObject({ path: shownPath, replacements: count }),
  file_multi_edit: closedObject({
    path: shownPath,
    replacements: count,
    applied: { type: 'boolean', description: 'false on a dry run.' },
    diff: { type: 'string', description: 'Unified diff of the change.' },
  }),
  file_delete: closedObject({ path: shownPath, deleted: { enum: ['file', 'directory'] } }),
  file_rename: closedObject({ oldPath: shownPath, newPath: shownPath }),
  dir_create: closedObject({ path: shownPath, created: { type: 'boolean', description: 'false when the folder already existed.' } }),
} satisfies Record<string, JsonSchema>;
