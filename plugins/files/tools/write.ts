import { lstat, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, sep } from 'node:path';
import { GatewayError, looksBinary, openDirCreating, withDir, writeAtomicIn, type ToolAnnotations } from '@mcp-gateway/core';
import { withFileErrors } from '../errors.js';
import type { FilesContext } from '../files-context.js';
import { applyEdits, unifiedDiff } from '../text.js';
import { fileResults } from './results.js';

const path = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const writes: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const edit = {
  type: 'object',
  additionalProperties: false,
  required: ['old_string', 'new_string'],
  properties: {
    old_string: { type: 'string', description: 'Exact text, whitespace included.' },
    new_string: { type: 'string' },
    replace_all: { type: 'boolean', default: false },
  },
} as const;

export function registerWriteTools({ ctx, sandbox, config }: FilesContext): void {
  const checkSize = (bytes: number, what: string) => {
    if (bytes > config.maxWriteBytes) {
      throw new GatewayError('FILE_TOO_LARGE', `${what} is ${bytes} bytes, over the ${config.maxWriteBytes}-byte write cap.`, {
        details: { size: bytes, limit: config.maxWriteBytes },
      });
    }
  };

  /** Reads a text file for editing; returns its mode so the rewrite keeps it. */
  const readForEdit = (given: string, willWrite = true) =>
    withFileErrors(given, async () => {
      const real = sandbox.resolve(given);
      if (willWrite) sandbox.checkChangeable(real, given);
      const { bytes, info } = await sandbox.readFile(real, config.maxReadBytes);
      if (looksBinary(bytes)) throw new GatewayError('FILE_IS_BINARY', `"${given}" is not text and cannot be edited as text.`);
      return { real, text: bytes.toString('utf8'), mode: info.mode & 0o777 };
    });

  ctx.tool(
    {
      name: 'file_write',
      title: 'Write a file',
      description:
        'Creates or overwrites a text file, making missing parent folders; atomic, so readers see the old content or the new. To change part of a file use file_edit.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'content'],
        properties: { path, content: { type: 'string' } },
        examples: [{ path: '../outside-the-workspace.txt', content: 'Hello from the explorer.\n' }],
      },
      outputSchema: fileResults.file_write,
      annotations: writes,
    },
    async (args) => {
      checkSize(Buffer.byteLength(args.content), 'The content');
      const real = sandbox.resolve(args.path);
      sandbox.checkChangeable(real, args.path);
      return withFileErrors(args.path, () =>
        withDir(sandbox.openParent(real, true), async (dir) => {
          const existing = await lstat(dir.at(basename(real))).catch(() => undefined);
          if (existing?.isDirectory()) throw new GatewayError('IS_A_DIRECTORY', `"${args.path}" is a folder.`);
          if (existing) sandbox.checkLinks(real, existing);
          await writeAtomicIn(dir, basename(real), args.content, existing ? existing.mode & 0o777 : undefined);
          return { path: sandbox.display(real), bytes: Buffer.byteLength(args.content), created: !existing };
        }),
      );
    },
  );

  ctx.tool(
    {
      name: 'file_edit',
      title: 'Replace text in a file',
      description:
        'Replaces the first occurrence of old_string in a file with new_string, or every one with replace_all. Read the file first: without an exact match nothing changes. For several changes to one file use file_multi_edit.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'old_string', 'new_string'],
        properties: { path, ...edit.properties },
        examples: [{ path: '../outside-the-workspace.txt', old_string: 'Hello', new_string: 'Goodbye' }],
      },
      outputSchema: fileResults.file_edit,
      annotations: writes,
    },
    async (args) => {
      const { real, text, mode } = await readForEdit(args.path);
      const result = applyEdits(text, [args], args.path);
      checkSize(Buffer.byteLength(result.text), 'The edited file');
      await withFileErrors(args.path, () => sandbox.writeAtomic(real, result.text, mode));
      return { path: sandbox.display(real), replacements: result.replacements };
    },
  );

  ctx.tool(
    {
      name: 'file_multi_edit',
      title: 'Several edits to one file',
      description:
        'Applies old_string → new_string edits to one file in order, all or none, and returns a unified diff; with dry_run only the diff, the file unchanged.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'edits'],
        properties: {
          path,
          edits: { type: 'array', minItems: 1, maxItems: 100, items: edit },
          dry_run: { type: 'boolean', default: false },
        },
        examples: [{ path: 'scratch/hello.txt', edits: [{ old_string: 'Hello', new_string: 'Hi' }, { old_string: 'explorer', new_string: 'REST bridge' }], dry_run: true }],
      },
      outputSchema: fileResults.file_multi_edit,
      annotations: writes,
    },
    async (args) => {
      const { real, text, mode } = await readForEdit(args.path, !args.dry_run);
      const result = applyEdits(text, args.edits, args.path);
      checkSize(Buffer.byteLength(result.text), 'The edited file');
      if (!args.dry_run) await withFileErrors(args.path, () => sandbox.writeAtomic(real, result.text, mode));
      const shown = sandbox.display(real);
      return { path: shown, replacements: result.replacements, applied: !args.dry_run, diff: unifiedDiff(shown, text, result.text) };
    },
  );

  ctx.tool(
    {
      name: 'file_delete',
      title: 'Delete a file or an empty folder',
      description:
        'Deletes a file, a symlink (not its target) or an empty folder; never a root or the home folder.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path }, examples: [{ path: '../outside-the-workspace.txt' }] },
      outputSchema: fileResults.file_delete,
      annotations: { ...writes, idempotentHint: false },
    },
    async (args) => {
      const real = sandbox.resolveEntry(args.path);
      if (sandbox.holdsRootOrHome(real)) {
        throw new GatewayError('DELETE_REFUSED', `"${args.path}" is a sandbox root, the home folder or holds one; it is never deleted.`);
      }
      sandbox.checkChangeable(real, args.path, true);
      // Through the checked parent folder: only the entry that was checked is removed.
      return withFileErrors(args.path, () =>
        withDir(sandbox.openParent(real), async (dir) => {
          const entry = dir.at(basename(real));
          const info = await lstat(entry);
          if (info.isDirectory()) await rmdir(entry);
          else await unlink(entry);
          return { path: sandbox.display(real), deleted: info.isDirectory() ? 'directory' : 'file' };
        }),
      );
    },
  );

  ctx.tool(
    {
      name: 'file_rename',
      title: 'Move or rename',
      description: 'Moves or renames a file or folder, making missing parent folders of newPath. Never overwrites: newPath must not exist.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['oldPath', 'newPath'],
        properties: { oldPath: path, newPath: path },
        examples: [{ oldPath: '../outside-the-workspace.txt', newPath: 'scratch/renamed.txt' }],
      },
      outputSchema: fileResults.file_rename,
      annotations: writes,
    },
    async (args) => {
      const from = sandbox.resolveEntry(args.oldPath);
      const to = sandbox.resolveEntry(args.newPath);
      if (sandbox.holdsRootOrHome(from)) throw new GatewayError('DELETE_REFUSED', `"${args.oldPath}" is a sandbox root or holds one; it cannot be moved.`);
      sandbox.checkChangeable(from, args.oldPath, true);
      sandbox.checkChangeable(to, args.newPath);
      // Both ends through their checked parent folders, so what moves is the entry that was
      // checked, and it lands where newPath was checked to be.
      return withDir(withFileErrors(args.oldPath, () => sandbox.openParent(from)), async (fromDir) => {
        const source = fromDir.at(basename(from));
        const moved = await withFileErrors(args.oldPath, () => lstat(source));
        if (moved.isDirectory() && to.startsWith(from + sep)) {
          // rename(2) fails with EINVAL, after mkdir -p would already have made newPath's parents.
          throw new GatewayError('INVALID_ARGUMENTS', `"${args.newPath}" is inside "${args.oldPath}"; a folder cannot be moved into itself.`);
        }
        if (await lstat(to).then(() => true, () => false)) {
          throw new GatewayError('ALREADY_EXISTS', `"${args.newPath}" already exists; choose another name or delete it first.`);
        }
        return withFileErrors(args.newPath, () =>
          withDir(sandbox.openParent(to, true), async (toDir) => {
            await rename(source, toDir.at(basename(to)));
            return { oldPath: sandbox.display(from), newPath: sandbox.display(to) };
          }),
        );
      });
    },
  );

  ctx.tool(
    {
      name: 'dir_create',
      title: 'Create a folder',
      description: 'Creates a folder and any missing parents (mkdir -p); an existing folder answers created: false.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['path'], properties: { path }, examples: [{ path: 'scratch/new-folder' }] },
      outputSchema: fileResults.dir_create,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      const real = sandbox.resolve(args.path);
      sandbox.checkChangeable(real, args.path);
      return withFileErrors(args.path, async () => {
        try {
          const { dir, created } = await openDirCreating(sandbox.rootOf(real), real);
          await dir.close();
          return { path: sandbox.display(real), created };
        } catch (err) {
          // A file at the path itself (not at a folder on the way): it is what already exists.
          const last = await lstat(real).catch(() => undefined);
          if ((err as NodeJS.ErrnoException).code === 'ENOTDIR' && last && !last.isDirectory()) {
            throw new GatewayError('ALREADY_EXISTS', `"${args.path}" already exists and is not a folder.`);
          }
          throw err;
        }
      });
    },
  );
}
