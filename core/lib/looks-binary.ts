// Public (core/index.ts): file_read, file_edit, file_search and rag_ingest all skip or refuse
// binary files by this one rule.

/** A file is treated as binary when its first 8 KiB hold a NUL byte (git's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
