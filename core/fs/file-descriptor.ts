import { close, constants, fstat, open, read, readlinkSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';

// Reads work on plain numeric descriptors through fs's callback API: under load the
// FileHandle machinery of node:fs/promises (its object, its close bookkeeping, a promise per
// step) cost more main-thread CPU than the system calls themselves. A bare descriptor has no
// GC safety net, so every caller closes it in a `finally`.
export const openFd = promisify(open);
export const fstatFd = promisify(fstat);
export const closeFd = promisify(close);
const readFd = promisify(read);

/**
 * Where an open descriptor really points, whatever was swapped on the way to it; undefined
 * without /proc (not Linux). Synchronous on purpose: procfs answers from memory, and a
 * thread-pool round trip would cost more.
 */
export function realPathOf(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * The file in one read of the size fstat gave plus one byte, and never more: a file that
 * grew since its fstat comes back as `size + 1` bytes (its first ones), so the caller sees
 * it is over the size it checked without the read following the growth to its end.
 */
export async function readWhole(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size + 1);
  const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead);
}

/** Read-only, without following a symlink in the last component, without waiting on a FIFO. */
const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads the file at `path` through a plain descriptor opened without following a symlink in
 * its last component (the open fails with ELOOP) and with O_NONBLOCK (a FIFO does not hold
 * the open until a writer comes). Before any byte is read, `check` gets the descriptor's
 * fstat and where it really points (undefined without /proc): it throws to refuse the file,
 * returns a value to skip it (given back as `skipped`, nothing read), or returns undefined to
 * have the whole file read in one read of the size fstat gave plus one byte (readWhole:
 * `bytes.length > info.size` says the file grew meanwhile). Failures of the open, fstat
 * or read reject with the errno error as it is (its `syscall` says which). The descriptor is
 * closed whatever happens.
 */
export async function readFileNoFollow<Skip = never>(
  path: string,
  check: (info: Stats, realPath: string | undefined) => Skip | undefined,
): Promise<FileRead<Skip>> {
  const fd = await openFd(path, READ_NO_FOLLOW);
  try {
    const info = await fstatFd(fd);
    const skipped = check(info, realPathOf(fd));
    if (skipped !== undefined) return { skipped } as FileRead<Skip>;
    return { bytes: await readWhole(fd, info.size), info };
  } finally {
    await closeFd(fd);
  }
}

/** What readFileNoFollow gives: the bytes and the fstat, or what `check` returned to skip the file (when it can). */
export type FileRead<Skip = never> = { readonly bytes: Buffer; readonly info: Stats } | ([Skip] extends [never] ? never : { readonly skipped: Skip });
