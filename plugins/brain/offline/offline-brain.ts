// A remote brain that keeps working, within limits, while the remote is down: remembers wait in
// a local queue (with queueWhenDown) and go out in order, once each, when it is back; recall
// and list answer from the memories this gateway wrote, marked partial.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../../core/index.js';
import type { Brain, BrainCall } from '../brain.js';
import type { RaiseError } from '../errors.js';
import type { ForgetResult, ImportSummary, ListQuery, ListResult, Memory, RecallQuery, RecallResult, RememberInput, RememberResult } from '../model.js';
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
  readonly lastRefusal?: string;
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

export class OfflineBrain implements Brain {
  readonly #remote: Brain;
  readonly #outbox: Outbox;
  readonly #written: WrittenMemories;
  readonly #options: OfflineOptions;
  readonly #error: RaiseError;
  readonly #log: Logger;
  #flushing: Promise<void> | undefined;
  #sent = 0;
  #refused = 0;
  #lastRefusal: string | undefined;

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
    return { length: this.#outbox.length, sent: this.#sent, refused: this.#refused, ...(this.#lastRefusal ? { lastRefusal: this.#lastRefusal } : {}) };
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
        const result = await this.#remote.remember(withId, call);
        this.#written.put(result.memory, false);
        return result;
      } catch (err) {
        if (!this.#options.queueWhenDown || !isRemoteDown(err)) throw err;
        // Expected while the remote is down: one line, no stack.
        this.#log.info({ code: (err as { code?: unknown }).code, id: withId.id }, 'brain: the remote is down; the memory waits in the queue');
      }
    }
    if (!this.#options.queueWhenDown) {
      throw this.#error('BRAIN_REMOTE_FAILED', 'The remote brain is down and earlier memories still wait to be sent: try again later.', { queued: this.#outbox.length });
    }
    if (this.#outbox.length >= this.#options.queueLimit) {
      throw this.#error('BRAIN_QUEUE_FULL', `The remote brain is down and ${this.#options.queueLimit} memories already wait in the queue (remote.queueLimit): try again when it is back.`, { limit: this.#options.queueLimit });
    }
    const queuedAt = Date.now();
    this.#outbox.push(call.agent, withId, queuedAt);
    const memory = provisional(withId, call.agent, queuedAt);
    this.#written.put(memory, true);
    return { memory, duplicate: false, queued: true };
  }

  /** The same id while it waits: the same memory again is a duplicate, another is BRAIN_ID_CONFLICT. */
  #queuedAgain(waiting: Queued, input: RememberInput & { id: string }): RememberResult {
    if (waiting.input.content !== input.content || waiting.input.type !== input.type) {
      throw this.#error('BRAIN_ID_CONFLICT', `A memory with the id ${input.id} waits in the queue with other content: leave id out, or choose a fresh UUID.`, { id: input.id });
    }
    return { memory: provisional(waiting.input, waiting.agent, waiting.queuedAt), duplicate: true, queued: true };
  }

  /**
   * Sends the queue, oldest first, until it is empty or the remote is down again. One run at
   * a time. A remember the remote refuses (not down: it answered no) is dropped and counted,
   * so that one bad entry cannot hold the rest back forever.
   */
  flush(): Promise<void> {
    this.#flushing ??= (async () => {
      try {
        for (let next = this.#outbox.head(); next; next = this.#outbox.head()) {
          try {
            const result = await this.#remote.remember(next.input, { agent: next.agent });
            this.#written.put(result.memory, false);
            this.#sent++;
          } catch (err) {
            if (isRemoteDown(err)) return;
            this.#refused++;
            this.#lastRefusal = `${String((err as { code?: unknown }).code ?? 'error')}: ${(err as Error).message}`;
            this.#written.remove(next.input.id);
            this.#log.error({ err, id: next.input.id }, 'brain: the remote refused a queued memory; it is dropped');
          }
          this.#outbox.remove(next.input.id);
        }
      } finally {
        this.#flushing = undefined;
      }
    })();
    return this.#flushing;
  }

  async recall(query: RecallQuery, call: BrainCall): Promise<RecallResult> {
    try {
      return await this.#remote.recall(query, call);
    } catch (err) {
      if (!isRemoteDown(err) || this.#keepsNothing()) throw err;
      const written = this.#written.all();
      return { memories: searchWritten(written, query.query, query, query.top_k), mode: 'lexical', partial: this.#partial(err, written.length) };
    }
  }

  async list(query: ListQuery, call: BrainCall): Promise<ListResult> {
    try {
      return await this.#remote.list(query, call);
    } catch (err) {
      if (!isRemoteDown(err) || this.#keepsNothing()) throw err;
      const written = this.#written.all();
      const now = new Date().toISOString();
      return { memories: written.filter((m) => matchesFilter(m, query, now)).slice(0, query.limit), partial: this.#partial(err, written.length) };
    }
  }

  async forget(id: string, reason: string | undefined, call: BrainCall): Promise<ForgetResult> {
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

  #keepsNothing(): boolean {
    return this.#options.keepWritten === 0;
  }

  #partial(err: unknown, kept: number): string {
    const code = String((err as { code?: unknown }).code ?? 'error');
    return `the remote brain is down (${code}): only the ${kept} ${kept === 1 ? 'memory' : 'memories'} this gateway wrote ${kept === 1 ? 'was' : 'were'} searched`;
  }
}

/**
 * A queued memory as far as this gateway knows it: the id is final; the agent and times are
 * the remote's once it is stored (the remote's copy replaces this one when sent).
 */
function provisional(input: RememberInput & { id: string }, agent: string, queuedAt = Date.now()): Memory {
  const now = queuedAt;
  const at = new Date(now).toISOString();
  return {
    id: input.id,
    agent_id: agent,
    type: input.type,
    content: input.content,
    tags: [...input.tags],
    org: input.org ?? null,
    project: input.project ?? null,
    confidence: input.confidence,
    supersedes_id: input.supersedes ?? null,
    superseded_by: null,
    expires_at: input.expires_in === undefined ? null : new Date(now + input.expires_in * 1000).toISOString(),
    created_at: at,
    updated_at: at,
    forgotten_at: null,
    forget_reason: null,
  };
}
