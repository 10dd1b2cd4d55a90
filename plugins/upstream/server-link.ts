import { ProtocolError, SdkHttpError, type Client } from '@modelcontextprotocol/client';
import type { Breaker, CallContext } from '@mcp-gateway/core';
import { callFailure } from './call-failure.js';
import type { ServerConfig } from './config.js';
import type { UpstreamContext } from './declaration.js';
import type { RaiseError } from './declaration.js';
import { prefixOf, toolFilter } from './names.js';
import type { UpstreamServer } from './upstream-server.js';

/**
 * Core's limit on a call (or read, or prompt) is this much longer than the server's, and the
 * SDK's twice that: the breaker's timeout, at the server's own limit, answers first.
 */
const GRACE_MS = 2000;

/** Sends one request to the server: `options` carry its signal and the SDK's time limit. */
export type Send<T> = (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>;

/** What the entries of one server need to relay a request to it. */
export class ServerLink {
  readonly ctx: UpstreamContext;
  readonly config: ServerConfig;
  readonly server: UpstreamServer;
  readonly prefix: string;
  readonly offers: (toolName: string) => boolean;
  readonly error: RaiseError;
  /** The `timeoutMs` of this server's entries in the catalogs. */
  readonly limitMs: number;
  readonly #breaker: Breaker;

  constructor(ctx: UpstreamContext, config: ServerConfig, server: UpstreamServer) {
    this.ctx = ctx;
    this.config = config;
    this.server = server;
    this.prefix = prefixOf(config);
    this.offers = toolFilter(config);
    this.error = (code, message, details) => ctx.error(code, message, details);
    this.limitMs = config.timeoutMs + GRACE_MS;
    // Its timeout is the server's: a hung server answers BREAKER_TIMEOUT and counts as a failure.
    this.#breaker = ctx.breaker(config.name, { timeoutMs: config.timeoutMs });
  }

  /**
   * Runs `send` against the connected client: UPSTREAM_UNAVAILABLE at once when the server is
   * down, BREAKER_OPEN while its breaker is open, and every other failure as a code (call-failure.ts).
   * An HTTP server that restarted since the last request refuses our session without running
   * anything: the session is renewed and the request sent once more.
   */
  async request<T>(call: Pick<CallContext, 'signal'> | CallContext, send: Send<T>): Promise<T> {
    // A tool call (not a subscription made on no one's behalf) receives the server's sampling and elicitation requests.
    const untrack = 'sample' in call ? this.server.track(call) : () => {};
    try {
      let client = this.server.client();
      let outcome = await this.#attempt(client, call.signal, send);
      if (outcome === SESSION_GONE) {
        await this.server.renewSession(client);
        client = this.server.client();
        outcome = await this.#attempt(client, call.signal, send);
        if (outcome === SESSION_GONE) throw this.error('UPSTREAM_UNAVAILABLE', `The upstream server "${this.config.name}" refused a new session too; retry later.`);
      }
      if (outcome instanceof Answered) throw outcome.error;
      return outcome as T;
    } catch (err) {
      throw callFailure(err, this.server, this.error, call.signal);
    } finally {
      untrack();
    }
  }

  /**
   * One request through the breaker. A server that answers, even with an error, is up: its
   * answer passes the breaker as a success and is thrown after it; so does a refused session.
   * Only silence (a timeout) and a lost connection count against it.
   */
  #attempt<T>(client: Client, callSignal: AbortSignal, send: Send<T>): Promise<T | Answered | typeof SESSION_GONE> {
    const timeout = this.config.timeoutMs + 2 * GRACE_MS;
    const task = (signal: AbortSignal) =>
      send(client, { signal, timeout }).catch((err: unknown) => {
        if (isAnswer(err)) return new Answered(err);
        // Only a 2025 connection has a session to lose; a 2026 server's 404 is an answer like any other.
        if (!this.server.modern && isSessionGone(err)) return SESSION_GONE;
        throw callFailure(err, this.server, this.error, callSignal);
      });
    return this.#breaker.call(task, { signal: callSignal });
  }
}

/** An HTTP server's 404 to our session id: it restarted and forgot the session; nothing ran. */
const SESSION_GONE = Symbol('session gone');

function isSessionGone(err: unknown): boolean {
  return err instanceof SdkHttpError && err.status === 404;
}

/** An error the server itself answered with (a JSON-RPC error), carried past the breaker. */
class Answered {
  constructor(readonly error: ProtocolError) {}
}

/** A JSON-RPC error from the server (the SDK's own failures, a closed connection or a timeout, are SdkErrors). */
function isAnswer(err: unknown): err is ProtocolError {
  return err instanceof ProtocolError;
}
