import type { FetchLike } from '@modelcontextprotocol/client';
import { MessageTooLargeError } from './message-too-large.js';
import { StreamCuts } from './stream-cuts.js';

/** Told which requests' answers passed the bound (none for the GET stream, which answers no request). */
export type OnTooLarge = (error: MessageTooLargeError, requestIds: ReadonlyArray<string | number>) => void;

/** Statuses whose responses have no body, which `new Response` refuses one for. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for the SDK's Streamable HTTP client transport that reads no message of more than
 * `limit` bytes from the server: a JSON body counts whole, an SSE stream (a POST's answer or
 * the GET stream) one event at a time, so a long-lived stream of small events is never cut.
 * The body is counted as it streams, never buffered here; past the bound it errors, which
 * cancels the response (the connection closes and the server stops sending), and `onTooLarge`
 * hears which requests of the POST went unanswered so that their calls fail now rather than
 * wait for their timeout. The SDK reopens a GET stream that errors, as it does after a network
 * failure; `cuts` (one per connection) keeps that from looping on a server that sends the same
 * oversized event again (stream-cuts.ts).
 */
export function boundedFetch(limit: number, onTooLarge: OnTooLarge, cuts: StreamCuts = new StreamCuts(limit), base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const get = isStreamGet(init);
    if (get) {
      const allowed = cuts.get(init);
      if (allowed === undefined) return new Response(null, { status: 405, statusText: 'GET stream stopped by the gateway' });
      init = allowed;
    }
    const response = await base(url, init);
    if (!response.body || NULL_BODY.has(response.status)) return response;
    const events = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
    const where = events ? 'an SSE event' : 'a response body';
    const body = response.body.pipeThrough(
      countingStream(events ? new EventCounter() : new TotalCounter(), limit, () => {
        const error = new MessageTooLargeError(limit, where);
        cuts.cut(get);
        onTooLarge(error, requestIdsOf(init?.body));
        return error;
      }),
    );
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDK names the response's URL in its redirect messages.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** Counts the bytes of the current message; `add` returns the count after `chunk` (it stops counting once past `limit`). */
interface Counter {
  add(chunk: Uint8Array, limit: number): number;
}

function countingStream(counter: Counter, limit: number, tooLarge: () => Error): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, controller) {
      if (counter.add(chunk, limit) > limit) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
}

/** A JSON answer is one message (or one batch): every byte counts. */
class TotalCounter implements Counter {
  #bytes = 0;

  add(chunk: Uint8Array): number {
    this.#bytes += chunk.length;
    return this.#bytes;
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Bytes since the last SSE event boundary, an empty line. Lines end in LF, CR or CRLF (as the
 * SSE parser reads them), so a CR and the LF after it, even across chunks, end one line.
 * Terminators are found with indexOf, each kind looked up again only once passed, so a chunk
 * of nothing but line ends costs one pass.
 */
export class EventCounter implements Counter {
  #bytes = 0;
  /** Whether the current line has had any byte yet. */
  #lineEmpty = true;
  /** Whether the last byte seen was a CR: an LF right after it ends no line of its own. */
  #afterCR = false;

  add(chunk: Uint8Array, limit: number): number {
    let start = 0;
    let nextLF = chunk.indexOf(LF);
    let nextCR = chunk.indexOf(CR);
    while (start < chunk.length) {
      if (nextLF !== -1 && nextLF < start) nextLF = chunk.indexOf(LF, start);
      if (nextCR !== -1 && nextCR < start) nextCR = chunk.indexOf(CR, start);
      const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (end === -1) {
        this.#content(chunk.length - start);
        break;
      }
      if (end > start) this.#content(end - start);
      if (chunk[end] === LF && this.#afterCR && end === start) {
        this.#bytes += 1;
        this.#afterCR = false;
      } else if (this.#lineEmpty) {
        // An empty line: the event is complete and the next one starts from nothing.
        this.#bytes = 0;
        this.#afterCR = chunk[end] === CR;
      } else {
        this.#bytes += 1;
        this.#lineEmpty = true;
        this.#afterCR = chunk[end] === CR;
      }
      if (this.#bytes > limit) return this.#bytes;
      start = end + 1;
    }
    return this.#bytes;
  }

  #content(length: number): void {
    this.#bytes += length;
    this.#lineEmpty = false;
    this.#afterCR = false;
  }
}

/** A GET that opens or resumes an SSE stream (not, say, an OAuth metadata lookup). */
function isStreamGet(init: RequestInit | undefined): boolean {
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return false;
  return new Headers(init?.headers).get('accept')?.includes('text/event-stream') === true;
}

/** The ids of the requests in a POST body the SDK wrote (one message or a batch); none for anything else. */
function requestIdsOf(body: unknown): Array<string | number> {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.flatMap((m) =>
      typeof m === 'object' && m !== null && 'method' in m && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id as string | number] : [],
    );
  } catch {
    return [];
  }
}
