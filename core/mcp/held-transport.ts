import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId, type Transport } from '@modelcontextprotocol/server';
import type { GatewayError } from '../contract/errors.js';
import { jsonRpcError } from '../contract/replies.js';

/** How long a boot that failed before the client's first request waits for it, to answer it. */
const FIRST_REQUEST_WAIT_MS = 10_000;

/**
 * A transport that holds what the client sends until a session is ready for it, then replays
 * it in order. --stdio uses it to talk to the client (answer `initialize`, ask for its roots)
 * before the gateway exists, and to hand the session over afterwards as if it had been there
 * from the first message.
 */
export class HeldTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #inner: Transport;
  #held: JSONRPCMessage[] = [];
  #released = false;
  /** Messages go here, not to the session, until `release()`. */
  #early: (message: JSONRPCMessage) => void;
  /** The id of the `initialize` already answered early, whose second answer must not be sent. */
  #answered: RequestId | undefined;

  constructor(inner: Transport, early: (message: JSONRPCMessage) => void) {
    this.#inner = inner;
    this.#early = early;
    inner.onmessage = (message) => (this.#released ? this.onmessage?.(message) : this.#early(message));
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  /** Starts reading (idempotent, so the session's own `start()` is harmless). */
  start(): Promise<void> {
    return this.#inner.start();
  }

  /** Keeps `message` for the session. */
  hold(message: JSONRPCMessage): void {
    this.#held.push(message);
  }

  /** Sends a message of the early phase straight to the client. */
  sendEarly(message: JSONRPCMessage): Promise<void> {
    return this.#inner.send(message);
  }

  /**
   * Delivers the held messages to the connected session, then everything that follows.
   * `answeredInitialize` is the id of an `initialize` answered early: it is replayed so the
   * session learns the client's name and capabilities, and its second answer is dropped.
   */
  release(answeredInitialize?: RequestId): void {
    this.#answered = answeredInitialize;
    this.#released = true;
    const held = this.#held;
    this.#held = [];
    for (const message of held) this.onmessage?.(message);
  }

  /**
   * The session will never come (the boot failed): every held request, and each one that
   * arrives after, is answered with `error`, which MCP clients show; a server that only exits
   * shows as "Connection closed". Resolves once a request was answered, when the input ends,
   * or after FIRST_REQUEST_WAIT_MS if the client has sent none.
   */
  refuse(error: GatewayError): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, FIRST_REQUEST_WAIT_MS);
      timer.unref();
      const answer = (message: JSONRPCMessage) => {
        if (!isJSONRPCRequest(message)) return;
        this.#inner.send(jsonRpcError(message.id, error)).then(resolve, resolve);
      };
      this.#early = answer;
      this.onclose = () => resolve();
      const held = this.#held;
      this.#held = [];
      held.forEach(answer);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#answered !== undefined && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id === this.#answered) {
      this.#answered = undefined;
      return Promise.resolve();
    }
    return this.#inner.send(message);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
