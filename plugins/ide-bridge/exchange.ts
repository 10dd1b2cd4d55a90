// Requests to the backend and their answers, matched by id. Every request goes through the
// breaker, whose timeout is the wait for the answer: a backend that accepts frames and never
// answers fails every request after requestTimeoutMs, and enough of those open the breaker.
import { randomUUID } from 'node:crypto';
import { isGatewayError, type Breaker } from '@mcp-gateway/core';
import type { Bridge } from './bridge.js';
import type { RaiseError } from './declaration.js';
import { requestEnvelope, type Envelope, type ReplyType, type RequestType } from './protocol.js';

export interface Request {
  type: RequestType;
  data: Record<string, unknown>;
  sessionId?: string;
  /** Given by the caller for a message that may be sent more than once (the queue): the backend drops repeats by id. */
  id?: string;
}

/** An answered request, for whoever keeps what the backend says. */
export type AnswerListener = (request: Request, data: Record<string, unknown>) => void;

interface Pending {
  request: Request;
  resolve(data: Record<string, unknown>): void;
  reject(err: unknown): void;
}

export class Exchange {
  readonly #pending = new Map<string, Pending>();
  readonly #bridge: Bridge;
  readonly #breaker: Breaker;
  readonly #error: RaiseError;
  readonly #answered: AnswerListener;

  constructor(bridge: Bridge, breaker: Breaker, error: RaiseError, answered: AnswerListener) {
    this.#bridge = bridge;
    this.#breaker = breaker;
    this.#error = error;
    this.#answered = answered;
  }

  /** Sends `request` and resolves with the data of the backend's answer. */
  request(request: Request, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const id = request.id ?? randomUUID();
    return this.#breaker.call(
      (aborted) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          if (aborted.aborted) return reject(aborted.reason);
          const envelope = requestEnvelope(request.type, id, request.data, request.sessionId);
          const forget = () => {
            this.#pending.delete(id);
            reject(aborted.reason);
          };
          this.#pending.set(id, {
            request,
            resolve: (data) => (aborted.removeEventListener('abort', forget), resolve(data)),
            reject: (err) => (aborted.removeEventListener('abort', forget), reject(err)),
          });
          aborted.addEventListener('abort', forget, { once: true });
          if (!this.#bridge.send(JSON.stringify(envelope))) {
            this.#pending.get(id)?.reject(this.#unavailable());
            this.#pending.delete(id);
          }
        }),
      signal ? { signal } : {},
    );
  }

  /** An answer from the backend; one whose id nothing waits for (too late, or never asked) is ignored. */
  settle(reply: Envelope<ReplyType> & { id: string }): boolean {
    const pending = this.#pending.get(reply.id);
    if (!pending) return false;
    this.#pending.delete(reply.id);
    const data = reply.data ?? {};
    if (reply.type === 'response') {
      try {
        this.#answered(pending.request, data);
      } finally {
        // The caller has its answer even if keeping it failed.
        pending.resolve(data);
      }
      return true;
    }
    const code = typeof data.code === 'string' ? data.code.slice(0, 64) : 'error';
    const message = typeof data.message === 'string' ? data.message.slice(0, 1000) : 'no message';
    pending.reject(
      code === 'not_found'
        ? this.#error('IDE_NOT_FOUND', `The IDE backend knows no such thing: ${message}. List sessions or builds for valid ids.`, { code, message })
        : this.#error('IDE_BACKEND_ERROR', `The IDE backend refused ${pending.request.type}: ${message} (${code}).`, { code, message }),
    );
    return true;
  }

  /** The connection went down: nothing in flight will be answered on it. */
  abandonAll(): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(this.#unavailable());
    }
  }

  #unavailable() {
    return this.#error('IDE_BRIDGE_UNAVAILABLE', 'The connection to the IDE backend is down; ide_bridge_status says why and when it retries.');
  }
}

/**
 * For the breaker: only a request the backend left unanswered (BREAKER_TIMEOUT), or an
 * unexpected throw, says the backend is unwell. IDE_BACKEND_ERROR and IDE_NOT_FOUND are the
 * backend answering; IDE_BRIDGE_UNAVAILABLE is a dropped connection, which the bridge handles
 * by reconnecting (counting it would open the breaker for every request in flight at once).
 */
export function isNotBackendFailure(err: unknown): boolean {
  return isGatewayError(err) && err.code !== 'BREAKER_TIMEOUT';
}

/** BREAKER_TIMEOUT in this plugin's words; any other error as it is. */
export function inIdeTerms(err: unknown, error: RaiseError, timeoutMs: number): unknown {
  if (isGatewayError(err) && err.code === 'BREAKER_TIMEOUT') {
    return error('IDE_BACKEND_TIMEOUT', `The IDE backend did not answer within ${timeoutMs} ms. It may still act on the message; see ide_bridge_status.`, { timeoutMs });
  }
  return err;
}
