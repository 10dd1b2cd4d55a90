/**
 * `@mcp-gateway/core/testing`: test a plugin through the gateway, the way clients see it, with no
 * internals. `startTestGateway` boots a gateway in process with the plugins of the given
 * registry folders, connects a real SDK `Client` over the in-memory transport, and offers
 * REST requests without a listener. Validation, error mapping, timeouts and the audit run
 * exactly as in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { FastifyInstance } from 'fastify';
import type { GatewayStatus } from './gateway/status-tool.js';
import { readYamlFile, resolveConfig } from './config/config.js';
import { createGateway, type Gateway } from './gateway/gateway.js';
import { mcpFace } from './mcp/mcp-face.js';
import { createLogger, type LogLevel } from './lib/logger.js';
import { BUILTIN_REGISTRY_DIR } from './plugins/registry.js';
import { commandLabel, runCommand } from './plugins/plugin-commands.js';
import { openPluginConfig } from './config/plugin-config-file.js';
import type { PluginDefinition, ToolDefinition } from './contract/plugin-types.js';
import type { Breaker, BreakerOptions } from './contract/breaker-types.js';
import { coreErrors, GatewayError, isGatewayError } from './contract/errors.js';
import { BreakerRegistry } from './runtime/breaker.js';
import { createSchemaCompiler } from './lib/schema.js';
import { checkPluginConfig } from './plugins/plugin-config.js';
import type { PluginStore } from './contract/store-types.js';
import type { EventHandler } from './lib/events.js';
import { createApiKey } from './auth/api-keys.js';
import { listenSocket } from './mcp/socket-server.js';
import { testSession, type TestSession } from './testing/test-session.js';
import { auditRows, type TestAuditRow } from './testing/test-audit.js';
import type { TestStore } from './testing/test-stores.js';

export type { Client } from '@modelcontextprotocol/client';
export type { GatewayStatus } from './gateway/status-tool.js';
export type { TestSession, TestToolError } from './testing/test-session.js';
export type { TestAuditRow } from './testing/test-audit.js';
export { testStores, type TestStorage, type TestStore, type TestStoreBackend, type TestStoresOptions } from './testing/test-stores.js';

/** One plugin's settings, as under `plugins.<name>` in gateway.config.yaml. */
export interface TestPluginSettings {
  /** The plugin's config section, validated against its `configSchema`. */
  readonly config?: Readonly<Record<string, unknown>>;
  readonly optional?: boolean;
}

export interface TestGatewayOptions {
  /** Registry folders with the plugins' YAML entries (e.g. your package's `registry/`). */
  readonly registries: readonly string[];
  /** The plugins to enable, by name, with their settings: `{ notes: {} }`. */
  readonly plugins: Readonly<Record<string, TestPluginSettings>>;
  /** The folder tools work in. Default: a new temporary folder, removed by `close()`. */
  readonly workspace?: string;
  /**
   * Other keys of gateway.config.yaml (`tools`, `breakers`, `auth`, `apiKeys`, ...). Defaults
   * differ from a real gateway's in three ways: `auth: 'none'`, no listener, and logs silent.
   * `transports` keeps its settings (limits, `http.rateLimit`) for `listen` and `rest`, but
   * every listener stays off until `listen`.
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Also read the gateway's own registry (the files and process plugins). Default: false. */
  readonly builtinRegistry?: boolean;
  /** Default: `silent`; `debug` shows the plugin's `ctx.log` lines on stderr. */
  readonly logLevel?: LogLevel;
  /** Where the log lines (pino's JSON, one a line) go instead of stderr: a test that reads them. */
  readonly logTo?: Writable;
  /** The MCP client name of the first client (`client`). Default: `mcp-gateway-test`. */
  readonly clientName?: string;
  /**
   * API keys to create: the gateway then runs with `auth: 'key'` (and an owner key), and
   * `keys` holds each key's secret by name. Clients over the in-memory pair need no key.
   */
  readonly keys?: readonly TestKeySpec[];
  /**
   * The store to run on (from `testStores()`); default: SQLite in a new data folder. Two
   * gateways given one store share it (on PostgreSQL, as two gateways of a deployment do).
   * Its `dataDir` is the gateway's and is not removed by `close()`.
   */
  readonly store?: TestStore;
  /**
   * A gateway.config.yaml to start from, as `--config FILE`: its keys come first, and the
   * harness's defaults, `config` and the options above go over them (its `dataDir` and
   * `workspace` too); its relative paths are relative to it. The gateway
   * then knows the file as its own, as a real one does: its file tools refuse to touch it.
   */
  readonly configFile?: string;
}

/** One API key to create, as an entry of `apiKeys` in gateway.config.yaml less its hash. */
export interface TestKeySpec {
  readonly name: string;
  /** `*`, `plugin:<name>`, `route:<name>`, `events`, or tool names (globs). */
  readonly scopes: readonly string[];
  /** The profile every call with this key sees. */
  readonly profile?: string;
}

/** Events as plugins see them on `ctx.events`, and as the gateway publishes them (with the publisher's name). */
export interface TestEvents {
  /** `*` matches one dot-separated segment, `**` (last) the rest. Returns the unsubscribe function. */
  subscribe(pattern: string, handler: EventHandler): () => void;
  /** Publishes as plugin `source` would with `ctx.events.publish(channel, data)`. */
  publish(source: string, channel: string, data: unknown): void;
}

/** An address a listener of `listen` is bound to. */
export interface TestAddress {
  readonly host: string;
  readonly port: number;
}

/** One tool of the catalog, as its plugin declared it (tools/list carries a leaner form). */
export interface TestTool {
  readonly plugin: string;
  readonly name: string;
  readonly definition: ToolDefinition;
}

/** What one run of a plugin's CLI command gave (`TestGateway.command`). */
export interface TestCommandResult {
  /** The exit status `mcp-gateway <plugin> <command>` would end with. */
  readonly code: number;
  /** Everything the command wrote to stdout, as UTF-8. */
  readonly stdout: string;
  /** Everything written to stderr: the command's own lines, and `mcp-gateway: CODE: message` when it failed. */
  readonly stderr: string;
}

export interface TestCommandOptions {
  /** What the command reads on stdin; empty by default. */
  readonly stdin?: string | Uint8Array;
  /** Aborts the command's `io.signal`, as SIGINT would from the CLI. */
  readonly signal?: AbortSignal;
}

/** The answer to one REST request. */
export interface TestRestAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  /** The parsed JSON body: `{success: true, data}` or `{success: false, error: {code, message, details?}}`; undefined when the body is not JSON. */
  readonly body: any;
  /** The body as it came, e.g. /metrics' text. */
  readonly text: string;
}

export interface TestGateway extends TestSession {
  /** A real SDK Client, connected over the in-memory transport (its own MCP session); `call` and `fail` use it. */
  readonly client: Client;
  /** The folder tools work in. */
  readonly workspace: string;
  /** The gateway's data folder (its database, each plugin's `ctx.dataDir`). */
  readonly dataDir: string;
  /** Another client with a session of its own, e.g. to see what one session gets of another's calls. */
  connect(name?: string): Promise<Client>;
  /** Another session (`connect(name)`) with its `call` and `fail`. */
  session(name?: string): Promise<TestSession>;
  /** The gateway's event bus: what plugins publish, and a way to publish as one. */
  readonly events: TestEvents;
  /** Plugin `plugin`'s store, as its `ctx.store` is: rows to set up or check. */
  store<Tables = any>(plugin: string): PluginStore<Tables>;
  /** Every tool of the catalog, with its plugin and full definition. */
  tools(): TestTool[];
  /**
   * Starts real listeners on 127.0.0.1, port 0: MCP over TCP (newline-delimited JSON-RPC) and
   * the HTTP face (REST, `/mcp`, `/events`, routes). Resolves with their addresses; `close()`
   * closes them.
   */
  listen(which: { readonly tcp?: boolean; readonly http?: boolean }): Promise<{ tcp?: TestAddress; http?: TestAddress }>;
  /** The secret of each key of the `keys` option, by name. */
  readonly keys: Readonly<Record<string, string>>;
  /** The owner key (every scope) when the gateway runs with `auth: 'key'`. */
  readonly ownerKey: string | undefined;
  /**
   * One request to the HTTP face (REST, `/health`, `/openapi.json`), served without a listener:
   * `rest('POST', '/tools/note_add', { text: 'hi' })`. Objects are sent as JSON.
   */
  rest(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>): Promise<TestRestAnswer>;
  /** What `gateway_status` answers: plugins, breakers, sessions. */
  status(): GatewayStatus;
  /**
   * The audited calls, oldest first (only `tool`'s when given): how each ended on the
   * gateway's side, e.g. `CANCELLED` for a call its client aborted. Empty when `tools.audit` is off.
   */
  audit(tool?: string): TestAuditRow[];
  /** The HTTP status the gateway answers error `code` with (REST, and the error's mapping), or undefined for a code nobody declared. */
  errorStatus(code: string): number | undefined;
  /**
   * Runs a command the plugin recorded with `ctx.command`, as `mcp-gateway <plugin> <command>
   * ...args` would (same exit status, same failure lines), on in-memory streams. Rejects when
   * the plugin has no such command.
   */
  command(plugin: string, name: string, args?: readonly string[], options?: TestCommandOptions): Promise<TestCommandResult>;
  /** Closes the clients, the gateway (plugin closers run) and removes the temporary folders. */
  close(): Promise<void>;
}

/** Boots a gateway with the given plugins and connects a client. Rejects with the boot error (its `code`) if a plugin fails. */
export async function startTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const made: string[] = [];
  const tempFolder = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
  const workspace = options.workspace ?? tempFolder('mcp-gateway-test-workspace-');
  const dataDir = options.store?.dataDir ?? tempFolder('mcp-gateway-test-data-');
  const madeKeys = (options.keys ?? []).map((spec) => ({ spec, ...createApiKey() }));
  const keyConfig = options.keys
    ? {
        auth: 'key',
        apiKeys: [...((options.config?.apiKeys as unknown[] | undefined) ?? []), ...madeKeys.map(({ spec, hash }) => ({ ...spec, hash }))],
      }
    : {};
  const removeFolders = () => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  };
  const logLevel = options.logLevel ?? 'silent';
  let gateway: Gateway;
  try {
    // A config file's keys first, so that the options (and a test's isolation) win over them.
    const fromFile = options.configFile === undefined ? {} : (readYamlFile(options.configFile) as Record<string, unknown>);
    const config = resolveConfig(
      {
        ...fromFile,
        auth: 'none',
        logLevel,
        ...options.config,
        ...keyConfig,
        ...(options.store ? { storage: options.store.storage } : {}),
        dataDir,
        workspace,
        registries: [...options.registries],
        plugins: options.plugins,
        // A transport's settings (limits, rate limit) are kept for `listen`; no listener starts at boot.
        transports: listenersOff((options.config?.transports ?? {}) as Record<string, Record<string, unknown> | undefined>),
      },
      { env: process.env, cwd: workspace, ...(options.configFile === undefined ? {} : { file: options.configFile }) },
    );
    gateway = await createGateway({ config, log: createLogger(logLevel, options.logTo), registryDirs: options.builtinRegistry ? [BUILTIN_REGISTRY_DIR] : [] });
  } catch (err) {
    removeFolders();
    throw err;
  }

  const clients: Client[] = [];
  const connect = async (name = 'mcp-gateway-test') => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };
  let app: Promise<FastifyInstance> | undefined;
  const rest: TestGateway['rest'] = async (method, url, body, headers = {}) => {
    // fastify loads only for tests that use it.
    app ??= import('./http/http-server.js').then(({ createHttpApp }) => createHttpApp(gateway));
    const answer = await (await app).inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: answer.statusCode, headers: answer.headers, body: parsedJson(answer.body), text: answer.body };
  };
  const command: TestGateway['command'] = async (plugin, name, args = [], options = {}) => {
    const found = gateway.commands.get(plugin, name);
    if (!found) {
      const known = gateway.commands.of(plugin).map((c) => c.definition.name);
      throw new Error(`Plugin "${plugin}" has no command "${name}"; its commands: ${known.join(', ') || '(none)'}.`);
    }
    const stdout = collector();
    const stderr = collector();
    const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)], { objectMode: false });
    const signal = options.signal ? AbortSignal.any([options.signal, gateway.signal]) : gateway.signal;
    const code = await runCommand(commandLabel(found), found.run, args, { stdin, stdout: stdout.stream, stderr: stderr.stream, signal }, gateway.log);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  };
  const session = async (name?: string) => testSession(await connect(name));
  const listen: TestGateway['listen'] = async (which) => {
    const found: { tcp?: TestAddress; http?: TestAddress } = {};
    // Both listeners start on the gateway's lifecycle, which closes them when the gateway closes.
    if (which.tcp) {
      const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
      if (tcp.address.kind === 'tcp') found.tcp = { host: tcp.address.host, port: tcp.address.port };
    }
    if (which.http) {
      const { listenHttp } = await import('./http/http-server.js');
      const http = await listenHttp(gateway, { ...gateway.config.transports.http, host: '127.0.0.1', port: 0 });
      found.http = { host: http.address.host, port: http.address.port };
    }
    return found;
  };
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await Promise.allSettled(clients.map((c) => c.close()));
        if (app) await (await app).close();
        await gateway.close();
      } finally {
        removeFolders();
      }
    })());

  try {
    const first = testSession(await connect(options.clientName));
    return {
      ...first,
      workspace,
      dataDir,
      connect,
      session,
      events: { subscribe: (pattern, handler) => gateway.events.subscribe(pattern, handler), publish: (source, channel, data) => gateway.events.publish(source, channel, data) },
      store: (plugin) => gateway.store.forPlugin(plugin),
      tools: () => gateway.catalog.list().map((tool) => ({ plugin: tool.plugin, name: tool.listing.name, definition: tool.definition })),
      listen,
      keys: Object.fromEntries(madeKeys.map(({ spec, key }) => [spec.name, key])),
      ownerKey: gateway.ownerKey?.key,
      rest,
      status: () => gateway.status(),
      audit: (tool) => auditRows(gateway, tool),
      errorStatus: (code) => gateway.errors.get(code)?.status,
      command,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Runs a plugin's config command in process, as `mcp-gateway <plugin> ARGS...` would, with no
 * gateway: `args` without the plugin's name. `cwd` stands for the working directory, where a
 * relative `--config FILE` and the default ./gateway.config.yaml are found, so that a test
 * never edits a file of the folder it runs in.
 */
export async function runConfigCommand(plugin: PluginDefinition, args: readonly string[], options: { readonly cwd: string }): Promise<TestCommandResult> {
  const run = plugin.configCommand;
  if (!run) throw new Error(`Plugin "${plugin.name}" has no configCommand.`);
  const stdout = collector();
  const stderr = collector();
  const io = { stdout: stdout.stream, stderr: stderr.stream, openConfig: (file?: string) => openPluginConfig(plugin.name, file, options.cwd) };
  const code = await runCommand(plugin.name, run, args, io, createLogger('silent'));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * A new API key: its secret, and the hash to write under `apiKeys` in the config file of a
 * gateway the test runs as a process (`startTestGateway`'s `keys` does this itself).
 */
export function newApiKey(): { readonly key: string; readonly hash: string } {
  return createApiKey();
}

/**
 * What `ctx.config` would be for this config section of `plugin` (as under
 * `plugins.<name>.config`): a copy validated against its `configSchema`, defaults filled in, as
 * the gateway does at boot. Throws CONFIG_INVALID naming each key at fault. For unit tests of a
 * plugin's own modules that take its config.
 */
export function pluginConfig<Config = Record<string, unknown>>(plugin: PluginDefinition, config: Readonly<Record<string, unknown>> = {}): Config {
  const checked = checkPluginConfig(plugin.name, plugin.configSchema, config, createSchemaCompiler({ useDefaults: true, coerceTypes: true, allErrors: true }));
  if ('problem' in checked) throw new GatewayError('CONFIG_INVALID', checked.problem);
  return checked.data as Config;
}

/** A breaker of `testBreaker`, and the `close` that stops its timers. */
export interface TestBreaker {
  readonly breaker: Breaker;
  close(): void;
}

/**
 * A real circuit breaker named `name`, as `ctx.breaker(name, options)` makes it: the gateway's
 * default thresholds, `options` over them (`isCallerError` for the plugin's own 4xx codes; by
 * default only core's count as the caller's). For unit tests of a plugin's own modules that
 * take a breaker. Its log is silent; `close()` stops its timers.
 */
export function testBreaker(name: string, options: BreakerOptions = {}): TestBreaker {
  const defaults = resolveConfig({}, { env: {}, cwd: tmpdir() }).breakers;
  // As the gateway's: a caller's mistake (a core 4xx code) says nothing of a service's health.
  const statusOf = (code: string) => (coreErrors as Readonly<Record<string, { status: number }>>)[code]?.status ?? 500;
  const isCallerError = (err: unknown) => isGatewayError(err) && statusOf(err.code) < 500;
  const registry = new BreakerRegistry(defaults, createLogger('silent'), isCallerError);
  return { breaker: registry.get(name, options), close: () => registry.shutdown() };
}

/** `transports` (of gateway.config.yaml) with every listener off. */
function listenersOff(transports: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>): Record<string, Record<string, unknown>> {
  const off = (name: string) => ({ ...transports[name], enabled: false });
  return { ...transports, tcp: off('tcp'), unix: off('unix'), http: off('http') };
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
