import { Client, type ServerCapabilities, type Transport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import type { CallContext, Logger } from '@mcp-gateway/core';
import type { ServerConfig, UpstreamConfig } from './config.js';
import type { RaiseError } from './declaration.js';
import { StderrLog } from './stderr-log.js';
import { describeConnectFailure, describeExit } from './connection-end.js';
import { answers, isModern } from './eras.js';
import { ListenStream } from './listen-stream.js';
import type { MessageTooLargeError } from './message-too-large.js';
import { pingEvery, RestartTimer } from './reconnect-timers.js';
import { relayNotifications, type ServerListener } from './server-notifications.js';
import { answerServerRequests } from './server-requests.js';
import { httpTransport, stdioTransport } from './server-transport.js';
import { StdioServerTransport } from './stdio-transport.js';
import { StreamCuts } from './stream-cuts.js';

export type ServerState = 'connecting' | 'connected' | 'down' | 'stopped';

/** `auto`: server/discover first, initialize when the server does not know it; else the one revision. */
function negotiation(protocol: ServerConfig['protocol']): VersionNegotiationMode {
  if (protocol === 'auto') return 'auto';
  return protocol === '2025-11-25' ? 'legacy' : { pin: protocol };
}

export interface ServerOptions {
  readonly config: ServerConfig;
  readonly plugin: Pick<UpstreamConfig, 'connectTimeoutMs' | 'restartInitialDelayMs' | 'restartMaxDelayMs' | 'stderrLines'>;
  readonly workspaceRoot: string;
  /** The folders answered to roots/list (absolute, inside the workspace); absent: no roots capability. */
  readonly roots?: readonly string[];
  readonly version: string;
  readonly log: Logger;
  readonly error: RaiseError;
}

/**
 * One upstream MCP server: its connection through the official SDK client, and the
 * supervision that keeps it up. A stdio server is spawned in a process group of its own and
 * restarted when it exits; an HTTP server is reconnected when a request finds it gone or a
 * ping goes unanswered. Both wait longer after each failure (doubling up to a limit, with
 * jitter) and start over from the initial wait once a connection has lasted.
 */
export class UpstreamServer {
  readonly name: string;
  readonly kind: 'stdio' | 'http';
  readonly stderr: StderrLog;
  readonly #options: ServerOptions;
  readonly #listeners: ServerListener[] = [];
  #state: ServerState = 'connecting';
  /** Set once by close(): nothing connects, reconnects or changes state after it. */
  #closed = false;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #since = Date.now();
  #restarts = 0;
  #lastError: string | undefined;
  /** Set when the last connection ended because the gateway stopped a server that sent too much. */
  #tooLarge: MessageTooLargeError | undefined;
  readonly #restart: RestartTimer;
  #stopPing: (() => void) | undefined;
  /** The HTTP connection's memory of the SSE streams it cut (stream-cuts.ts). */
  #streamCuts: StreamCuts | undefined;
  /** Calls to this server in flight: where its sampling and elicitation requests are sent. */
  readonly #calls = new Set<CallContext>();
  /** A session renewal under way (renewSession). */
  #renewing: Promise<void> | undefined;
  /** URIs the gateway holds a subscription to at this server: made again after a reconnect. */
  readonly subscribed = new Set<string>();
  /** A 2026-07-28 connection's `subscriptions/listen` stream (listen-stream.ts). */
  #listen: ListenStream | undefined;

  constructor(options: ServerOptions) {
    this.#options = options;
    this.name = options.config.name;
    this.kind = options.config.url === undefined ? 'stdio' : 'http';
    this.#restart = new RestartTimer(options.plugin);
    this.stderr = new StderrLog(options.plugin.stderrLines, (line) => options.log.debug({ server: this.name, stderr: line }, 'upstream stderr'));
  }

  listen(listener: ServerListener): void {
    this.#listeners.push(listener);
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The connected client, or UPSTREAM_UNAVAILABLE at once (never a wait for a server that is down). */
  client(): Client {
    if (this.#state === 'connected' && this.#client) return this.#client;
    const why = this.#lastError ? ` Last error: ${this.#lastError.replace(/\.?$/, '.')}` : '';
    const recovering = this.kind === 'stdio' ? 'down and being restarted' : 'unreachable and being reconnected';
    throw this.#options.error(
      'UPSTREAM_UNAVAILABLE',
      `The upstream server "${this.name}" is ${this.#state === 'stopped' ? 'stopped' : this.#state === 'connecting' ? 'still connecting' : recovering}.${why}`,
      { server: this.name, state: this.#state },
    );
  }

  /** The message over maxMessageBytes that ended the last connection, until the next one is made. */
  tooLarge(): MessageTooLargeError | undefined {
    return this.#tooLarge;
  }

  /** Marks `call` in flight until the returned function runs. */
  track(call: CallContext): () => void {
    this.#calls.add(call);
    return () => this.#calls.delete(call);
  }

  /** What the connected server said it offers in `initialize` (or `server/discover`). */
  capabilities(): ServerCapabilities | undefined {
    return this.#client?.getServerCapabilities();
  }

  /** Whether the connection speaks the 2026-07-28 revision: subscriptions go through its listen stream. */
  get modern(): boolean {
    return this.#client !== undefined && isModern(this.#client);
  }

  /**
   * Listens again with the URIs in `subscribed` now (a 2026-07-28 connection): resolves with
   * those the server agreed to watch, rejects when it refuses the stream.
   */
  listenAgain(): Promise<ReadonlySet<string>> {
    return this.#listen?.open() ?? Promise.resolve(new Set());
  }

  status() {
    const getStreamStopped = this.#state === 'connected' ? this.#streamCuts?.stopped : undefined;
    return {
      name: this.name,
      kind: this.kind,
      state: this.#state,
      since: new Date(this.#since).toISOString(),
      restarts: this.#restarts,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(getStreamStopped === undefined ? {} : { getStreamStopped }),
      ...(this.#state === 'connected' && this.#client ? { protocol: this.#client.getNegotiatedProtocolVersion() } : {}),
      ...(this.#transport instanceof StdioServerTransport && this.#transport.pid !== undefined ? { pid: this.#transport.pid } : {}),
    };
  }

  /** Connects once; rejects with the reason when that fails (the caller decides whether to retry). */
  async start(): Promise<void> {
    await this.#connect();
  }

  /** Retries in the background after a first connection that failed (an optional server). */
  retryLater(): void {
    this.#scheduleReconnect();
  }

  /**
   * Says the connection is gone (a request could not reach an HTTP server, say): calls fail
   * fast from now on and a reconnect is scheduled. Nothing happens if it is already down.
   */
  lost(reason: string): void {
    if (this.#state !== 'connected') return;
    this.#down(reason);
    void this.#closeConnection();
    this.#scheduleReconnect();
  }

  /**
   * A request could not reach the server (a reset socket, a refused connection): a ping says
   * whether the connection is really gone, so that one broken socket (a keep-alive the server
   * closed just as it was reused) does not tear down the session and every call in flight on it.
   */
  suspect(reason: string): void {
    const client = this.#client;
    if (this.#state !== 'connected' || !client) return;
    answers(client, Math.min(5000, this.#options.plugin.connectTimeoutMs)).catch(() => {
      if (this.#client === client) this.lost(reason);
    });
  }

  /**
   * Replaces a connection whose session the server no longer knows (an HTTP server that
   * restarted) with a new one, at once; callers that found the same stale client share the
   * attempt. Throws UPSTREAM_UNAVAILABLE when the new connection cannot be made (a reconnect
   * is then scheduled as usual).
   */
  renewSession(stale: Client): Promise<void> {
    if (this.#client !== stale) return this.#renewing ?? Promise.resolve();
    this.#down('the server no longer knows our session (it restarted)');
    this.#restarts += 1;
    this.#renewing = this.#closeConnection()
      .then(() => this.#connect())
      .catch((err: unknown) => {
        this.#scheduleReconnect();
        throw this.#options.error('UPSTREAM_UNAVAILABLE', (err as Error).message, { server: this.name });
      })
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#state = 'stopped';
    this.#restart.cancel();
    this.#stopPing?.();
    await this.#closeConnection();
  }

  async #connect(): Promise<void> {
    const { config, plugin, log } = this.#options;
    if (this.#closed) return;
    this.#state = 'connecting';
    const transport = this.#makeTransport();
    const client = new Client(
      { name: 'mcp-gateway', version: this.#options.version },
      // Roots only when configured: a server told the workspace root would swap its own,
      // narrower folders (server-filesystem's arguments) for it.
      {
        capabilities: { ...(this.#options.roots ? { roots: {} } : {}), sampling: {}, elicitation: { form: {} } },
        versionNegotiation: { mode: negotiation(config.protocol) },
      },
    );
    answerServerRequests(client, { roots: this.#options.roots, calls: this.#calls, error: this.#options.error });
    relayNotifications(client, this.name, this.#listeners, log);
    this.#transport = transport;
    this.#client = client;
    try {
      await client.connect(transport, { timeout: plugin.connectTimeoutMs });
    } catch (err) {
      const reason = describeConnectFailure(err, { transport: this.#transport, stderr: this.stderr }, plugin.connectTimeoutMs);
      await this.#closeConnection();
      if (this.#closed) return;
      this.#down(reason);
      throw new Error(`The upstream server "${this.name}" did not start: ${reason}`, { cause: err });
    }
    if (this.#closed) return void (await this.#closeConnection());
    // The close handler, only now: a failed connect is handled above, not as a lost connection.
    client.onclose = () => {
      if (this.#client !== client || this.#closed) return;
      // Kept before the SDK fails the calls in flight (right after this handler): callFailure asks it why.
      this.#tooLarge = transport instanceof StdioServerTransport ? transport.failure : undefined;
      this.#down(describeExit({ transport, stderr: this.stderr }, this.#tooLarge));
      this.#scheduleReconnect();
    };
    this.#state = 'connected';
    this.#since = Date.now();
    this.#lastError = undefined;
    this.#tooLarge = undefined;
    if (this.kind === 'http') {
      this.#stopPing?.();
      this.#stopPing = pingEvery(client, plugin.connectTimeoutMs, (reason) => {
        if (this.#client === client) this.lost(reason);
      });
    }
    if (isModern(client)) {
      // A refusal is logged and tried again later by the stream itself.
      this.#listen = new ListenStream(client, this.subscribed, { log, server: this.name, timeoutMs: plugin.connectTimeoutMs });
      this.#listen.open().catch(() => {});
    }
    const era = client.getNegotiatedProtocolVersion();
    log.info({ server: this.name, kind: this.kind, era, ...(config.command ? { command: config.command } : { url: config.url }) }, 'upstream connected');
    for (const listener of this.#listeners) listener.connected(client);
  }

  #makeTransport(): Transport {
    const { config, workspaceRoot, plugin, log } = this.#options;
    if (config.url !== undefined) {
      const cuts = new StreamCuts(config.maxMessageBytes, (reason) => log.warn({ server: this.name, reason }, 'upstream GET stream stopped'));
      this.#streamCuts = cuts;
      return httpTransport(config, { name: this.name, log, cuts });
    }
    this.stderr.clear();
    return stdioTransport(config, { workspaceRoot, stderr: this.stderr, graceMs: Math.min(2000, plugin.connectTimeoutMs) });
  }

  #down(reason: string): void {
    const wasConnected = this.#state === 'connected';
    if (wasConnected) this.#restart.ended(this.#since);
    this.#state = 'down';
    this.#since = Date.now();
    this.#lastError = reason;
    this.#stopPing?.();
    this.#stopPing = undefined;
    this.#options.log.warn({ server: this.name, reason }, 'upstream down');
    if (wasConnected) for (const listener of this.#listeners) listener.disconnected();
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    this.#restart.schedule(() => {
      this.#restarts += 1;
      this.#connect().catch(() => this.#scheduleReconnect());
    });
  }

  async #closeConnection(): Promise<void> {
    const client = this.#client;
    const listen = this.#listen;
    this.#client = undefined;
    this.#transport = undefined;
    this.#listen = undefined;
    try {
      await listen?.close().catch((err: unknown) => this.#options.log.debug({ server: this.name, err }, 'closing the upstream listen stream failed'));
      await client?.close();
    } catch (err) {
      this.#options.log.debug({ server: this.name, err }, 'closing the upstream connection failed');
    }
  }
}

