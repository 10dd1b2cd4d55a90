import type { Database } from 'better-sqlite3';
import type { Breaker, BreakerOptions } from '../breaker.js';
import type { ErrorSpec, GatewayError } from '../errors.js';
import type { EventHandler } from '../events.js';
import type { Logger } from '../logger.js';
import type { JsonSchema } from '../catalog/schema.js';
import type { Migration } from '../storage/storage.js';
import type { PluginStore } from '../storage/store-types.js';
import type { Workspace } from '../workspace.js';

/** MCP tool annotations. `readOnlyHint` is required so that every tool states it. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolDefinition {
  /** snake_case, `^[a-z][a-z0-9_]{0,63}$`, unique across the gateway. */
  readonly name: string;
  readonly title?: string;
  /** What the tool does and when to use it: this is what the model reads. */
  readonly description: string;
  /** JSON Schema 2020-12 with `type: "object"`; validated on every call before the handler. */
  readonly inputSchema: JsonSchema;
  /** When given, the result must be an object matching it; it becomes `structuredContent`. */
  readonly outputSchema?: JsonSchema;
  readonly annotations: ToolAnnotations;
  /** Overrides `tools.timeoutMs` from the config for this tool. */
  readonly timeoutMs?: number;
}

export type TransportKind = 'stdio' | 'tcp' | 'unix' | 'http' | 'rest' | 'memory' | 'cli';

/** Who is calling: the transport, its session and, where known, the client or key name. */
export interface Caller {
  readonly transport: TransportKind;
  readonly sessionId?: string;
  /** The MCP client's name from `initialize`, the API key's name, or the peer address. */
  readonly identity?: string;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** The second argument of every tool handler. */
export interface CallContext {
  /** Fires on client cancellation, disconnect, the tool's timeout, or gateway shutdown. */
  readonly signal: AbortSignal;
  /** Sends MCP progress notifications when the client asked for them; a no-op otherwise. */
  progress(update: ProgressUpdate): void;
  readonly caller: Caller;
  readonly log: Logger;
}

/**
 * Receives arguments already validated against the input schema (defaults filled in).
 * Returns a JSON value (sent as text content, and as `structuredContent` when the tool has
 * an outputSchema) or a `toolContent(...)` result for images and other content types.
 * Throw a GatewayError (`ctx.error(...)`) for failures the caller should see.
 */
export type ToolHandler<Args = Record<string, unknown>> = (args: Args, call: CallContext) => unknown;

/** The shared SQLite database: the raw better-sqlite3 handle and a migration helper. */
export interface PluginDatabase {
  readonly sqlite: Database;
  /**
   * Applies the plugin's numbered migrations (index 0 is version 1) that have not run yet,
   * each in its own transaction. Name tables with the plugin's prefix (`files_…`).
   */
  migrate(migrations: readonly Migration[]): void;
}

export interface PluginEvents {
  /** Publishes `data` on `channel` (by convention `<plugin>.<event>`, e.g. `process.exit`). */
  publish(channel: string, data: unknown): void;
  /**
   * `*` matches one dot-separated segment; `**`, only as the last segment, matches one or more.
   * Throws a TypeError for any other pattern. Returns the unsubscribe function.
   */
  subscribe(pattern: string, handler: EventHandler): () => void;
}

/** A plugin's only door into core. Valid from `setup` until the gateway closes. */
export interface PluginContext<Config = Record<string, unknown>> {
  readonly name: string;
  /** This plugin's section of the config, validated against `configSchema` and frozen. */
  readonly config: Readonly<Config>;
  /** A pino logger tagged with the plugin name; writes to stderr. */
  readonly log: Logger;
  /** Records a tool. Throws TOOL_DEFINITION_INVALID at once for a bad definition. */
  tool<Args = Record<string, unknown>>(definition: ToolDefinition, handler: ToolHandler<Args>): void;
  /** A circuit breaker named `<plugin>:<service>` for calls to one external service. */
  breaker(service: string, options?: BreakerOptions): Breaker;
  readonly db: PluginDatabase;
  /** The shared store (SQLite file or PostgreSQL) for state a team shares; see PluginStore. */
  readonly store: PluginStore;
  readonly events: PluginEvents;
  readonly workspace: Workspace;
  /** A directory of this plugin's own under the gateway's dataDir, created before setup. */
  readonly dataDir: string;
  /** Aborted when the gateway shuts down. */
  readonly signal: AbortSignal;
  /** Registers cleanup; closers run in reverse load order at shutdown, each bounded in time. */
  onClose(closer: () => unknown): void;
  /** What a plugin named in `requires` returned from its setup. */
  api<T = unknown>(plugin: string): T;
  /** A GatewayError with one of this plugin's (or core's) codes. */
  error(code: string, message: string, details?: unknown): GatewayError;
}

export interface PluginDefinition<Config = Record<string, unknown>, Api = unknown> {
  /** Lower-case, `^[a-z][a-z0-9-]{0,63}$`; must match the registry entry's name. */
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** JSON Schema of the plugin's config section; defaults are applied, unknown keys refused. */
  readonly configSchema?: JsonSchema;
  /** Plugins that must be set up first; their APIs are reachable with `ctx.api(name)`. */
  readonly requires?: readonly string[];
  /** The plugin's own error codes, added to the gateway's error table. */
  readonly errors?: Readonly<Record<string, ErrorSpec>>;
  /** Registers tools and resolves when ready; its return value is the plugin's API. */
  setup(ctx: PluginContext<Config>): Api | Promise<Api>;
}
