// A remote brain that keeps working, within limits, while the remote is down: remembers wait in
// a local queue (with queueWhenDown) and go out in order, once each, when it is back; recall
// and list answer from the memories this gateway wrote, marked partial.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@mcp-gateway/core';
import type { Brain, BrainCall } from '../brain.js';
import type { RaiseError } from '../declaration.js';
import { newMemory, type ForgetResult, type ImportSummary, type ListQuery, type ListResult, type Memory, type RecallQuery, type RecallResult, type RememberInput, type RememberResult } from '../model.js';
import type { Outbox, Queued, WrittenMemories } from './outbox.js';
import { matchesFilter, searchWritten } from './written-search.js';

export interface OfflineOptions {
  readonly queueWhenDown: boolean;
  readonly queueLimit: number;
  /** Copies kept of the memories written here; 0: none, and recall and list fail while the remote is down. */
  readonly keepWritten: number;
}

/** What the status report shows of the queue. */
export interface QueueState {
  readonly length: number;
  readonly sent: number;
  /** Queued remembers the remote refused when they were sent (a supersedes it does not know...): logged and dropped. */
  readonly refused: number;
  /** Queued remembers whose expiry passed while they waited: not sent. */
  readonly expired: number;
  readonly lastRefusal?: string;
  /** Why the queue is not moving though the remote answers (a refused key...), until it moves again. */
  readonly stuck?: string;
}

/**
 * The remote is down, as opposed to answering: no answer, a timeout, an open breaker, a 5xx,
 * 408 or 429. A 4xx answer, a refused key or a garbled 200 come from a remote that is up.
 */
export function isRemoteDown(err: unknown): boolean {
  const { code, details } = err as { code?: unknown; details?: { status?: unknown } };
  if (code === 'BREAKER_OPEN' || code === 'BREAKER_TIMEOUT') return true;
  if (code !== 'BRAIN_REMOTE_FAILED') return false;
  const status = details?.status;
  return typeof status !== 'number' || status >= 500 || status === 408 || status === 429;
}

/**
 * Answers that say this one memory cannot be stored, whatever is retried: such an entry is
 * dropped from the queue. Any other failure (a refused key, a redirect, a proxy's page, the
 * brain plugin off on the remote) says nothing of the memory: the queue waits for a fix.
 */
const REFUSES_THE_MEMORY = new Set(['BRAIN_CONTENT_TOO_LARGE', 'BRAIN_MEMORY_NOT_FOUND', 'BRAIN_ID_CONFLICT', 'INVALID_ARGUMENTS']);

const codeOf = (err: unknown) => String((err as { code?: unknown }).code ?? 'error');

export class OfflineBrain implements Brain {
  readonly #remote: Brain;
  readonly #outbox: Outbox;
  readonly #written: WrittenMemories;
  readonly #options: OfflineOptions;
  readonly #error: RaiseError;
  readonly #log: Logger;
  #flushing: Promise<void> | undefined;
  /** The queued memory being sent now: a forget of it waits for the send, then goes to the remote. */
  #sending: string | undefined;
  #sent = 0;
  #refused = 0;
  #expired = 0;
  #lastRefusal: string | undefined;
  #stuck: string | undefined;

  constructor(remote: Brain, parts: { outbox: Outbox; written: WrittenMemories; options: OfflineOptions; error: RaiseError; log: Logger }) {
    this.#remote = remote;
    this.#outbox = parts.outbox;
    this.#written = parts.written;
    this.#options = parts.options;
    this.#error = parts.error;
    this.#log = parts.log;
  }

  get kind() {
    return this.#remote.kind;
  }

  queueState(): QueueState {
    return {
      length: this.#outbox.length,
      sent: this.#sent,
      refused: this.#refused,
      expired: this.#expired,
      ...(this.#lastRefusal ? { lastRefusal: this.#lastRefusal } : {}),
      ...(this.#stuck ? { stuck: this.#stuck } : {}),
    };
  }

  async remember(input: RememberInput, call: BrainCall): Promise<RememberResult> {
    // The id is made here, once: the queue, every retry and the remote all know the memory by it.
    const withId = { ...input, id: input.id ?? randomUUID() };
    const waiting = this.#outbox.find(withId.id);
    if (waiting) return this.#queuedAgain(waiting, withId);
    // Queued remembers go first: a new one must not overtake them.
    if (this.#outbox.length > 0) await this.flush();
    if (this.#outbox.length === 0) {
      try {
        return this.#stored(await this.#remote.remember(withId, call), withId);
      } catch (err) {
        if (!this.#options.queueWhenDown || !isRemoteDown(err)) throw err;
        // Expected while the remote is down: one line, no stack.
        this.#log.info({ code: codeOf(err), id: withId.id }, 'brain: the remote is down; the memory waits in the queue');
      }
    }
    if (!this.#options.queueWhenDown) {
      throw this.#error('BRAIN_REMOTE_FAILED', 'Earlier memories still wait to be sent to the remote brain: try again later.', { queued: this.#outbox.length });
    }
    if (this.#outbox.length >= this.#options.queueLimit) {
      throw this.#error('BRAIN_QUEUE_FULL', `The remote brain is down and ${this.#options.queueLimit} memories already wait in the queue (remote.queueLimit): try again when it is back.`, { limit: this.#options.queueLimit });
    }
    const entry: Queued = { agent: call.agent, input: withId, queuedAt: Date.now() };
    this.#outbox.push(entry);
    const memory = newMemory(withId, call.agent, entry.queuedAt);
    this.#written.put(memory);
    if (withId.supersedes) this.#written.supersede(withId.supersedes, withId.id);
    return { memory, duplicate: false, queued: true };
  }

  /** The same id while it waits: the same memory again is a duplicate, another is BRAIN_ID_CONFLICT. */
  #queuedAgain(waiting: Queued, input: RememberInput & { id: string }): RememberResult {
    if (waiting.input.content !== input.content || waiting.input.type !== input.type) {
      throw this.#error('BRAIN_ID_CONFLICT', `A memory with the id ${input.id} waits in the queue with other content: leave id out, or choose a fresh UUID.`, { id: input.id });
    }
    return { memory: newMemory(waiting.input, waiting.agent, waiting.queuedAt), duplicate: true, queued: true };
  }

  /** The remote's copy replaces ours. */
  #stored(result: RememberResult, input: RememberInput): RememberResult {
    this.#written.put(result.memory);
    if (input.supersedes) this.#written.supersede(input.supersedes, result.memory.id);
    return result;
  }

  /**
   * Sends the queue, oldest first, until it is empty, the remote is down again, or it answers
   * something that is not about the memory (then the queue waits, and the status says why).
   * One run at a time. A memory the remote refuses is dropped and counted, so that one bad
   * entry cannot hold the rest back; one that expired while waiting is not sent.
   */
  flush(): Promise<void> {
    this.#flushing ??= (async () => {
      try {
        for (let next = this.#outbox.head(); next; next = this.#outbox.head()) {
          if (!(await this.#send(next))) return;
        }
      } finally {
        this.#sending = undefined;
        this.#flushing = undefined;
      }
    })();
    return this.#flushing;
  }

  /** Sends one queued memory; false when the queue must stop here. */
  async #send(next: Queued): Promise<boolean> {
    const { id } = next.input;
    const remaining = next.input.expires_in === undefined ? undefined : next.input.expires_in - Math.floor((Date.now() - next.queuedAt) / 1000);
    if (remaining !== undefined && remaining <= 0) {
      this.#expired++;
      this.#written.remove(id);
      this.#outbox.remove(id);
      return true;
    }
    this.#sending = id;
    try {
      const input = remaining === undefined ? next.input : { ...next.input, expires_in: remaining };
      this.#stored(await this.#remote.remember(input, { agent: next.agent }), input);
      this.#sent++;
      this.#stuck = undefined;
    } catch (err) {
      if (isRemoteDown(err)) return false;
      if (!REFUSES_THE_MEMORY.has(codeOf(err))) {
        const stuck = `${codeOf(err)}: ${(err as Error).message}`;
        // Once per reason, not at every try.
        if (stuck !== this.#stuck) this.#log.warn({ code: codeOf(err), id }, `brain: the queue waits: the remote answered ${stuck}`);
        this.#stuck = stuck;
        return false;
      }
      this.#refused++;
      this.#lastRefusal = `${codeOf(err)}: ${(err as Error).message}`;
      this.#written.remove(id);
      this.#log.error({ code: codeOf(err), id }, `brain: the remote refused a queued memory, which is dropped: ${this.#lastRefusal}`);
    } finally {
      this.#sending = undefined;
    }
    this.#outbox.remove(id);
    return true;
  }

  async recall(query: RecallQuery, call: BrainCall): Promise<RecallResult> {
    try {
      const result = await this.#remote.recall(query, call);
      // Never more than asked, whatever the remote sends.
      return { ...result, memories: result.memories.slice(0, query.top_k) };
    } catch (err) {
      if (!isRemoteDown(err) || this.#options.keepWritten === 0) throw err;
      return { memories: searchWritten(this.#written.all(), query.query, query, query.top_k), mode: 'lexical', partial: this.#partial(err) };
    }
  }

  async list(query: ListQuery, call: BrainCall): Promise<ListResult> {
    try {
      const result = await this.#remote.list(query, call);
      return { ...result, memories: result.memories.slice(0, query.limit) };
    } catch (err) {
      if (!isRemoteDown(err) || this.#options.keepWritten === 0) throw err;
      const now = new Date().toISOString();
      const copies = query.order === 'oldest' ? [...this.#written.all()].reverse() : this.#written.all();
      const memories: Memory[] = [];
      for (const memory of copies) {
        if (memories.length === query.limit) break;
        if (matchesFilter(memory, query, now)) memories.push(memory);
      }
      return { memories, partial: this.#partial(err) };
    }
  }

  async forget(id: string, reason: string | undefined, call: BrainCall): Promise<ForgetResult> {
    // Being sent now: let the send finish, then forget it where it went.
    if (this.#sending === id) await this.#flushing;
    // Not sent yet: it never reaches the remote.
    if (this.#outbox.remove(id)) {
      this.#written.remove(id);
      return { id, forgotten: true, forgotten_at: new Date().toISOString() };
    }
    const result = await this.#remote.forget(id, reason, call);
    this.#written.remove(id);
    return result;
  }

  import(memories: readonly Memory[], call: BrainCall): Promise<ImportSummary> {
    return this.#remote.import(memories, call);
  }

  export(call: BrainCall): AsyncIterable<Memory> {
    return this.#remote.export(call);
  }

  #partial(err: unknown): string {
    const kept = this.#written.count;
    return `the remote brain is down (${codeOf(err)}): only the ${kept} ${kept === 1 ? 'memory' : 'memories'} this gateway wrote ${kept === 1 ? 'was' : 'were'} searched`;
  }
}
