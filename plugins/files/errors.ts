import { GatewayError, isGatewayError, type ErrorSpec } from '../../core/index.js';

/** The files plugin's codes (OUTSIDE_WORKSPACE and INVALID_PATH are core's). */
export const fileErrors = {
  FILE_NOT_FOUND: { status: 404, mcp: 'result', description: 'No file or folder at that path. dir_list or file_find show what exists.' },
  IS_A_DIRECTORY: { status: 400, mcp: 'result', description: 'The path is a folder where a file was expected; use dir_list or dir_tree.' },
  NOT_A_DIRECTORY: { status: 400, mcp: 'result', description: 'The path (or one of its parents) is a file where a folder was expected.' },
  ALREADY_EXISTS: { status: 409, mcp: 'result', description: 'Something already exists at the destination; choose another path or delete it first.' },
  DIR_NOT_EMPTY: { status: 409, mcp: 'result', description: 'file_delete removes only empty folders; delete the entries inside first.' },
  FILE_TOO_LARGE: { status: 413, mcp: 'result', description: 'The file or content is over the size cap (maxReadBytes / maxWriteBytes); read a line range or head/tail instead.' },
  NOT_A_REGULAR_FILE: { status: 400, mcp: 'result', description: 'The path is a device, FIFO or socket; only regular files are read or edited.' },
  FILE_IS_BINARY: { status: 415, mcp: 'result', description: 'The file is not text; read it with file_read_media.' },
  EDIT_NO_MATCH: { status: 409, mcp: 'result', description: 'old_string does not occur in the file; read the file again and copy the text exactly, whitespace included.' },
  EDIT_EMPTY: { status: 400, mcp: 'result', description: 'old_string is empty; give the exact text to replace (use file_write to create or overwrite a file).' },
  DELETE_REFUSED: { status: 403, mcp: 'result', description: 'The path is a sandbox root, the home folder, or a folder containing one; it is never deleted.' },
  HARD_LINK_REFUSED: { status: 403, mcp: 'result', description: 'The file has other hard links and refuseHardLinks is on: one of them may be a file outside the sandbox, so it is neither read nor written.' },
  PERMISSION_DENIED: { status: 403, mcp: 'result', description: 'The operating system refused the operation (file permissions).' },
} as const satisfies Record<string, ErrorSpec>;

type ErrnoCode = keyof typeof fileErrors | 'INVALID_PATH' | 'NO_SPACE';

const ERRNO_CODES: Record<string, ErrnoCode> = {
  ENOENT: 'FILE_NOT_FOUND',
  EISDIR: 'IS_A_DIRECTORY',
  ENOTDIR: 'NOT_A_DIRECTORY',
  EEXIST: 'ALREADY_EXISTS',
  ENOTEMPTY: 'DIR_NOT_EMPTY',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
  EROFS: 'PERMISSION_DENIED', // a root on a read-only mount
  ENAMETOOLONG: 'INVALID_PATH',
  // open(2) of a unix socket: there is nothing to read through a descriptor.
  ENXIO: 'NOT_A_REGULAR_FILE',
  ENOSPC: 'NO_SPACE',
  EDQUOT: 'NO_SPACE',
};

/** Messages for the core codes the mapping uses (the plugin's own codes use their descriptions). */
const CORE_MESSAGES: Record<'INVALID_PATH' | 'NO_SPACE', string> = {
  INVALID_PATH: 'a name in the path is too long.',
  NO_SPACE: 'the disk (or the quota) is full; nothing was changed. Free space and retry.',
};

/**
 * A file-system error as a caller-facing one naming the path the caller gave; GatewayErrors
 * pass through, anything unrecognised is rethrown (and becomes INTERNAL_ERROR).
 */
export function asFileError(err: unknown, path: string): unknown {
  if (isGatewayError(err)) return err;
  const code = ERRNO_CODES[(err as NodeJS.ErrnoException).code ?? ''];
  if (!code) return err;
  const why = code === 'INVALID_PATH' || code === 'NO_SPACE' ? CORE_MESSAGES[code] : fileErrors[code].description;
  const message = `"${path}": ${why}`;
  return new GatewayError(code, message, { details: { path } });
}

/** Runs `task`, turning file-system errors into the plugin's codes. */
export async function withFileErrors<T>(path: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    throw asFileError(err, path);
  }
}
