import { formatBytes } from '@mcp-gateway/core';

/** GET streams cut on one connection after which the gateway opens no other. */
export const MAX_GET_STREAM_CUTS = 3;

/**
 * What one HTTP connection's fetch (bounded-fetch.ts) remembers of the SSE streams it cut, so
 * that a cut cannot turn into a loop. The SDK opens a GET stream again when it errors (and
 * resumes a POST's stream that had sent an event id, through a GET), with `Last-Event-ID`, and
 * counts its retries from zero for each stream it opens: a server that keeps its events (the
 * SDK's event store) would send the same oversized event again on every one, reading
 * maxMessageBytes a round, for ever. So:
 * - once a stream of the connection was cut, no GET on it asks to resume: the server opens a
 *   fresh stream, without the events it held (a POST's answer lost to a network failure is
 *   then not replayed either; its call fails at its timeout);
 * - after MAX_GET_STREAM_CUTS GET streams were cut, for whatever reason (a server that sends a
 *   new oversized event on every stream it opens), no GET stream is opened on this connection
 *   again: the SDK is answered 405, which it reads as "this server has no GET stream" and does
 *   not retry. Calls go on; the server's own notifications and requests stop until the next
 *   connection, and `stopped` says why (the server's status shows it).
 */
export class StreamCuts {
  readonly #limit: number;
  readonly #onStop: (reason: string) => void;
  #getCuts = 0;
  #resume = true;
  #stopped: string | undefined;

  /** `onStop` is told once, when the first GET is refused. */
  constructor(limit: number, onStop: (reason: string) => void = () => {}) {
    this.#limit = limit;
    this.#onStop = onStop;
  }

  /** Why no GET stream is opened any more on this connection; undefined while they are. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /** A message on a stream passed the bound and the stream was cut; `get`: the stream answered a GET. */
  cut(get: boolean): void {
    this.#resume = false;
    if (get) this.#getCuts += 1;
  }

  /**
   * The request to send for a GET: `init` without Last-Event-ID once a stream was cut, or
   * undefined when no GET stream may be opened any more.
   */
  get(init: RequestInit | undefined): RequestInit | undefined {
    if (this.#getCuts >= MAX_GET_STREAM_CUTS) {
      if (this.#stopped === undefined) {
        this.#stopped = `the server sent ${this.#getCuts} events over maxMessageBytes (${formatBytes(this.#limit)}) on its GET stream, so the gateway stopped opening it: the server's own notifications and requests (list_changed, resource updates, sampling) do not arrive until the gateway connects to it again`;
        this.#onStop(this.#stopped);
      }
      return undefined;
    }
    if (this.#resume || init?.headers === undefined) return init;
    const headers = new Headers(init.headers);
    headers.delete('last-event-id');
    return { ...init, headers };
  }
}
