// Messages that change something on the backend (chat, a new session, the dashboard) while it
// is unreachable: kept in order, up to a limit, and sent on reconnect one after the other,
// each waiting for its answer before the next goes. A message keeps its id across attempts,
// so a backend that got it before the connection dropped drops the repeat (PROTOCOL.md).
import { randomUUID } from 'node:crypto';
import { isGatewayError, type Logger } from '@mcp-gateway/core';
import type { Bridge } from './bridge.js';
import type { RaiseError } from './declaration.js';
import type { Exchange, Request } from './exchange.js';

export interface Queued extends Request {
  id: string;
}

export type Submitted = { queued: true; id: string; position: number } | { queued: false; id: string; data: Record<string, unknown> };

export interface OutboxOptions {
  mode: 'queue' | 'fail';
  limit: number;
  /** Wait before trying the head of the queue again after a failure that may pass. */
  retryMs: number;
  /** A queued message the backend refused, dropped: told to listeners (ide.queue.dropped). */
  dropped(detail: { id: string; type: string; sessionId?: string; code: string; message: string }): void;
}

export class Outbox {
  readonly #items: Queued[] = [];
  readonly #bridge: Bridge;
  readonly #exchange: Exchange;
  readonly #error: RaiseError;
  readonly #log: Logger;
  readonly #options: OutboxOptions;
  #flushing = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(bridge: Bridge, exchange: Exchange, error: RaiseError, log: Logger, options: OutboxOptions) {
    this.#bridge = bridge;
    this.#exchange = exchange;
    this.#error = error;
    this.#log = log;
    this.#options = options;
  }

  get length(): number {
    return this.#items.length;
  }

  /**
   * Sends `request` now and resolves with the answer, or queues it when the backend is down
   * (or earlier messages still wait: they go first). Throws IDE_BACKEND_REFUSED while the
   * token is refused, IDE_BRIDGE_UNAVAILABLE in fail mode, IDE_QUEUE_FULL at the limit.
   */
  async submit(request: Request, signal?: AbortSignal): Promise<Submitted> {
    const id = request.id ?? randomUUID();
    if (this.#bridge.connected && this.#items.length === 0) {
      try {
        return { queued: false, id, data: await this.#exchange.request({ ...request, id }, signal) };
      } catch (err) {
        // Cut off by a disconnect: in queue mode it goes first in line, with its id, so a
        // backend that got it before the connection dropped drops the repeat.
        if (this.#options.mode !== 'queue' || this.#closed || !isGatewayError(err) || err.code !== 'IDE_BRIDGE_UNAVAILABLE') throw err;
        this.#items.unshift({ ...request, id });
        if (this.#bridge.connected) void this.flush();
        return { queued: true, id, position: 1 };
      }
    }
    if (this.#bridge.authRefused) {
      throw this.#error('IDE_BACKEND_REFUSED', 'The IDE backend refuses this gateway\'s token (HTTP 401/403): nothing was sent or queued. Set the token in the variable named by plugins.ide-bridge.config.tokenEnv.');
    }
    if (this.#options.mode === 'fail' && !this.#bridge.connected) {
      throw this.#error('IDE_BRIDGE_UNAVAILABLE', 'The IDE backend is not connected and the bridge does not queue (whenDown: fail): nothing was sent. ide_bridge_status says when it retries.');
    }
    if (this.#items.length >= this.#options.limit) {
      const why = this.#bridge.connected ? 'are still waiting to be delivered' : 'wait for the backend to come back';
      throw this.#error('IDE_QUEUE_FULL', `${this.#options.limit} messages ${why} (queueLimit): nothing was queued. Retry when ide_bridge_status shows a shorter queue.`, { limit: this.#options.limit });
    }
    this.#items.push({ ...request, id });
    if (this.#bridge.connected) void this.flush();
    return { queued: true, id, position: this.#items.length };
  }

  /** Sends what waits, in order, while the connection holds; called on every (re)connect. */
  async flush(): Promise<void> {
    if (this.#flushing || this.#closed) return;
    this.#flushing = true;
    clearTimeout(this.#retryTimer);
    try {
      while (this.#items.length > 0 && this.#bridge.connected && !this.#closed) {
        const head = this.#items[0]!;
        try {
          await this.#exchange.request(head);
          this.#items.shift();
        } catch (err) {
          if (isGatewayError(err) && (err.code === 'IDE_NOT_FOUND' || err.code === 'IDE_BACKEND_ERROR')) {
            // The backend read it and refused it: sending it again would be refused again.
            this.#log.warn({ id: head.id, type: head.type, code: err.code, message: err.message }, 'ide-bridge: the backend refused a queued message; dropped');
            this.#items.shift();
            this.#options.dropped({ id: head.id, type: head.type, ...(head.sessionId !== undefined ? { sessionId: head.sessionId } : {}), code: err.code, message: err.message });
            continue;
          }
          this.#log.warn({ id: head.id, type: head.type, err }, 'ide-bridge: a queued message could not be delivered; kept first in line');
          this.#retryLater();
          break;
        }
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Stops sending; what still waits is lost (the queue is in memory) and the log says how much. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    if (this.#items.length > 0) {
      this.#log.warn({ lost: this.#items.length, types: [...new Set(this.#items.map((item) => item.type))] }, 'ide-bridge: shutting down with queued messages never delivered; they are lost');
    }
  }

  #retryLater(): void {
    if (this.#closed) return;
    this.#retryTimer = setTimeout(() => void this.flush(), this.#options.retryMs);
    this.#retryTimer.unref();
  }
}
