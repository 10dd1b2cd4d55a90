import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallContext, Logger } from '../../core/index.js';
import type { ServerConfig, UpstreamConfig } from './config.js';
import type { RaiseError } from './errors.js';
import { StderrLog } from './stderr-log.js';
import { describeError } from './call-failure.js';
import { answerServerRequests } from './server-requests.js';
import { StdioServerTransport } from './stdio-transport.js';

export type ServerState = 'connecting' | 'connected' | 'down' | 'stopped';

/** What the mirrors of a server's tools, resources and prompts are told. */
export interface ServerListener {
  /** Connected (again): list everything afresh. */
  connected(client: Client): void;
  /** The connection was lost; calls answer UPSTREAM_UNAVAILABLE until `connected`. */
  disconnected(): void;
  listChanged(kind: 'tools' | 'resources' | 'prompts'): void;
  resourceUpdated(uri: string): void;
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

/** A connection that lasted this long resets the restart delay to its initial value. */
const STABLE_MS = 10_000;
/** How often an idle HTTP server is pinged: a stdio server's death is seen at once, an HTTP one's is not. */
const HTTP_PING_MS = 15_000;

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
  #attempt = 0;
  #lastError: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #ping: NodeJS.Timeout | undefined;
  /** Calls to this server in flight: where its sampling and elicitation requests are sent. */
  readonly #calls = new Set<CallContext>();
  /** A session renewal under way (renewSession). */
  #renewing: Promise<void> | undefined;

  constructor(options: ServerOptions) {
    this.#options = options;
    this.name = options.config.name;
    this.kind = options.config.url === undefined ? 'stdio' : 'http';
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

  /** Marks `call` in flight until the returned function runs. */
  track(call: CallContext): () => void {
    this.#calls.add(call);
    return () => this.#calls.delete(call);
  }

  /** What the connected server said it offers in `initialize`. */
  capabilities(): ServerCapabilities | undefined {
    return this.#client?.getServerCapabilities();
  }

  status() {
    return {
      name: this.name,
      kind: this.kind,
      state: this.#state,
      since: new Date(this.#since).toISOString(),
      restarts: this.#restarts,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
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
    client.ping({ timeout: Math.min(5000, this.#options.plugin.connectTimeoutMs) }).catch(() => {
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
    clearTimeout(this.#timer);
    clearInterval(this.#ping);
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
      { capabilities: { ...(this.#options.roots ? { roots: {} } : {}), sampling: {}, elicitation: { form: {} } } },
    );
    this.#wire(client);
    this.#transport = transport;
    this.#client = client;
    try {
      await client.connect(transport, { timeout: plugin.connectTimeoutMs });
    } catch (err) {
      const reason = this.#describeFailure(err);
      await this.#closeConnection();
      if (this.#closed) return;
      this.#down(reason);
      throw new Error(`The upstream server "${this.name}" did not start: ${reason}`, { cause: err });
    }
    if (this.#closed) return void (await this.#closeConnection());
    // The close handler, only now: a failed connect is handled above, not as a lost connection.
    client.onclose = () => {
      if (this.#client !== client || this.#closed) return;
      this.#down(this.#describeExit());
      this.#scheduleReconnect();
    };
    this.#state = 'connected';
    this.#since = Date.now();
    this.#lastError = undefined;
    if (this.kind === 'http') this.#startPing(client);
    log.info({ server: this.name, kind: this.kind, ...(config.command ? { command: config.command } : { url: config.url }) }, 'upstream connected');
    for (const listener of this.#listeners) listener.connected(client);
  }

  #makeTransport(): Transport {
    const { config, workspaceRoot, plugin } = this.#options;
    if (config.url !== undefined) {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } });
    }
    this.stderr.clear();
    return new StdioServerTransport({
      command: config.command!,
      args: config.args,
      env: config.env,
      cwd: resolve(workspaceRoot, config.cwd ?? '.'),
      stderr: this.stderr,
      graceMs: Math.min(2000, plugin.connectTimeoutMs),
    });
  }

  #wire(client: Client): void {
    answerServerRequests(client, { roots: this.#options.roots, calls: this.#calls });
    const notify = (kind: 'tools' | 'resources' | 'prompts') => () => {
      for (const listener of this.#listeners) listener.listChanged(kind);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, notify('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, notify('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, notify('prompts'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => {
      for (const listener of this.#listeners) listener.resourceUpdated(params.uri);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      this.#options.log.debug({ server: this.name, level: params.level, logger: params.logger, data: params.data }, 'upstream log message');
    });
    client.onerror = (err) => this.#options.log.debug({ server: this.name, err }, 'upstream transport error');
  }

  #startPing(client: Client): void {
    clearInterval(this.#ping);
    this.#ping = setInterval(() => {
      client.ping({ timeout: Math.min(HTTP_PING_MS, this.#options.plugin.connectTimeoutMs) }).catch((err: unknown) => {
        if (this.#client === client) this.lost(`no answer to ping: ${(err as Error).message}`);
      });
    }, HTTP_PING_MS);
    this.#ping.unref();
  }

  #down(reason: string): void {
    const wasConnected = this.#state === 'connected';
    if (wasConnected && Date.now() - this.#since >= STABLE_MS) this.#attempt = 0;
    this.#state = 'down';
    this.#since = Date.now();
    this.#lastError = reason;
    clearInterval(this.#ping);
    this.#options.log.warn({ server: this.name, reason }, 'upstream down');
    if (wasConnected) for (const listener of this.#listeners) listener.disconnected();
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    const { restartInitialDelayMs: initial, restartMaxDelayMs: max } = this.#options.plugin;
    const base = Math.min(max, initial * 2 ** Math.min(this.#attempt, 20));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.#attempt += 1;
    this.#timer = setTimeout(() => {
      this.#restarts += 1;
      this.#connect().catch(() => this.#scheduleReconnect());
    }, delay);
    this.#timer.unref();
  }

  async #closeConnection(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#transport = undefined;
    try {
      await client?.close();
    } catch (err) {
      this.#options.log.debug({ server: this.name, err }, 'closing the upstream connection failed');
    }
  }

  /** Why a connection attempt failed, with the end of stderr when the process said something. */
  #describeFailure(err: unknown): string {
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      return `no answer to initialize within connectTimeoutMs (${this.#options.plugin.connectTimeoutMs} ms); raise plugins.upstream.config.connectTimeoutMs if the server is slow to start (npx may be downloading it)`;
    }
    const message = describeError(err);
    const exit = this.#transport instanceof StdioServerTransport ? this.#transport.exit : undefined;
    const parts = [message];
    if (exit) parts.push(`the process exited with ${exit.signal ?? `code ${exit.code}`}`);
    const tail = this.stderr.tail(3);
    if (tail.length) parts.push(`stderr: ${tail.join(' | ')}`);
    return parts.join('; ');
  }

  #describeExit(): string {
    const exit = this.#transport instanceof StdioServerTransport ? this.#transport.exit : undefined;
    if (!exit) return 'the connection closed';
    // Stderr says why only when the server failed (a code, a crash); killed from outside, its
    // last lines are the start-up banner, which would read like an error.
    const failed = (exit.code !== null && exit.code !== 0) || (exit.signal !== null && !['SIGTERM', 'SIGKILL', 'SIGINT'].includes(exit.signal));
    const tail = failed ? this.stderr.tail(2) : [];
    return `the process exited with ${exit.signal ?? `code ${exit.code}`}${tail.length ? `; stderr: ${tail.join(' | ')}` : ''}`;
  }
}

