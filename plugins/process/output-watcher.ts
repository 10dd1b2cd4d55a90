// Batches new output into `process.output` events. New output is found by polling the logs'
// sizes once per pollIntervalMs: one event per stream per poll at most, never one per chunk.
import type { OutputLog, StreamName } from './output-log.js';

/** Text carried by one event; the rest is read with process_output from `offset`. */
export const EVENT_TEXT_BYTES = 4096;

export interface OutputEvent {
  readonly id: string;
  readonly stream: StreamName;
  /** Logical offset where `text` starts. */
  readonly offset: number;
  /** Logical offset after the new output (the next event starts here). */
  readonly next_offset: number;
  readonly text: string;
  /** The new output was longer than EVENT_TEXT_BYTES: `text` is its beginning. */
  readonly truncated: boolean;
  /** Output written and dropped by the retention cap before this poll could see it. */
  readonly skipped_bytes: number;
}

export interface Watched {
  readonly id: string;
  readonly logs: Readonly<Record<StreamName, OutputLog>>;
}

const STREAMS: readonly StreamName[] = ['stdout', 'stderr'];

export class OutputWatcher {
  readonly #seen = new Map<string, Record<StreamName, number>>();
  readonly #publish: (event: OutputEvent) => void;

  constructor(publish: (event: OutputEvent) => void) {
    this.#publish = publish;
  }

  /** Starts watching; `fromEnd` skips what is already written (an adopted process). */
  watch(process: Watched, fromEnd: boolean): void {
    const at = (stream: StreamName) => (fromEnd ? process.logs[stream].extent().end : 0);
    this.#seen.set(process.id, { stdout: at('stdout'), stderr: at('stderr') });
  }

  forget(id: string): void {
    this.#seen.delete(id);
  }

  /** Publishes what is new. `settled`: the process has exited. */
  poll(process: Watched, settled: boolean): void {
    const seen = this.#seen.get(process.id);
    if (!seen) return;
    for (const stream of STREAMS) {
      const log = process.logs[stream];
      const { end } = log.extent();
      if (end <= seen[stream]) continue;
      const chunk = log.read(seen[stream], EVENT_TEXT_BYTES, settled);
      const truncated = end - chunk.offset > EVENT_TEXT_BYTES;
      // An incomplete UTF-8 character at the end waits for the next poll, unless cut anyway.
      const next = truncated ? end : chunk.next_offset;
      if (next <= seen[stream]) continue;
      this.#publish({
        id: process.id,
        stream,
        offset: chunk.offset,
        next_offset: next,
        text: chunk.text,
        truncated,
        skipped_bytes: chunk.skipped_bytes,
      });
      seen[stream] = next;
    }
  }
}
