// Finding and reading the files of an ingest without ever opening what must not be opened:
// everything is lstat-ed first (a FIFO opened for reading waits for a writer forever; a
// 2 GiB file is never read), then read through core's workspace read, which opens without
// following links and checks again on the descriptor, in case the path was swapped between the two.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import picomatch from 'picomatch';
// Core's sandboxed walker and read, the ones the files plugin uses too: the walk does not
// follow links, checks each folder on its descriptor, and honours nested .gitignore files;
// readFileInside applies the workspace's rules (inside it, a regular file, no other hard link,
// a size cap) on the descriptor and reads the file in one read of the size fstat gave.
import { checkHardLinks, isGatewayError, looksBinary, readFileInside, walk, type Workspace } from '@mcp-gateway/core';
import type { RaiseError } from '../declaration.js';

/** Kernel file systems: never ingested, even when the workspace is `/`. */
const KERNEL_TREES = ['/proc', '/sys', '/dev'];

export interface IngestTarget {
  /** The real path. */
  readonly real: string;
  readonly isDir: boolean;
  /** Relative to the workspace root with `/` separators; '' for the root itself. */
  readonly relative: string;
}

/**
 * The real path of what rag_ingest was given: OUTSIDE_WORKSPACE / INVALID_PATH from the
 * workspace, RAG_PATH_NOT_FOUND, RAG_NOT_INGESTIBLE for a device, FIFO, socket or a path
 * in a kernel tree, or HARD_LINK_REFUSED for a file with other hard links (refuseHardLinks).
 */
export async function resolveTarget(workspace: Workspace, path: string, raise: RaiseError): Promise<IngestTarget> {
  const real = workspace.resolve(path);
  if (inKernelTree(real)) throw raise('RAG_NOT_INGESTIBLE', `"${path}" is in ${kernelTreeOf(real)}, a kernel file system: its files are not documents and some never end.`, { path });
  let info: Stats;
  try {
    info = await lstat(real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw raise('RAG_PATH_NOT_FOUND', `Nothing exists at "${path}" in the workspace.`, { path });
    }
    throw err;
  }
  if (!info.isFile() && !info.isDirectory()) {
    throw raise('RAG_NOT_INGESTIBLE', `"${path}" is a ${kindOf(info)}, not a file or folder; it is never opened.`, { path, kind: kindOf(info) });
  }
  checkHardLinks(info, workspace, path);
  return { real, isDir: info.isDirectory(), relative: toRelative(workspace.root, real) };
}

export interface FoundFiles {
  /** Real paths, in walk order (breadth-first, by name). */
  readonly files: string[];
  /** Why the list stops short, or undefined when the walk saw the whole folder. */
  readonly truncated: string | undefined;
}

/**
 * The files under the folder `start` that pass `include` / `exclude` (globs on the path below
 * `start` and on the name) and the .gitignore files, at most `maxFiles`. Links are listed as
 * files and refused when read. Aborts with `signal`.
 */
export async function findFiles(
  start: string,
  options: { include?: readonly string[]; exclude?: readonly string[]; maxFiles: number; refuseHardLinks: boolean; signal: AbortSignal },
): Promise<FoundFiles> {
  const included = options.include?.length ? picomatch([...options.include], { dot: true }) : undefined;
  // A walk from `/` (or another ancestor of them) must not go down into the kernel trees.
  const kernel = KERNEL_TREES.filter((tree) => tree.startsWith(start.endsWith(sep) ? start : start + sep)).map((tree) => relative(start, tree));
  const files: string[] = [];
  let truncated: string | undefined;
  const walked = await walk(
    start,
    { exclude: [...(options.exclude ?? []), ...kernel], gitignore: true, maxEntries: options.maxFiles * 20 + 10_000, refuseHardLinks: options.refuseHardLinks, signal: options.signal },
    (entry) => {
      if (entry.isDir || (included && !included(entry.relative) && !included(entry.name))) return;
      if (files.length >= options.maxFiles) {
        truncated = `the folder holds more than maxFiles (${options.maxFiles}) files; the rest were not looked at`;
        return false;
      }
      files.push(entry.path);
    },
  );
  if (walked.truncated && truncated === undefined) truncated = 'the folder holds more entries than one ingest walks; the rest were not looked at';
  return { files, truncated };
}

export type SourceRead =
  | { readonly text: string; readonly hash: string; readonly size: number; readonly mtime: string }
  | { readonly skipped: string; readonly read: number; readonly overBudget?: true };

/** Why a file is not read, decided on its lstat or on the descriptor's fstat: nothing of it is read. */
type Unread = Extract<SourceRead, { skipped: string }>;

/**
 * The text of the regular file at `real`, or why it is skipped: a link, not a regular file,
 * over `maxBytes` or `budget` (not read), refused by the workspace's rules on the descriptor
 * (moved out of it, hard-linked: the reason starts with core's code), or binary. `read` counts
 * the bytes read for a file skipped after reading.
 */
export async function readSource(workspace: Workspace, real: string, maxBytes: number, budget = Infinity): Promise<SourceRead> {
  let info: Stats;
  try {
    info = await lstat(real);
  } catch (err) {
    return { skipped: `could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, read: 0 };
  }
  if (info.isSymbolicLink()) return { skipped: 'symbolic link: not followed', read: 0 };
  if (!info.isFile()) return { skipped: `a ${kindOf(info)}, not a regular file: not opened`, read: 0 };
  return readSeenSource(workspace, real, info, maxBytes, budget);
}

/**
 * readSource's read of the file at `real` that an lstat saw as `seen`. Everything is decided on
 * the opened descriptor before a byte is read: that it is still the file `seen` (not one swapped
 * in since, whose size was never checked), and that its size, which may have grown since, fits
 * `maxBytes` and `budget`. Exported for tests, which swap or grow the file after the lstat.
 */
export async function readSeenSource(workspace: Workspace, real: string, seen: Stats, maxBytes: number, budget: number): Promise<SourceRead> {
  const fits = (size: number): Unread | undefined => {
    if (size > maxBytes) return { skipped: `${size} bytes, over maxFileBytes (${maxBytes}): not read`, read: 0 };
    if (size > budget) return { skipped: `${size} bytes, over what is left of maxIngestBytes: not read`, read: 0, overBudget: true };
    return undefined;
  };
  const early = fits(seen.size);
  if (early) return early;
  let read;
  try {
    // Opened with O_NONBLOCK: should a FIFO have been swapped in since the lstat, the open does not wait.
    // A file that grew after its fstat is taken as it was then (an appended log, its part then), the rest next time.
    read = await readFileInside<Unread>(real, workspace, {
      maxBytes: Math.min(maxBytes, budget),
      maxBytesSetting: 'rag.maxFileBytes',
      shown: toRelative(workspace.root, real),
      check: (opened) => (opened.ino !== seen.ino || opened.dev !== seen.dev ? { skipped: 'changed while it was being opened: not read', read: 0 } : fits(opened.size)),
    });
  } catch (err) {
    if (isGatewayError(err)) return { skipped: `${err.code}: ${err.message}`, read: 0 };
    // Only a failed open is a skip; a failure of the opened file's fstat or read is thrown.
    if ((err as NodeJS.ErrnoException).syscall !== 'open') throw err;
    return { skipped: `could not be opened (${(err as NodeJS.ErrnoException).code ?? 'error'})`, read: 0 };
  }
  if ('skipped' in read) return read.skipped;
  const { bytes, info: opened } = read;
  if (looksBinary(bytes)) return { skipped: 'binary', read: bytes.length };
  return { text: bytes.toString('utf8'), hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, mtime: opened.mtime.toISOString() };
}

export function toRelative(root: string, real: string): string {
  return relative(root, real).split(sep).join('/');
}

function inKernelTree(real: string): boolean {
  return kernelTreeOf(real) !== undefined;
}

function kernelTreeOf(real: string): string | undefined {
  return KERNEL_TREES.find((tree) => real === tree || real.startsWith(`${tree}/`));
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'FIFO';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'device';
  if (info.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}
