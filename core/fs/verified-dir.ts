import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { GatewayError } from '../contract/errors.js';
import { closeFd, openFd, realPathOf } from './file-descriptor.js';

// Node has no openat(). On Linux, /proc/self/fd/<fd>/<name> stands in for it: the kernel
// resolves the descriptor's link to the very folder that was opened, whatever was renamed or
// swapped for a symlink on the way to it since. Without /proc (not Linux) the folder's path is
// used instead, with the window that leaves (see plugins/files/README.md, "What is left").
const PROC_FD = existsSync('/proc/self/fd');
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * A folder opened and checked to be the one at `path`. Names reached through `at()` are in
 * this folder and no other, so what a tool creates, lists, moves or deletes through it stays
 * where the path was checked to be. Close it in a `finally`.
 */
export class VerifiedDir {
  constructor(
    readonly fd: number,
    /** The real path it was opened and checked as. */
    readonly path: string,
  ) {}

  /** A path naming `name` inside this folder. */
  at(name: string): string {
    return PROC_FD ? `/proc/self/fd/${this.fd}/${name}` : join(this.path, name);
  }

  /** A path naming the folder itself, e.g. for readdir. */
  get self(): string {
    return PROC_FD ? `/proc/self/fd/${this.fd}` : this.path;
  }

  /**
   * Synchronous: closing a folder's descriptor writes nothing back and waits on nothing, so a
   * thread-pool round trip would only add its latency to every call that lists or writes.
   */
  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

/**
 * Opens the folder at the real path `real` without following a symlink in its last
 * component, and refuses it (OUTSIDE_WORKSPACE) unless the descriptor really is that folder:
 * a folder on the way that was swapped for a link after `real` was resolved is caught here.
 * Errno failures (ENOENT, ENOTDIR) are thrown as they are, for the caller's mapping.
 */
export async function openDir(real: string): Promise<VerifiedDir> {
  const fd = await openFd(real, DIR_FLAGS).catch(async (err: unknown) => {
    throw await swappedForLink(err, real);
  });
  return checkedDir(fd, real);
}

/**
 * `openDir` with the open on the main thread, for a folder whose path was resolved just
 * before (realpathSync walked the same components a moment ago, so the open finds them in
 * the kernel's caches): a thread-pool round trip would cost more than the open. Not for a
 * path that has not just been resolved: an open may wait on a slow or automounted file system.
 */
export async function openResolvedDir(real: string): Promise<VerifiedDir> {
  let fd: number;
  try {
    fd = openSync(real, DIR_FLAGS);
  } catch (err) {
    throw await swappedForLink(err, real);
  }
  return checkedDir(fd, real);
}

/** Read-only, as a folder; links followed, the last component's too. */
const FOLDER_FOLLOWING_LINKS = constants.O_RDONLY | constants.O_DIRECTORY;

/**
 * The folder at `path` opened on the main thread with the kernel resolving its links, when
 * the descriptor's real path (read back from /proc) passes `inside`; undefined otherwise:
 * it did not open as a folder, it is not inside, or there is no /proc to tell. The real path
 * is where the descriptor is, so nothing can be swapped between the check and its use; and the
 * kernel walks the path once, where realpath(3) and then an open would walk it twice. Give a
 * lexically normalised absolute path (no `.` or `..`), so that links resolve as realpath would
 * resolve them; on undefined, take the long way (resolve, then `openResolvedDir`) for the
 * answer that explains the failure.
 */
export function openFolderInside(path: string, inside: (real: string) => boolean): VerifiedDir | undefined {
  if (!PROC_FD) return undefined;
  let fd: number;
  try {
    fd = openSync(path, FOLDER_FOLLOWING_LINKS);
  } catch {
    return undefined;
  }
  const real = realPathOf(fd);
  if (real === undefined || !inside(real)) {
    closeSync(fd);
    return undefined;
  }
  return new VerifiedDir(fd, real);
}

function checkedDir(fd: number, real: string): VerifiedDir {
  const actual = realPathOf(fd);
  if (actual !== undefined && actual !== real) {
    closeSync(fd);
    throw new GatewayError('OUTSIDE_WORKSPACE', 'A folder on the path was moved or swapped for a symlink while it was being opened; check the path and retry.');
  }
  return new VerifiedDir(fd, real);
}

/**
 * mkdir -p of `real` (inside `root`), then open it. Each folder below the root is opened
 * through its parent's descriptor without following symlinks, and created there when
 * missing, so no folder is ever created outside the root whatever is swapped meanwhile.
 * `created` tells whether the last folder was made by this call.
 */
export async function openDirCreating(root: string, real: string): Promise<{ dir: VerifiedDir; created: boolean }> {
  let dir = await openDir(root);
  let created = false;
  try {
    for (const name of relative(root, real).split(sep).filter(Boolean)) {
      created = false;
      let fd: number;
      try {
        fd = await openFd(dir.at(name), DIR_FLAGS);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw await swappedForLink(err, dir.at(name));
        await mkdir(dir.at(name)).then(
          () => (created = true),
          (mkdirErr: NodeJS.ErrnoException) => {
            if (mkdirErr.code !== 'EEXIST') throw mkdirErr; // made meanwhile: open it below
          },
        );
        fd = await openFd(dir.at(name), DIR_FLAGS).catch(async (again: unknown) => {
          throw await swappedForLink(again, dir.at(name));
        });
      }
      const parent = dir;
      dir = new VerifiedDir(fd, join(parent.path, name));
      await parent.close();
    }
    return { dir, created };
  } catch (err) {
    await dir.close();
    throw err;
  }
}

/** Runs `task` on the opened folder and closes it, whatever happens. */
export async function withDir<T>(opening: Promise<VerifiedDir>, task: (dir: VerifiedDir) => Promise<T>): Promise<T> {
  const dir = await opening;
  try {
    return await task(dir);
  } finally {
    await dir.close();
  }
}

/**
 * Writes `data` to `name` in `dir` atomically: a temporary file created exclusively in that
 * same folder, flushed, then renamed over `name`. A reader sees the old content or the new,
 * never half of it; a failure removes the temporary file, and only it (by its place in `dir`).
 */
export async function writeAtomicIn(dir: VerifiedDir, name: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const temp = `.${name}.${randomBytes(6).toString('hex')}.tmp`;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(dir.at(temp), flags, mode ?? 0o644);
  try {
    // The mode given to open() is narrowed by the umask; an existing file's mode is kept as is.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(dir.at(temp)).catch(() => {});
    throw err;
  }
  await handle.close();
  try {
    await rename(dir.at(temp), dir.at(name));
  } catch (err) {
    await unlink(dir.at(temp)).catch(() => {});
    throw err;
  }
}

/**
 * The error for a failed open of the folder at `path`: when the last component is a symlink
 * (open says ENOTDIR with O_DIRECTORY, ELOOP without), it was swapped in after the path was
 * resolved; anything else is returned as it is.
 */
async function swappedForLink(err: unknown, path: string): Promise<unknown> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ENOTDIR' && code !== 'ELOOP') return err;
  // A folder now, where open found none: it was swapped back meanwhile.
  const changed = await lstat(path).then((info) => info.isSymbolicLink() || info.isDirectory(), () => false);
  if (!changed) return err;
  return new GatewayError('OUTSIDE_WORKSPACE', 'A folder on the path changed into a symlink while it was being opened; check the path and retry.');
}
