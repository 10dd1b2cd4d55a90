// The one WebSocket to the IDE backend: connects, keeps it alive, reconnects with backoff.
// It moves text frames and says when the connection opens and closes; what the frames mean
// is the business of the modules that listen to it.
import WebSocket from 'ws';
import type { Logger } from '@mcp-gateway/core';
import { reconnectDelayMs, refusedDelayMs } from './backoff.js';

export interface BridgeOptions {
  url: string;
  /** The URL as logged: no credentials, query values redacted. */
  shownUrl: string;
  token: string | undefined;
  handshakeTimeoutMs: number;
  keepAliveMs: number;
  maxPayloadBytes: number;
  baseMs: number;
  maxMs: number;
  log: Logger;
}

export interface BridgeListener {
  open(): void;
  close(): void;
  frame(text: string): void;
  /** A frame refused before reading (binary): for the count of dropped frames. */
  refused(reason: string): void;
}

export type BridgeState = 'connecting' | 'open' | 'waiting' | 'closed';

/** How many planned waits ide_bridge_status shows. */
const RECENT_DELAYS = 10;

export class Bridge {
  readonly #options: BridgeOptions;
  readonly #listener: BridgeListener;
  #socket: WebSocket | undefined;
  #state: BridgeState = 'connecting';
  #since = new Date().toISOString();
  #retries = 0;
  #attempts = 0;
  #lastError: string | null = null;
  #authRefused = false;
  #recentDelays: number[] = [];
  #nextAttemptAt: number | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #stableTimer: NodeJS.Timeout | undefined;

  constructor(options: BridgeOptions, listener: BridgeListener) {
    this.#options = options;
    this.#listener = listener;
  }

  get connected(): boolean {
    return this.#state === 'open';
  }

  /** The last attempt was answered 401 or 403: the token is wrong, and waiting will not fix it. */
  get authRefused(): boolean {
    return this.#authRefused;
  }

  status() {
    return {
      state: this.#state,
      connected: this.connected,
      since: this.#since,
      retries: this.#retries,
      attempts: this.#attempts,
      lastError: this.#lastError,
      authRefused: this.#authRefused,
      nextAttemptInMs: this.#nextAttemptAt === undefined ? null : Math.max(0, this.#nextAttemptAt - Date.now()),
      recentDelaysMs: [...this.#recentDelays],
    };
  }

  start(): void {
    this.#connect();
  }

  /** Sends one text frame; false when there is no open connection (nothing is sent). */
  send(text: string): boolean {
    const socket = this.#socket;
    if (!this.connected || !socket) return false;
    socket.send(text, (err) => {
      if (err) this.#options.log.warn({ err }, 'ide-bridge: a frame could not be written; the connection is going down');
    });
    return true;
  }

  /** Closes the connection and stops reconnecting, for good. */
  async close(): Promise<void> {
    const socket = this.#socket;
    this.#state = 'closed';
    clearTimeout(this.#retryTimer);
    clearInterval(this.#pingTimer);
    clearTimeout(this.#stableTimer);
    this.#nextAttemptAt = undefined;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    if (socket.readyState === WebSocket.OPEN) socket.close(1001, 'gateway shutting down');
    else socket.terminate();
    // A backend that never answers the closing handshake does not hold the shutdown.
    const grace = setTimeout(() => socket.terminate(), 1000);
    await closed;
    clearTimeout(grace);
  }

  #connect(): void {
    if (this.#state === 'closed') return;
    const { url, token, handshakeTimeoutMs, maxPayloadBytes } = this.#options;
    this.#state = 'connecting';
    this.#nextAttemptAt = undefined;
    this.#attempts += 1;
    let refusedStatus: number | undefined;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, {
        handshakeTimeout: handshakeTimeoutMs,
        maxPayload: maxPayloadBytes,
        perMessageDeflate: false,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    } catch (err) {
      // Runs from a timer: a throw here would take the gateway down. Setup checked the URL, so this is unexpected.
      this.#lastError = (err as Error).message;
      this.#authRefused = false;
      this.#scheduleRetry();
      return;
    }
    this.#socket = socket;
    socket.on('unexpected-response', (_request, response) => {
      refusedStatus = response.statusCode;
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => this.#opened(socket));
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.#listener.refused('a binary frame (the protocol is JSON text)');
      else this.#listener.frame(data.toString());
    });
    socket.on('error', (err) => {
      if (refusedStatus === undefined) this.#lastError = err.message;
    });
    socket.on('close', (code) => this.#closed(socket, code, refusedStatus));
  }

  #opened(socket: WebSocket): void {
    if (this.#state === 'closed') return socket.terminate();
    this.#state = 'open';
    this.#since = new Date().toISOString();
    this.#authRefused = false;
    this.#lastError = null;
    // The backoff starts over only once the connection has held for a while: a backend that
    // accepts and closes at once (or sends a frame over maxPayloadBytes on every connect) would
    // otherwise be reconnected at the base rate forever.
    clearTimeout(this.#stableTimer);
    this.#stableTimer = setTimeout(() => (this.#retries = 0), this.#options.maxMs);
    this.#stableTimer.unref();
    this.#options.log.info({ url: this.#options.shownUrl }, 'ide-bridge: connected');
    let alive = true;
    socket.on('pong', () => (alive = true));
    this.#pingTimer = setInterval(() => {
      if (!alive) {
        this.#lastError = `no pong within ${this.#options.keepAliveMs} ms: the backend is taken for dead`;
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, this.#options.keepAliveMs);
    this.#pingTimer.unref();
    this.#listener.open();
  }

  #closed(socket: WebSocket, code: number, refusedStatus: number | undefined): void {
    if (socket !== this.#socket) return;
    clearInterval(this.#pingTimer);
    clearTimeout(this.#stableTimer);
    const wasOpen = this.#state === 'open';
    if (refusedStatus !== undefined) {
      this.#authRefused = refusedStatus === 401 || refusedStatus === 403;
      this.#lastError = `the backend answered the upgrade with HTTP ${refusedStatus}${this.#authRefused ? ' (token refused)' : ''}`;
    } else {
      // Failed another way (refused connection, timeout): the token is no longer known to be refused.
      this.#authRefused = false;
      if (wasOpen && this.#lastError === null) this.#lastError = `the connection closed (code ${code})`;
    }
    if (wasOpen) {
      this.#since = new Date().toISOString();
      this.#options.log.warn({ code, lastError: this.#lastError }, 'ide-bridge: disconnected');
      this.#listener.close();
    }
    if (this.#state === 'closed') return;
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    const { baseMs, maxMs } = this.#options;
    this.#retries += 1;
    // A refused token is not a passing fault: asking again soon would only be refused again.
    const delay = this.#authRefused ? refusedDelayMs(maxMs) : reconnectDelayMs(this.#retries, baseMs, maxMs);
    this.#recentDelays = [...this.#recentDelays, delay].slice(-RECENT_DELAYS);
    this.#state = 'waiting';
    this.#nextAttemptAt = Date.now() + delay;
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
    this.#retryTimer.unref();
  }
}
