import { close, fstat, open, read, readFile, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';

// Reads work on plain numeric descriptors through fs's callback API: under load the
// FileHandle machinery of node:fs/promises (its object, its close bookkeeping, a promise per
// step) cost more main-thread CPU than the system calls themselves. A bare descriptor has no
// GC safety net, so every caller closes it in a `finally`.
export const openFd = promisify(open);
export const fstatFd = promisify(fstat);
export const closeFd = promisify(close);
const readFd = promisify(read);
const readRest = promisify(readFile);

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

/** The whole file in one read of the size fstat gave, plus one byte: a file that grew meanwhile is read to its end. */
export async function readWhole(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size + 1);
  const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, 0);
  // A positioned read leaves the file offset at 0, where readFile(fd) starts.
  return bytesRead <= size ? buffer.subarray(0, bytesRead) : readRest(fd);
}
