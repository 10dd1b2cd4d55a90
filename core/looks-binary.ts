// Its own module, free of imports: the search worker thread loads it, and every module it
// loads adds to each worker's start.

/** A file is treated as binary when its first 8 KiB hold a NUL byte (git's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
