// Copies one output pipe into its capped log: `<stream>.log` (live) and `<stream>.prev.log`.
// When the live file reaches half the cap it is renamed over the previous segment and a new
// one is started, so the two files never hold more than the cap together, and no byte is
// lost at a rotation (the gateway is the only writer). One write is in flight at a time and
// the pipe is not read meanwhile: a child that prints faster than the disk takes it waits in
// its own write() call, and what the gateway holds in memory is bounded by the stream's
// high-water mark plus one chunk, whatever the child prints.
import { closeSync, openSync, renameSync, rmSync, statSync, write } from 'node:fs';
import type { Readable } from 'node:stream';
import type { OutputLog } from './output-log.js';

/** Files the gateway creates are private to its user. */
export const FILE_MODE = 0o600;

export class LogWriter {
  readonly #log: OutputLog;
  readonly #half: number;
  readonly #source: Readable;
  readonly #done: Promise<void>;
  #fd: number;
  #liveSize: number;
  #pending = 0;
  #lastDataMs = Date.now();
  #receivedMs: number | undefined;
  #ended = false;
  #closing = false;

  /** Starts copying at once; `maxBytes` is the cap for both files together. */
  constructor(log: OutputLog, source: Readable, maxBytes: number, onError: (err: unknown) => void) {
    this.#log = log;
    this.#half = Math.max(1, Math.floor(maxBytes / 2));
    this.#source = source;
    this.#fd = openSync(log.path, 'a', FILE_MODE);
    this.#liveSize = fileSize(log.path);
    this.#done = this.#copy()
      .catch((err: unknown) => {
        if (this.#closing) return;
        onError(err);
        // A log that cannot be written (a full disk) must not block the child: drop instead.
        source.resume();
      })
      .finally(() => {
        this.#ended = true;
        closeSync(this.#fd);
      });
  }

  /** Bytes read from the pipe and not yet on disk: what this stream costs in memory. */
  get retainedBytes(): number {
    return this.#source.readableLength + this.#pending;
  }

  /** When the child last wrote to this stream (ms since the epoch); undefined while it has written nothing. */
  get lastOutputMs(): number | undefined {
    return this.#receivedMs;
  }

  /**
   * Resolves once every writer closed the pipe and all is on disk, or once the pipe has been
   * quiet for `quietMs` (a grandchild may hold it open after the leader exited), or after
   * `maxMs` at the latest (a grandchild that keeps printing).
   */
  async settle(quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (!this.#ended && Date.now() < deadline) {
      if (this.#pending === 0 && this.#source.readableLength === 0 && Date.now() - this.#lastDataMs >= quietMs) return;
      await Promise.race([this.#done, delay(Math.min(quietMs, 25))]);
    }
  }

  /** Stops reading; the pipe stays open in the child, which keeps its output for the next reader. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#source.destroy();
    await this.#done;
  }

  async #copy(): Promise<void> {
    for await (const chunk of this.#source as AsyncIterable<Buffer>) {
      this.#lastDataMs = Date.now();
      this.#receivedMs = this.#lastDataMs;
      this.#pending = chunk.length;
      // Of a chunk longer than the cap, only its last cap of bytes can be kept (as both
      // segments): the rest is dropped unwritten.
      let from = 0;
      if (chunk.length > 2 * this.#half) {
        from = chunk.length - 2 * this.#half;
        this.#restart(this.#log.extent().end + from);
      }
      while (from < chunk.length) {
        if (this.#liveSize >= this.#half) this.#rotate();
        const part = chunk.subarray(from, from + this.#half - this.#liveSize);
        await writeAll(this.#fd, part);
        this.#liveSize += part.length;
        from += part.length;
        this.#pending = chunk.length - from;
      }
      this.#pending = 0;
    }
  }

  /**
   * The live file becomes the previous segment (the old one is dropped) and a new live file
   * starts. Synchronous on purpose (a rename and an open): a reader in between must never
   * see the files and the logical start out of step.
   */
  #rotate(): void {
    closeSync(this.#fd);
    const { liveStart } = this.#log.extent();
    renameSync(this.#log.path, this.#log.prevPath);
    this.#fd = openSync(this.#log.path, 'a', FILE_MODE);
    this.#liveSize = 0;
    this.#log.setStart(liveStart);
  }

  /** Drops everything kept: the next byte written is logical offset `start`. */
  #restart(start: number): void {
    closeSync(this.#fd);
    rmSync(this.#log.prevPath, { force: true });
    this.#fd = openSync(this.#log.path, 'w', FILE_MODE);
    this.#liveSize = 0;
    this.#log.setStart(start);
  }
}

function writeAll(fd: number, buffer: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const next = (offset: number) =>
      write(fd, buffer, offset, buffer.length - offset, null, (err, written) => {
        if (err) reject(err);
        else if (offset + written < buffer.length) next(offset + written);
        else resolve();
      });
    next(0);
  });
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
