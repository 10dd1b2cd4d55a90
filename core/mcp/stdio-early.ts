import type { Readable, Writable } from 'node:stream';
import { parseJson } from '../lib/json.js';
import { CachedAnswers } from './cached-answers.js';
import { readSnapshot, stdioCacheSlot, type CacheSlot } from './stdio-cache.js';

// Loaded by bin/mcp-gateway.js for --stdio before the rest of the gateway: node's own modules only.

/**
 * How long the binary waits for a client's first requests before it loads the gateway anyway.
 * Loading runs long stretches of code without a break (module evaluation) during which nothing
 * could be answered; clients send `initialize` as soon as they spawn the server and `tools/list`
 * as soon as it is answered, well within this.
 */
const FIRST_REQUESTS_WAIT_MS = 200;

/** What serveStdio takes over from the early reader. */
export interface EarlyStdio {
  readonly slot: CacheSlot;
  /** The answers given from the snapshot, and the ones to give until the session is connected; absent without a snapshot. */
  readonly answers?: CachedAnswers;
  /** The client closed stdin already. */
  readonly ended: boolean;
  /** Lets stdin flow again, once the session's transport listens to it. */
  resume(): void;
}

let taken: (() => EarlyStdio) | undefined;

/**
 * `mcp-gateway --stdio`, first thing: finds this start's snapshot (stdio-cache.ts) and, when
 * there is one, reads stdin and answers `initialize`, `tools/list` and `ping` from it, keeping
 * everything else in order for the session. Resolves when the gateway should start loading:
 * once the tool list is out, a request needs the session, stdin ends, or after
 * FIRST_REQUESTS_WAIT_MS. The reader goes on answering in the pauses of the load, until
 * serveStdio takes over (`takeEarlyStdio`). Without a snapshot it only remembers the slot,
 * where serveStdio writes one.
 */
export function answerEarly(input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  let slot: CacheSlot;
  try {
    slot = stdioCacheSlot();
  } catch {
    // The working directory is gone, or the like: serveStdio reports what matters of it.
    return Promise.resolve();
  }
  const snapshot = readSnapshot(slot);
  if (!snapshot) {
    taken = () => ({ slot, ended: false, resume: () => {} });
    return Promise.resolve();
  }
  const reader = new EarlyReader(input, output, new CachedAnswers(snapshot));
  taken = () => ({ slot, answers: reader.answers, ...reader.stop() });
  return reader.loadNow;
}

/** The early reader's state, handed to serveStdio once; undefined when none ran (in-process tests, no --stdio). */
export function takeEarlyStdio(): EarlyStdio | undefined {
  const take = taken;
  taken = undefined;
  return take?.();
}

class EarlyReader {
  readonly answers: CachedAnswers;
  /** Resolves when the gateway should start loading. */
  readonly loadNow: Promise<void>;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #startLoading: () => void;
  /** Complete lines kept for the session, in the order they came. */
  #kept: Buffer[] = [];
  /** The start of a line whose end has not come yet. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  #reading = true;
  #ended = false;

  constructor(input: Readable, output: Writable, answers: CachedAnswers) {
    this.#input = input;
    this.#output = output;
    this.answers = answers;
    let startLoading!: () => void;
    this.loadNow = new Promise((resolve) => (startLoading = resolve));
    const timer = setTimeout(startLoading, FIRST_REQUESTS_WAIT_MS);
    this.#startLoading = () => {
      clearTimeout(timer);
      startLoading();
    };
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
    // A client gone mid-answer (EPIPE) is seen by the session's transport, which listens from then on.
    output.on('error', this.#onEnd);
  }

  /** Stops reading and gives back, unread, what the session must see. */
  stop(): { ended: boolean; resume: () => void } {
    this.#stopReading();
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    this.#output.off('error', this.#onEnd);
    const rest = Buffer.concat([...this.#kept, ...this.#partial]);
    this.#kept = [];
    this.#partial = [];
    if (!this.#ended && rest.length > 0) this.#input.unshift(rest);
    return { ended: this.#ended, resume: () => void this.#input.resume() };
  }

  #stopReading(): void {
    if (!this.#reading) return;
    this.#reading = false;
    this.#input.off('data', this.#onData);
    this.#input.pause();
  }

  #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(0x0a);
      if (newline === -1) {
        this.#partial.push(data);
        this.#partialBytes += data.length;
        // The session's transport answers a line over the cap; holding it here would only cost memory.
        if (this.#partialBytes > this.answers.snapshot.maxMessageBytes) this.#needSession();
        return;
      }
      const line = Buffer.concat([...this.#partial, data.subarray(0, newline + 1)]);
      this.#partial = [];
      this.#partialBytes = 0;
      data = data.subarray(newline + 1);
      this.#onLine(line);
    }
  };

  #onLine(line: Buffer): void {
    let message: unknown;
    try {
      message = parseJson(line.toString('utf8'));
    } catch {
      // The session's transport answers it (a parse error, or a __proto__ key refused).
      this.#kept.push(line);
      return this.#startLoading();
    }
    const { reply, keep } = this.answers.handle(message);
    if (reply) this.#output.write(`${JSON.stringify(reply)}\n`);
    if (keep) this.#kept.push(line);
    if (this.answers.answeredTools || (keep && !isHandshake(message))) this.#startLoading();
  }

  #needSession(): void {
    this.#stopReading();
    this.#startLoading();
  }

  #onEnd = (): void => {
    this.#ended = true;
    this.#needSession();
  };
}

/** `initialize` and `notifications/initialized`: kept for the session, but no reason to load it sooner. */
function isHandshake(message: unknown): boolean {
  const method = (message as { method?: unknown } | null)?.method;
  return method === 'initialize' || method === 'notifications/initialized';
}
