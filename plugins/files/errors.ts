import { GatewayError, isGatewayError, type ErrorSpec } from '@mcp-gateway/core';

/**
 * The files plugin's codes. Core's: OUTSIDE_WORKSPACE and INVALID_PATH, and what core's workspace
 * read refuses for every plugin alike (HARD_LINK_REFUSED, FILE_TOO_LARGE, IS_A_DIRECTORY,
 * NOT_A_REGULAR_FILE).
 */
export const fileErrors = {
  FILE_NOT_FOUND: { status: 404, mcp: 'result', description: 'No file or folder at that path. dir_list or file_find show what exists.' },
  NOT_A_DIRECTORY: { status: 400, mcp: 'result', description: 'The path (or one of its parents) is a file where a folder was expected.' },
  ALREADY_EXISTS: { status: 409, mcp: 'result', description: 'Something already exists at the destination; choose another path or delete it first.' },
  DIR_NOT_EMPTY: { status: 409, mcp: 'result', description: 'file_delete removes only empty folders; delete the entries inside first.' },
  FILE_IS_BINARY: { status: 415, mcp: 'result', description: 'The file is not text; read it with file_read_media.' },
  EDIT_NO_MATCH: { status: 409, mcp: 'result', description: 'old_string does not occur in the file; read the file again and copy the text exactly, whitespace included.' },
  EDIT_EMPTY: { status: 400, mcp: 'result', description: 'old_string is empty; give the exact text to replace (use file_write to create or overwrite a file).' },
  DELETE_REFUSED: { status: 403, mcp: 'result', description: 'The path is a sandbox root, the home folder, or a folder containing one; it is never deleted.' },
  PERMISSION_DENIED: { status: 403, mcp: 'result', description: 'The operating system refused the operation (file permissions).' },
} as const satisfies Record<string, ErrorSpec>;

/** The core codes the errno mapping gives. */
type CoreCode = 'INVALID_PATH' | 'NO_SPACE' | 'IS_A_DIRECTORY' | 'NOT_A_REGULAR_FILE';
type ErrnoCode = keyof typeof fileErrors | CoreCode;

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
const CORE_MESSAGES: Record<CoreCode, string> = {
  INVALID_PATH: 'a name in the path is too long.',
  NO_SPACE: 'the disk (or the quota) is full; nothing was changed. Free space and retry.',
  IS_A_DIRECTORY: 'the path is a folder where a file was expected; use dir_list or dir_tree.',
  NOT_A_REGULAR_FILE: 'the path is a device, FIFO or socket; only regular files are read or edited.',
};

/**
 * A file-system error as a caller-facing one naming the path the caller gave; GatewayErrors
 * pass through, anything unrecognised is rethrown (and becomes INTERNAL_ERROR).
 */
export function asFileError(err: unknown, path: string): unknown {
  if (isGatewayError(err)) return err;
  const code = ERRNO_CODES[(err as NodeJS.ErrnoException).code ?? ''];
  if (!code) return err;
  const why = code in CORE_MESSAGES ? CORE_MESSAGES[code as CoreCode] : fileErrors[code as keyof typeof fileErrors].description;
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
