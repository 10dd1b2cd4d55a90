import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Breaker, CallContext, PluginContext } from '../../core/index.js';
import { callFailure } from './call-failure.js';
import type { ServerConfig, UpstreamConfig } from './config.js';
import type { RaiseError, UpstreamErrorCode } from './errors.js';
import { prefixOf, toolFilter } from './names.js';
import type { UpstreamServer } from './upstream-server.js';

/** What the entries of one server need to relay a request to it. */
export class ServerLink {
  readonly ctx: PluginContext<UpstreamConfig, UpstreamErrorCode>;
  readonly config: ServerConfig;
  readonly server: UpstreamServer;
  readonly prefix: string;
  readonly offers: (toolName: string) => boolean;
  readonly error: RaiseError;
  readonly #breaker: Breaker;

  constructor(ctx: PluginContext<UpstreamConfig, UpstreamErrorCode>, config: ServerConfig, server: UpstreamServer) {
    this.ctx = ctx;
    this.config = config;
    this.server = server;
    this.prefix = prefixOf(config);
    this.offers = toolFilter(config);
    this.error = (code, message, details) => ctx.error(code, message, details);
    // Its timeout is the server's: a hung server answers BREAKER_TIMEOUT and counts as a failure.
    this.#breaker = ctx.breaker(config.name, { timeoutMs: config.timeoutMs });
  }

  /**
   * Runs `send` against the connected client: UPSTREAM_UNAVAILABLE at once when the server is
   * down, BREAKER_OPEN while its breaker is open, and every other failure as a code (call-failure.ts).
   */
  async request<T>(call: Pick<CallContext, 'signal'> | CallContext, send: (client: Client, signal: AbortSignal) => Promise<T>): Promise<T> {
    const client = this.server.client();
    // A tool call (not a subscription made on no one's behalf) receives the server's sampling and elicitation requests.
    const untrack = 'sample' in call ? this.server.track(call) : () => {};
    // A server that answers, even with an error, is up: its answer passes the breaker as a
    // success and is thrown after it. Only silence (a timeout) and a lost connection count.
    const task = (signal: AbortSignal) =>
      send(client, signal).catch((err: unknown) => {
        if (isAnswer(err)) return new Answered(err);
        throw callFailure(err, this.server, this.error, call.signal);
      });
    try {
      const outcome = await this.#breaker.call(task, { signal: call.signal });
      if (outcome instanceof Answered) throw outcome.error;
      return outcome as T;
    } catch (err) {
      throw callFailure(err, this.server, this.error, call.signal);
    } finally {
      untrack();
    }
  }
}

/** An error the server itself answered with (a JSON-RPC error), carried past the breaker. */
class Answered {
  constructor(readonly error: McpError) {}
}

/** A JSON-RPC error from the server: not one the SDK made for a closed connection or a timeout. */
function isAnswer(err: unknown): err is McpError {
  return err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout;
}
