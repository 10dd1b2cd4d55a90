// Every frame the backend sends: checked, then an answer to a request or a push for the cache
// and the gateway's listeners. A frame that fails a check is logged and dropped; the
// connection stays up (one bad frame says nothing about the next). Pushes beyond the rates
// (push-limit.ts) are dropped too, and counted apart.
import type { Logger } from '@mcp-gateway/core';
import type { IdeCache } from './cache.js';
import type { Exchange } from './exchange.js';
import { feedPush, ShapeRefused } from './feed.js';
import { FrameRefused, parseInbound, type Envelope, type PushType } from './protocol.js';
import type { Publisher } from './publish.js';
import type { PushLimiter } from './push-limit.js';

/** The pushes about one chat session, which feed only that session's entries of the cache. */
const SESSION_PUSHES: ReadonlySet<PushType> = new Set(['chat.message', 'plan.updated']);

export class Inbound {
  #dropped = 0;
  readonly #cache: IdeCache;
  readonly #exchange: Exchange;
  readonly #publisher: Publisher;
  readonly #limiter: PushLimiter;
  readonly #log: Logger;

  constructor(cache: IdeCache, exchange: Exchange, publisher: Publisher, limiter: PushLimiter, log: Logger) {
    this.#cache = cache;
    this.#exchange = exchange;
    this.#publisher = publisher;
    this.#limiter = limiter;
    this.#log = log;
  }

  /** Frames dropped since the gateway started. */
  get dropped(): number {
    return this.#dropped;
  }

  /** A frame dropped before it was read. */
  refused(reason: string): void {
    this.#dropped += 1;
    this.#log.warn({ reason, dropped: this.#dropped }, 'ide-bridge: dropped a frame from the backend');
  }

  /**
   * A dropped push may be missing from what the cache holds: the entries it would have fed are
   * read from the backend again, and only those. A chat or plan push feeds its session's chat or
   * plan alone (one without a session feeds nothing); any other push, the shared entries.
   */
  #distrust(envelope: Envelope<PushType>): void {
    if (!SESSION_PUSHES.has(envelope.type)) this.#cache.distrustShared();
    else if (envelope.sessionId !== undefined) this.#cache.distrustSession(envelope.sessionId);
  }

  frame(text: string): void {
    try {
      const inbound = parseInbound(text);
      if (inbound.kind === 'reply') {
        if (!this.#exchange.settle(inbound.envelope)) this.#log.debug({ id: inbound.envelope.id }, 'ide-bridge: an answer nothing waits for (late, or never asked)');
        return;
      }
      const { envelope } = inbound;
      if (!this.#limiter.admit(envelope.sessionId)) {
        this.#distrust(envelope);
        return;
      }
      const data = feedPush(this.#cache, envelope);
      this.#publisher.push(envelope.type, { type: envelope.type, ...(envelope.sessionId ? { sessionId: envelope.sessionId } : {}), ...(envelope.channel ? { channel: envelope.channel } : {}), data, timestamp: envelope.timestamp });
    } catch (err) {
      this.#dropped += 1;
      // Thrown from a socket's event handler, anything else would take the gateway down.
      if (err instanceof FrameRefused || err instanceof ShapeRefused) this.#log.warn({ reason: err.message, bytes: Buffer.byteLength(text), dropped: this.#dropped }, 'ide-bridge: dropped a frame from the backend');
      else this.#log.error({ err, dropped: this.#dropped }, 'ide-bridge: a frame from the backend could not be handled; dropped');
    }
  }
}
