import { readlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * Where an open descriptor really points, whatever was swapped on the way to it; undefined
 * without /proc (not Linux). Synchronous on purpose: procfs answers from memory, and a
 * thread-pool round trip would cost more.
 */
export function realPathOf(handle: FileHandle): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/** The whole file in one read of the size fstat gave, plus one byte: a file that grew meanwhile is read to its end. */
export async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size + 1);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return bytesRead <= size ? buffer.subarray(0, bytesRead) : handle.readFile();
}
