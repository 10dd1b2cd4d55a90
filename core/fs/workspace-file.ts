// Reading a file of the workspace: the one path every plugin's reads go through (the files
// plugin's file_read and edits, knowledge's evidence and RAG sources, ...), so that a rule about
// what may be read holds everywhere at once. Issue 34 found knowledge reading, through a hard
// link, an outside file that the files plugin refused.
import type { Stats } from 'node:fs';
import { basename } from 'node:path';
import { GatewayError } from '../contract/errors.js';
import { readFileNoFollow, type FileRead } from './file-descriptor.js';
import type { FileReadOptions, FileReadRules } from '../contract/workspace-types.js';


/**
 * Refuses (HARD_LINK_REFUSED) a regular file with other hard links, when `refuseHardLinks`. A
 * hard link carries no "real" name to check: a link in the workspace to an outside file looks
 * like any file inside. Writers call it too, on the lstat of what they would replace.
 */
export function checkHardLinks(info: Stats, rules: Pick<FileReadRules, 'refuseHardLinks'>, shown: string): void {
  if (rules.refuseHardLinks && info.isFile() && info.nlink > 1) {
    throw new GatewayError(
      'HARD_LINK_REFUSED',
      `"${shown}" has ${info.nlink} hard links, and refuseHardLinks is on: another link may be a file outside the workspace. Copy the file instead of linking it, or set refuseHardLinks: false in the gateway config where links are made on purpose.`,
      { details: { path: shown, links: info.nlink } },
    );
  }
}

/**
 * Refuses what is not a regular file (IS_A_DIRECTORY, NOT_A_REGULAR_FILE: a FIFO or device may
 * never end and has no size to cap), then applies checkHardLinks.
 */
export function checkReadable(info: Stats, rules: Pick<FileReadRules, 'refuseHardLinks'>, shown: string): void {
  if (info.isDirectory()) throw new GatewayError('IS_A_DIRECTORY', `"${shown}" is a folder, not a file; list it instead.`, { details: { path: shown } });
  if (!info.isFile()) {
    throw new GatewayError('NOT_A_REGULAR_FILE', `"${shown}" is a device, FIFO or socket, not a regular file; only files are read.`, { details: { path: shown } });
  }
  checkHardLinks(info, rules, shown);
}

/**
 * Refuses (OUTSIDE_WORKSPACE) the descriptor opened at the real path `real` when where it
 * really points (`actual`, from realPathOf) is elsewhere and outside `rules.contains`: a folder
 * on the way swapped for a link since `real` was resolved. Without /proc (`actual` undefined,
 * not Linux) the checks of resolve() are what there is. A descriptor whose path reads back as
 * the one opened is that file, even in a root that is not `contains`'s.
 */
export function checkOpenedInside(actual: string | undefined, real: string, rules: Pick<FileReadRules, 'contains'>, shown: string): void {
  if (actual !== undefined && actual !== real && !rules.contains(actual)) {
    throw new GatewayError('OUTSIDE_WORKSPACE', `"${shown}" changed into a link to outside the workspace while it was being opened.`, { details: { path: shown } });
  }
}

/**
 * Runs `opening`, an open with O_NOFOLLOW of the path shown as `shown`. Its ELOOP means the
 * last component became a symlink after the path was resolved: refused as OUTSIDE_WORKSPACE.
 * Any other failure is thrown as the errno error it is, for the caller's mapping.
 */
export async function openNoFollow<T>(opening: () => Promise<T>, shown: string): Promise<T> {
  try {
    return await opening();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new GatewayError('OUTSIDE_WORKSPACE', `"${shown}" changed into a symlink while it was being opened; resolve it and retry.`, { details: { path: shown } });
    }
    throw err;
  }
}

/**
 * The bytes of the file at the real path `real` (one a Workspace's `resolve` gave). Opened without
 * following a symlink in its last component and without waiting on a FIFO; then, on the
 * descriptor and before any byte is read: where it really points must pass `rules.contains`
 * (checkOpenedInside), it must be a regular file (checkReadable, hard links included), pass the
 * caller's `check`, and be of at most `maxBytes`. Read in one read of the size fstat gave: a file
 * that grew meanwhile comes back as long as it was then.
 *
 * Throws GatewayErrors with core's codes: OUTSIDE_WORKSPACE, IS_A_DIRECTORY, NOT_A_REGULAR_FILE,
 * HARD_LINK_REFUSED, FILE_TOO_LARGE. A failed open (ENOENT, EACCES, ENXIO for a socket...) is
 * thrown as the errno error it is, for the caller's mapping. Resolves `{ skipped }` when `check`
 * returned a value.
 */
export async function readFileInside<Skip = never>(real: string, rules: FileReadRules, options: FileReadOptions<Skip>): Promise<FileRead<Skip>> {
  const shown = options.shown ?? basename(real);
  const read = await openNoFollow(
    () =>
      readFileNoFollow<Skip>(real, (info, actual) => {
        checkOpenedInside(actual, real, rules, shown);
        checkReadable(info, rules, shown);
        const skipped = options.check?.(info);
        if (skipped !== undefined) return skipped;
        if (info.size > options.maxBytes) {
          const setting = options.maxBytesSetting ? ` (${options.maxBytesSetting})` : '';
          throw new GatewayError('FILE_TOO_LARGE', `"${shown}" is ${info.size} bytes, over the ${options.maxBytes}-byte read cap${setting}.`, {
            details: { path: shown, size: info.size, limit: options.maxBytes },
          });
        }
        return undefined;
      }),
    shown,
  );
  if (!('bytes' in read)) return read;
  // readWhole reads one byte past the fstat's size, to tell that the file grew; not more.
  return (read.bytes.length > read.info.size ? { bytes: read.bytes.subarray(0, read.info.size), info: read.info } : read) as FileRead<Skip>;
}
