// One captured stream (stdout or stderr) of one process, read by logical byte offsets.
//
// The gateway writes `<stream>.log` from the child's pipe (log-writer.ts); when it reaches
// half the cap it is renamed to `<stream>.prev.log`. Offsets stay logical (bytes since the
// process started), so an agent following with `offset` never sees them jump back.
//
//   logical:  [ dropped ... ][ prev segment ][ live file ]
//                            ^ start         ^ start + size(prev)
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export type StreamName = 'stdout' | 'stderr';

export interface OutputChunk {
  /** Logical offset of the first byte of `text`. */
  readonly offset: number;
  /** Pass this as `offset` next time to continue after `text`. */
  readonly next_offset: number;
  readonly text: string;
  /** Bytes between the requested offset and the oldest byte still kept (cut by retention). */
  readonly skipped_bytes: number;
  /** Whether more output is already available after `next_offset`. */
  readonly more: boolean;
  /** Logical size of the stream: every byte written so far, kept or not. */
  readonly total_bytes: number;
}

export class OutputLog {
  readonly path: string;
  readonly prevPath: string;
  #start: number;
  readonly #onRotate: (start: number) => void;

  /** `start` is the logical offset of the oldest kept byte, as persisted at the last rotation. */
  constructor(path: string, start: number, onRotate: (start: number) => void = () => {}) {
    this.path = path;
    this.prevPath = path.replace(/\.log$/, '.prev.log');
    this.#start = start;
    this.#onRotate = onRotate;
  }

  /** The kept range [start, end) in logical offsets. */
  extent(): { start: number; liveStart: number; end: number } {
    const liveStart = this.#start + fileSize(this.prevPath);
    return { start: this.#start, liveStart, end: liveStart + fileSize(this.path) };
  }

  /**
   * Up to `maxBytes` from `from` (default: the oldest kept byte). `settled`: no more output
   * will come, so a trailing incomplete UTF-8 sequence is returned rather than held back.
   */
  read(from: number | undefined, maxBytes: number, settled: boolean): OutputChunk {
    const { start, end } = this.extent();
    const requested = Math.min(from ?? start, end);
    const offset = Math.max(requested, start);
    const stop = Math.min(end, offset + maxBytes);
    const bytes = this.#readRange(offset, stop);
    const length = stop < end || !settled ? completeLength(bytes) : bytes.length;
    return {
      offset,
      next_offset: offset + length,
      text: bytes.subarray(0, length).toString('utf8'),
      skipped_bytes: offset - requested,
      more: offset + length < end,
      total_bytes: end,
    };
  }

  /** The last `lines` lines after `from`, within the last `maxBytes` bytes. */
  tail(lines: number, from: number | undefined, maxBytes: number, settled: boolean): OutputChunk {
    const { start, end } = this.extent();
    const requested = Math.min(from ?? start, end);
    const floor = Math.max(requested, start);
    const windowStart = Math.max(floor, end - maxBytes);
    let bytes = this.#readRange(windowStart, end);
    if (!settled) bytes = bytes.subarray(0, completeLength(bytes));
    const stop = windowStart + bytes.length;
    const text = bytes.toString('utf8');
    const endsWithNewline = text.endsWith('\n');
    let parts = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
    // A window cut by maxBytes starts mid-line: drop that fragment when whole lines follow.
    if (windowStart > floor && parts.length > 1) parts = parts.slice(1);
    const kept = text === '' ? '' : parts.slice(-lines).join('\n') + (endsWithNewline ? '\n' : '');
    return {
      // max(): a single line longer than the window may start with a cut character.
      offset: Math.max(windowStart, stop - Buffer.byteLength(kept)),
      next_offset: stop,
      text: kept,
      skipped_bytes: floor - requested,
      more: stop < end,
      total_bytes: end,
    };
  }

  /** Records a rotation: `start` is now the logical offset of the oldest kept byte. */
  setStart(start: number): void {
    this.#start = start;
    this.#onRotate(start);
  }

  /** Logical [from, to), both inside the kept range. */
  #readRange(from: number, to: number): Buffer {
    if (to <= from) return Buffer.alloc(0);
    const liveStart = this.#start + fileSize(this.prevPath);
    const parts: Buffer[] = [];
    if (from < liveStart) parts.push(readFile(this.prevPath, from - this.#start, Math.min(to, liveStart) - from));
    if (to > liveStart) {
      const liveFrom = Math.max(from, liveStart);
      parts.push(readFile(this.path, liveFrom - liveStart, to - liveFrom));
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function readFile(path: string, position: number, length: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    return readAt(fd, position, length);
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read === length ? buffer : buffer.subarray(0, read);
}

/** The length of `bytes` without a trailing UTF-8 sequence that is not complete yet. */
export function completeLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const byte = bytes[n - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    if (byte < 0x80) return n;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return back < needed ? n - back : n;
  }
  return n;
}
