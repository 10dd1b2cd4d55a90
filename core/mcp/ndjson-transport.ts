import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { socketLimitDefaults } from '../config/config-schema.js';
import { GatewayError } from '../contract/errors.js';
import { jsonRpcError, jsonTextOf } from '../contract/replies.js';
import { ForbiddenKeyError, parseJson } from '../lib/json.js';
import { isToolCallMessage } from './tool-call-message.js';

export interface NdjsonTransportOptions {
  /** Largest message accepted, in bytes; a longer line is discarded with an error reply. */
  maxMessageBytes: number;
  /**
   * Largest message sent, in bytes (40 MiB by default): a response over it is replaced by a
   * REPLY_TOO_LARGE error for its id; a request or notification over it is not sent (its send
   * rejects). Also the most that may wait unread: a peer that leaves more than this of earlier
   * messages unread when another is sent is disconnected.
   */
  maxReplyBytes?: number;
  /** Called once when the transport closes: by close(), the peer gone, or ended and answered (below). */
  onEnd?: () => void;
  /**
   * Given for stdio, where the input ending (EOF on stdin) is the client saying it is done
   * while stdout stays open: called once then, and the transport stays open for the answers
   * of the requests it already has, closing once the last one is sent (or by close()). Without
   * it (a socket, where EOF cannot be told from the peer going away), the input ending closes
   * the transport at once and the calls in flight are cancelled.
   */
  onInputEnd?: () => void;
}

/**
 * MCP over newline-delimited JSON-RPC on any pair of byte streams: stdio, a TCP connection
 * or a unix socket. Written for the gateway rather than taken from the SDK because a
 * server on a socket must answer a bad line (-32700 / -32600) instead of dropping it,
 * survive a line over the size cap, notice the peer going away, and never hang a `send`
 * to a peer that is gone.
 */
export class NdjsonTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #options: NdjsonTransportOptions;
  readonly #maxReplyBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** True while skipping the rest of a line that went over the cap. */
  #discarding = false;
  #closed = false;
  #started = false;
  #inputEnded = false;
  /**
   * With onInputEnd: the ids of the peer's requests not answered yet (a cancelled one counts
   * as answered), which keep the transport open once the input has ended.
   */
  readonly #unanswered: Set<string | number> | undefined;

  constructor(input: Readable, output: Writable, options: NdjsonTransportOptions) {
    this.#input = input;
    this.#output = output;
    this.#options = options;
    this.#maxReplyBytes = options.maxReplyBytes ?? socketLimitDefaults.maxReplyBytes;
    this.#unanswered = options.onInputEnd ? new Set() : undefined;
  }

  /** Idempotent: a transport may be started to read a first message before a session takes it. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onInputEnd);
    this.#input.on('close', this.#onInputEnd);
    // Our own error listeners stay for the life of the streams: an EPIPE or ECONNRESET
    // without a listener would crash the whole gateway.
    this.#input.on('error', this.#onStreamError);
    if ((this.#output as unknown) !== this.#input) {
      this.#output.on('error', this.#onStreamError);
      this.#output.on('close', this.#onPeerGone);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    let text = jsonTextOf(message);
    // A response (result or error) carries the id of the peer's request; requests and notifications have a method.
    const answers = 'method' in message || !('id' in message) ? undefined : (message.id as string | number | undefined);
    if (this.#overReplyCap(text)) {
      const error = new GatewayError(
        'REPLY_TOO_LARGE',
        `Reply too large: ${formatBytes(Buffer.byteLength(text))}, over this transport's ${formatBytes(this.#maxReplyBytes)} cap (maxReplyBytes); it was not sent. Ask for less (a line range, a page, a smaller file).`,
      );
      // The SDK would only log a failed send of a response, and the caller would wait for ever:
      // it gets the error in its place. Anything else fails its sender, who can report it.
      if (answers === undefined) return Promise.reject(error);
      text = JSON.stringify(jsonRpcError(answers, error));
    }
    const sent = this.#writeLine(text);
    if (this.#unanswered && answers !== undefined) this.#answered(answers);
    return sent;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#chunks = [];
    this.#options.onEnd?.();
    this.onclose?.();
  }

  #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.#closed) {
      const newline = data.indexOf(0x0a);
      const part = newline === -1 ? data : data.subarray(0, newline);
      if (!this.#discarding) {
        this.#chunks.push(part);
        this.#buffered += part.length;
        if (this.#buffered > this.#options.maxMessageBytes) this.#startDiscarding();
      }
      if (newline === -1) return;
      data = data.subarray(newline + 1);
      if (this.#discarding) {
        this.#discarding = false;
        continue;
      }
      const line = Buffer.concat(this.#chunks, this.#buffered).toString('utf8');
      this.#chunks = [];
      this.#buffered = 0;
      this.#handleLine(line);
    }
  };

  #startDiscarding(): void {
    this.#discarding = true;
    this.#chunks = [];
    this.#buffered = 0;
    const mib = (this.#options.maxMessageBytes / 1024 / 1024).toFixed(1);
    this.#replyError(null, 'MESSAGE_TOO_LARGE', `Message too large: over ${mib} MiB; it was discarded. Send smaller messages.`);
  }

  #handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = parseJson(line);
    } catch (err) {
      if (err instanceof ForbiddenKeyError) {
        this.#replyError(null, 'INVALID_REQUEST', err.message);
      } else {
        this.#replyError(null, 'PARSE_ERROR', `Parse error: ${(err as Error).message}`);
      }
      return;
    }
    // tools/call, the hot path, is checked by hand; mcp-tool-calls.ts checks its params.
    const message = isToolCallMessage(value) ? (value as JSONRPCMessage) : parseMessage(value);
    if (message === undefined) {
      this.#replyError(requestIdOf(value), 'INVALID_REQUEST', 'Invalid Request: expected a JSON-RPC 2.0 request, notification or response object.');
      return;
    }
    if (this.#unanswered && 'method' in message) {
      if ('id' in message) this.#unanswered.add(message.id as string | number);
      else if (message.method === 'notifications/cancelled') {
        const cancelled = (message.params as { requestId?: string | number } | undefined)?.requestId;
        if (cancelled !== undefined) this.#answered(cancelled);
      }
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  #replyError(id: string | number | null, code: 'MESSAGE_TOO_LARGE' | 'INVALID_REQUEST' | 'PARSE_ERROR', message: string): void {
    this.#writeLine(JSON.stringify(jsonRpcError(id, new GatewayError(code, message)))).catch(() => {});
  }

  /** Whether `text` is over the reply cap, measuring its UTF-8 bytes only when the length cannot tell. */
  #overReplyCap(text: string): boolean {
    // A UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
    if (text.length * 3 <= this.#maxReplyBytes) return false;
    return text.length > this.#maxReplyBytes || Buffer.byteLength(text) > this.#maxReplyBytes;
  }

  #writeLine(text: string): Promise<void> {
    if (this.#closed || this.#output.destroyed || this.#output.writableEnded) {
      return Promise.reject(new Error('Transport is closed'));
    }
    // A peer that stops reading would make us buffer its replies without bound. Only what
    // earlier writes left waiting counts: one large reply is not by itself a peer that is not
    // reading (counting it dropped every reply over 4 × maxMessageBytes, without an answer).
    if (this.#output.writableLength > this.#maxReplyBytes) {
      this.#output.destroy(new Error('Peer is not reading its replies; connection dropped.'));
      return Promise.reject(new Error('Transport is closed'));
    }
    return new Promise<void>((resolve, reject) => {
      // The callback runs once the data is handed to the OS or the stream fails, so a send
      // to a vanished peer settles instead of hanging.
      this.#output.write(`${text}\n`, (err) => (err ? reject(err) : resolve()));
    });
  }

  #onPeerGone = (): void => {
    void this.close();
  };

  #onInputEnd = (): void => {
    if (!this.#unanswered) return this.#onPeerGone();
    if (this.#inputEnded || this.#closed) return;
    this.#inputEnded = true;
    this.#input.off('data', this.#onData);
    this.#options.onInputEnd?.();
    if (this.#unanswered.size === 0) void this.close();
  };

  #answered(id: string | number): void {
    if (!this.#unanswered?.delete(id)) return;
    // Closing ends the output after what was written (end() queues behind write()).
    if (this.#inputEnded && this.#unanswered.size === 0) void this.close();
  }

  #onStreamError = (err: Error): void => {
    // A peer that resets the connection is an ordinary end of a session, not a failure.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPIPE' && code !== 'ECONNRESET') this.onerror?.(err);
    void this.close();
  };
}

/** A size as a person reads it in an error: `10 MiB`, `1.5 MiB`, `64 KiB`. */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024;
  return bytes >= MiB ? `${+(bytes / MiB).toFixed(1)} MiB` : `${+(bytes / 1024).toFixed(1)} KiB`;
}

function parseMessage(value: unknown): JSONRPCMessage | undefined {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The id of something request-shaped, so an Invalid Request reply can name it. */
function requestIdOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
