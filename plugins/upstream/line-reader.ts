import { MessageTooLargeError } from './message-too-large.js';

const NEWLINE = 0x0a;

/** What one chunk completed: its lines, and the bound's error if a line passed it (nothing after it is read). */
export interface Lines {
  readonly lines: Buffer[];
  readonly tooLarge?: MessageTooLargeError;
}

/**
 * Splits a stdio server's output into lines (one JSON-RPC message each) of at most `limit`
 * bytes. Unlike the SDK's ReadBuffer, which concatenates its whole buffer on every chunk and
 * throws from the stream's data handler (uncaught: the gateway exited), it keeps a line's
 * chunks apart until the newline comes, joins them once, and reports a line that passes the
 * bound as soon as it does, having dropped what it held of it.
 */
export class LineReader {
  readonly #limit: number;
  #parts: Buffer[] = [];
  #length = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The lines `chunk` completes, without their `\n` (a `\r` before it is the caller's to strip). */
  push(chunk: Buffer): Lines {
    const lines: Buffer[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (!this.#take(chunk.subarray(start, end))) return { lines, tooLarge: this.#tooLarge() };
      lines.push(this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length));
      this.#parts = [];
      this.#length = 0;
      start = end + 1;
    }
    if (start < chunk.length && !this.#take(chunk.subarray(start))) return { lines, tooLarge: this.#tooLarge() };
    return { lines };
  }

  /** Adds a part of the current line; false when the line would pass the bound. */
  #take(part: Buffer): boolean {
    this.#length += part.length;
    if (this.#length > this.#limit) return false;
    this.#parts.push(part);
    return true;
  }

  #tooLarge(): MessageTooLargeError {
    this.#parts = [];
    this.#length = 0;
    return new MessageTooLargeError(this.#limit, 'a message');
  }
}
