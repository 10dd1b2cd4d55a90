import { lstat, readlink } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { audioBlock, GatewayError, imageBlock, isGatewayError, looksBinary, toolContent, withDir, type ToolAnnotations } from '@mcp-gateway/core';
import { asFileError, withFileErrors } from '../errors.js';
import type { FilesContext } from '../files-context.js';
import { languageOfName, languageOfShebang } from '../languages.js';
import { selectLines, type LineSelection } from '../text.js';
import { fileResults } from './results.js';

const readOnly: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
// No description: a file tool's `path` says it all, and file_roots says what relative paths are relative to.
const path = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const lineCount = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;

const fileReadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path,
    start_line: lineCount,
    end_line: lineCount,
    head: lineCount,
    tail: lineCount,
  },
  examples: [{ path: 'README.md', head: 20 }],
} as const;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.bmp': 'image/bmp', '.ico': 'image/x-icon', '.svg': 'image/svg+xml', '.avif': 'image/avif',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.flac': 'audio/flac', '.m4a': 'audio/mp4',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.gz': 'application/gzip', '.wasm': 'application/wasm',
};

export function registerReadTools({ ctx, sandbox, config }: FilesContext): void {
  /** Reads a whole file within the cap, through a descriptor checked to be inside the sandbox. */
  const readBytes = async (given: string): Promise<{ real: string; bytes: Buffer }> => {
    const real = sandbox.resolve(given);
    const { bytes } = await withFileErrors(given, () => sandbox.readFile(real, config.maxReadBytes));
    return { real, bytes };
  };

  const readText = async (given: string, selection: LineSelection = {}) => {
    const { real, bytes } = await readBytes(given);
    if (looksBinary(bytes)) throw new GatewayError('FILE_IS_BINARY', `"${given}" is not text; read it with file_read_media.`);
    const text = bytes.toString('utf8');
    const { content, totalLines, partial } = selectLines(text, selection);
    const language = languageOfName(basename(real)) ?? languageOfShebang(text.slice(0, 200));
    return { path: sandbox.display(real), content, language: language?.id ?? null, ...(partial ? { total_lines: totalLines } : {}) };
  };

  ctx.tool(
    {
      name: 'file_read',
      title: 'Read a text file',
      description:
        'Reads a UTF-8 text file and its language. For part of a large file give start_line/end_line (1-based, inclusive), or head or tail (a number of lines); total_lines then gives its length. For binary files use file_read_media.',
      inputSchema: fileReadSchema,
      outputSchema: fileResults.file_read,
      annotations: readOnly,
    },
    (args) => readText(args.path, args),
  );

  ctx.tool(
    {
      name: 'file_read_many',
      title: 'Read several text files',
      description:
        'Reads several whole text files in one call. A file that cannot be read does not fail the call: its entry carries an error {code, message} instead of content.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['paths'],
        properties: { paths: { type: 'array', minItems: 1, maxItems: 50, items: path } },
        examples: [{ paths: ['README.md', 'package.json', 'no-such-file.txt'] }],
      },
      outputSchema: fileResults.file_read_many,
      annotations: readOnly,
    },
    async (args) => ({
      files: await Promise.all(
        args.paths.map((given) =>
          readText(given).catch((err: unknown) => {
            const error = asFileError(err, given);
            if (!isGatewayError(error)) throw error;
            return { path: given, error: { code: error.code, message: error.message } };
          }),
        ),
      ),
    }),
  );

  ctx.tool(
    {
      name: 'file_read_media',
      title: 'Read an image, audio or other binary file',
      description:
        'Reads a binary file: images and audio as MCP content the model can see or hear, other types as base64 with their MIME type. For text use file_read.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path }, examples: [{ path: 'images/logo.png' }] },
      outputSchema: fileResults.file_read_media,
      annotations: readOnly,
    },
    async (args) => {
      const { real, bytes } = await readBytes(args.path);
      const mimeType = MEDIA_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream';
      const info = { path: sandbox.display(real), mimeType, size: bytes.length };
      if (mimeType.startsWith('image/')) return toolContent([imageBlock(bytes, mimeType)], info);
      if (mimeType.startsWith('audio/')) return toolContent([audioBlock(bytes, mimeType)], info);
      return { ...info, base64: bytes.toString('base64') };
    },
  );

  ctx.tool(
    {
      name: 'file_exists',
      title: 'Check whether a path exists',
      description: 'Whether something exists at a path, and whether it is a folder. A missing path answers exists: false, not an error.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path }, examples: [{ path: 'package.json' }] },
      outputSchema: fileResults.file_exists,
      annotations: readOnly,
    },
    async (args) => {
      const real = sandbox.resolve(args.path);
      try {
        // Looked up in the checked parent folder, and not followed: `real` has no link left in
        // it, so a link found there now was swapped in and may point anywhere.
        const info = await withDir(sandbox.openParent(real), (dir) => lstat(dir.at(basename(real))));
        return { exists: true, isDir: info.isDirectory() };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false, isDir: false };
        throw asFileError(err, args.path);
      }
    },
  );

  ctx.tool(
    {
      name: 'file_info',
      title: 'File metadata',
      description: 'Size, type, times and permissions of a path; a symlink is described itself (with its target), not followed.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path }, examples: [{ path: 'README.md' }] },
      outputSchema: fileResults.file_info,
      annotations: readOnly,
    },
    async (args) => {
      const real = sandbox.resolveEntry(args.path);
      return withFileErrors(args.path, () => withDir(sandbox.openParent(real), async (dir) => {
        const entry = dir.at(basename(real));
        const info = await lstat(entry);
        const type = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
        return {
          path: sandbox.display(real),
          type,
          size: info.size,
          created: info.birthtime.toISOString(),
          modified: info.mtime.toISOString(),
          accessed: info.atime.toISOString(),
          permissions: (info.mode & 0o777).toString(8).padStart(4, '0'),
          ...(type === 'symlink' ? { target: await readlink(entry) } : {}),
        };
      }));
    },
  );
}
