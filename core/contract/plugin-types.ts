import type { Database } from 'better-sqlite3';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Breaker, BreakerOptions } from './breaker-types.js';
import type { CoreErrorCode, ErrorSpec, GatewayError } from './errors.js';
import type { EventHandler } from '../lib/events.js';
import type { ListeningAddress } from './addresses.js';
import type { Logger } from '../lib/logger.js';
import type { JsonSchema } from '../lib/schema.js';
import type { PluginHttp } from './route-types.js';
import type { Migration, PluginStore } from './store-types.js';
import type { Workspace } from './workspace-types.js';
import type { PromptDefinition, PromptGetter, ResourceDefinition, ResourceReader } from './content-types.js';
import type { CommandDefinition, CommandRunner } from './command-types.js';
import type { ConfigCommandRunner } from './config-command-types.js';
import type { Caller, McpLogLevel, ToolHandler } from './call-types.js';

/** MCP tool annotations. `readOnlyHint` is required so that every tool states it. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * The value a JSON Schema accepts, once defaults are filled in: inferred with json-schema-to-ts
 * when the schema is a literal type (written inline, or `as const`), else a plain record. A
 * property with a `default` counts as present, since core fills it in before the handler runs.
 */
export type SchemaType<S> = string extends keyof S
  ? Record<string, unknown>
  : S extends JSONSchema
    ? FromSchema<S>
    : Record<string, unknown>;

/**
 * The type of a plugin's config from its `configSchema`. Core refuses unknown top-level keys
 * even when the schema does not say so (plugin-host.ts, `closeTopLevel`), and so does the type.
 */
export type ConfigType<S> = SchemaType<
  S extends { readonly properties: unknown }
    ? 'additionalProperties' extends keyof S
      ? S
      : 'unevaluatedProperties' extends keyof S
        ? S
        : S & { readonly additionalProperties: false }
    : S
>;

/**
 * A tool's definition. `S` is the type of its `inputSchema`: keep it literal (inline, or the
 * definition written `as const`) and the handler's arguments are typed from it.
 */
export interface ToolDefinition<S extends JsonSchema = JsonSchema> {
  /** snake_case, `^[a-z][a-z0-9_]{0,63}$`, unique across the gateway. */
  readonly name: string;
  readonly title?: string;
  /** What the tool does and when to use it: this is what the model reads. */
  readonly description: string;
  /** JSON Schema 2020-12 with `type: "object"`; validated on every call before the handler. */
  readonly inputSchema: S;
  /** When given, the result must be an object matching it; it becomes `structuredContent`. */
  readonly outputSchema?: JsonSchema;
  readonly annotations: ToolAnnotations;
  /** Overrides `tools.timeoutMs` from the config for this tool. */
  readonly timeoutMs?: number;
  /**
   * The schemas were written for another server (a proxied MCP server's tools), not for this
   * gateway: they are compiled without strict mode, as draft-07 when their `$schema` names
   * draft-04 to 07 (else 2020-12), and no defaults are filled in. Every call is still validated.
   */
  readonly foreignSchemas?: boolean;
  /**
   * Where the tool really runs when the plugin relays it (`upstream fs: read_text_file`): shown
   * by `mcp-gateway tools` and GET /tools beside the plugin's name.
   */
  readonly origin?: string;
  /**
   * Whether a call may run as a task (the 2026-07-28 tasks extension) for a client that declares
   * the extension: `optional` — a call still running after a moment becomes a task the client
   * polls, one that answers sooner answers at once; `required` — every such call becomes a task,
   * and a 2026-07-28 request without the extension is refused (-32021); 2025 sessions and REST
   * call the tool as any other. Not listed: the 2026 revision lists
   * no such field (the server decides), and 2025 clients would read `execution.taskSupport` as
   * the 2025 tasks, which the gateway does not serve.
   */
  readonly taskSupport?: 'optional' | 'required';
}

export type {
  CallContext,
  Caller,
  ClientRequestOptions,
  ElicitationParams,
  ElicitationResult,
  McpLogLevel,
  ProgressUpdate,
  RootsParams,
  RootsResult,
  SamplingParams,
  SamplingResult,
  ToolHandler,
  TransportKind,
} from './call-types.js';

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

/**
 * Which MCP sessions a notification goes to: one session (`call.caller.sessionId` is the
 * caller's own), every session of one identity (an API key's name, else the MCP client's
 * name, else the peer address), or every open session.
 */
export type NotifyTarget = { readonly session: string } | { readonly identity: string } | 'all';

/**
 * Notifications from a plugin to MCP sessions. Each method returns how many sessions the
 * notification was handed to (0 when none matched: a session that has gone is not an error).
 * Only sessions that finished `initialize` are addressed. Delivery is best effort: a client
 * that disconnects meanwhile misses it, and an `/mcp` client gets notifications only while it
 * holds its GET stream open. Throws NOTIFICATION_INVALID for a malformed call; nothing is sent.
 */
export interface PluginNotify {
  /**
   * `notifications/message` with `{level, logger, data}`. Each session gets only levels at or
   * above the one it set with `logging/setLevel`; a session that never set one gets every level.
   * `logger` defaults to the plugin's name. `data` must be JSON.
   */
  log(target: NotifyTarget, level: McpLogLevel, data: unknown, options?: { readonly logger?: string }): number;
  /**
   * `notifications/claude/channel` with `{channel, data}`. `channel` must be one of the
   * plugin object's `channels` (every session's `initialize` announces them).
   */
  channel(target: NotifyTarget, channel: string, data: unknown): number;
}

/** The MCP sessions of this gateway as a plugin sees them (`ctx.sessions`). */
export interface PluginSessions {
  /** Whether the session with this id is open on this gateway. */
  isOpen(sessionId: string): boolean;
  /**
   * Calls `handler` with the id of each MCP session of this gateway that closes from now on
   * (client gone, transport closed, shutdown). Returns the unsubscribe; it also ends when the plugin closes.
   */
  onClose(handler: (sessionId: string) => void): () => void;
  /**
   * Gives a function core asks after each successful tool call of an MCP session, any plugin's
   * tool: a non-empty string it returns is appended to the result as one more text block (a
   * one-line banner for clients that show no notifications). It runs on every call, so keep it
   * synchronous and cheap; a throw is logged and adds nothing. REST answers carry no notes.
   */
  resultNote(note: (caller: Caller, tool: string) => string | undefined): void;
}

/**
 * Adding entries while the gateway runs, after setup. Each entry is checked like its setup
 * counterpart and joins its catalog at once; every change sends the matching
 * `notifications/<kind>/list_changed` to all sessions (one per event-loop turn per kind).
 * What a plugin added here is removed when the plugin closes. Throws PLUGIN_CLOSED once the
 * plugin has been closed (its setup failed, or the gateway is shutting down).
 */
export interface PluginLive {
  /**
   * Adds a tool now (TOOL_DEFINITION_INVALID for a bad definition or a taken name). Returns
   * the function that removes it; calling that again does nothing. Calls already running
   * finish; later ones get UNKNOWN_TOOL.
   */
  tool<const S extends JsonSchema>(definition: ToolDefinition<S>, handler: ToolHandler<SchemaType<S>>): () => void;
  /** Adds a resource or template now (RESOURCE_DEFINITION_INVALID as at setup); returns its removal. */
  resource(definition: ResourceDefinition, reader: ResourceReader): () => void;
  /** Adds a prompt now (PROMPT_DEFINITION_INVALID as at setup); returns its removal. */
  prompt<Args = Record<string, string>>(definition: PromptDefinition, getter: PromptGetter<Args>): () => void;
}

/** What a plugin says of its own state, in `gateway_status` and `/health` (`ctx.reportStatus`). */
export interface PluginReport {
  /** False while part of what the plugin offers does not work (an upstream is down): `/health` says `degraded`. */
  readonly ok: boolean;
  /** The plugin's own detail, a JSON object (e.g. one entry per connection it keeps). */
  readonly detail?: Record<string, unknown>;
  /**
   * Numbers for `/metrics` only (never in `gateway_status` or `/health`), read at each scrape:
   * each entry is a sample of the Prometheus gauge `mcp_gateway_<plugin>_<name>` (`-` in the
   * plugin's name becomes `_`). A malformed entry is dropped and logged; the rest are served.
   */
  readonly gauges?: ReadonlyArray<PluginGauge>;
}

/** What `gateway_status` and `/health` show of a report: its gauges are for /metrics only. */
export type PluginStatus = Omit<PluginReport, 'gauges'>;

/** One sample of a gauge a plugin reports (`PluginReport.gauges`). */
export interface PluginGauge {
  /** `^[a-z][a-z0-9_]{0,63}$`; the metric is `mcp_gateway_<plugin>_<name>`. */
  readonly name: string;
  /** The metric's HELP text; the first entry of a name gives it. */
  readonly help: string;
  /** Label names are Prometheus names (`^[a-zA-Z_][a-zA-Z0-9_]*$`, no leading `__`); every entry of one name has the same ones. */
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * What each plugin's `setup` returned, by plugin name, for `ctx.api(name)`. Empty in core: a
 * plugin that offers an API adds itself by declaration merging, next to its API type:
 *
 *     declare module '@mcp-gateway/core' {
 *       interface PluginApis { notes: NotesApi }
 *     }
 */
export interface PluginApis {}

/** The API of plugin `N`: its entry in `PluginApis`, or `unknown` when it declares none. */
export type PluginApi<N extends string> = N extends keyof PluginApis ? PluginApis[N] : unknown;

/** The codes a plugin may raise: its own (the keys of its `errors`) and core's. */
export type ErrorCodeOf<Codes extends string> = Codes | CoreErrorCode;

/**
 * A plugin's only door into core. Valid from `setup` until the gateway closes.
 * `Config` is the type of its config section, `Codes` its own error codes, `Requires` the
 * plugins it names in `requires` and `Uses` those in `uses`; `definePlugin` infers them all
 * from the definition.
 */
export interface PluginContext<
  Config = Record<string, unknown>,
  Codes extends string = string,
  Requires extends string = string,
  Uses extends string = string,
> {
  readonly name: string;
  /** This plugin's section of the config, validated against `configSchema` and frozen. */
  readonly config: Readonly<Config>;
  /** A pino logger tagged with the plugin name; writes to stderr. */
  readonly log: Logger;
  /**
   * Records a tool during `setup`; the tools join the catalog together when setup resolves.
   * Throws TOOL_DEFINITION_INVALID at once for a bad definition, and PLUGIN_SETUP_OVER when
   * called after setup resolved or failed (use `live.tool` then). The handler's arguments are
   * typed from `definition.inputSchema` when it is a literal type (see `SchemaType`); a schema
   * typed as plain `JsonSchema` gives `Record<string, unknown>`.
   */
  tool<const S extends JsonSchema>(definition: ToolDefinition<S>, handler: ToolHandler<SchemaType<S>>): void;
  /** Adds and removes entries at run time, announcing each change to the sessions. */
  readonly live: PluginLive;
  /** Notifications to MCP sessions: log messages and channel messages. */
  readonly notify: PluginNotify;
  /** The gateway's MCP sessions: whether one is open, when one closes, notes on tool results. */
  readonly sessions: PluginSessions;
  /** HTTP routes, static files and WebSocket routes under `/plugins/<name>/`; setup only (route-types.ts). */
  readonly http: PluginHttp;
  /** A circuit breaker named `<plugin>:<service>` for calls to one external service. */
  breaker(service: string, options?: BreakerOptions): Breaker;
  readonly db: PluginDatabase;
  /** The shared store (SQLite file or PostgreSQL) for state a team shares; see PluginStore. */
  readonly store: PluginStore;
  readonly events: PluginEvents;
  readonly workspace: Workspace;
  /**
   * The addresses the gateway listens on now: TCP and unix sockets (MCP) and HTTP (`/mcp`,
   * REST), as bound (a port 0 resolved). Empty during setup (listeners start after every
   * plugin is set up) and for a gateway that serves only stdio; ask when you need them.
   */
  listening(): readonly ListeningAddress[];
  /** A directory of this plugin's own under the gateway's dataDir, created before setup. */
  readonly dataDir: string;
  /** Aborted when the gateway shuts down. */
  readonly signal: AbortSignal;
  /** Registers cleanup; closers run in reverse load order at shutdown, each bounded in time. */
  onClose(closer: () => unknown): void;
  /**
   * What a plugin named in `requires` returned from its setup, typed through `PluginApis`; for
   * a plugin named in `uses`, the same when it is enabled and set up, else `undefined`.
   * Throws PLUGIN_DEPENDENCY for a name in neither list.
   */
  api<N extends Requires | Uses>(plugin: N): N extends Requires ? PluginApi<N> : PluginApi<N> | undefined;
  /**
   * A GatewayError with one of this plugin's codes (the keys of its `errors`) or core's; throw
   * it. An undeclared code throws INTERNAL_ERROR at once.
   */
  error(code: ErrorCodeOf<Codes>, message: string, details?: unknown): GatewayError;
  /**
   * Records a resource (`uri`) or a resource template (`uriTemplate`, RFC 6570 levels 1-3),
   * served by `reader`. During setup only: the entries join the catalog when setup succeeds.
   * Throws RESOURCE_DEFINITION_INVALID at once for a bad definition or a URI/template another
   * plugin has, and PLUGIN_SETUP_OVER after setup resolved (use `ctx.live.resource`).
   */
  resource(definition: ResourceDefinition, reader: ResourceReader): void;
  /**
   * Records a prompt, made by `getter` from arguments validated against its `arguments` schema.
   * During setup only, like `resource`; throws PROMPT_DEFINITION_INVALID or PLUGIN_SETUP_OVER.
   */
  prompt<Args = Record<string, string>>(definition: PromptDefinition, getter: PromptGetter<Args>): void;
  /**
   * Records a CLI command, run as `mcp-gateway <plugin> <command> [args...]` by a gateway booted
   * for that one command (no transport served); nothing else sees it. During setup only: the
   * commands join the gateway when setup succeeds. Throws COMMAND_DEFINITION_INVALID at once
   * for a bad definition or a name this plugin already recorded, and PLUGIN_SETUP_OVER after
   * setup resolved or failed. See command-types.ts for what `run` gets and returns.
   */
  command(definition: CommandDefinition, run: CommandRunner): void;
  /**
   * Sends `notifications/resources/updated` for `uri` to every session subscribed to it (a
   * URI one of this plugin's resources or templates serves). Throws RESOURCE_NOT_FOUND when
   * none does, INVALID_URI for a string that is not a URI.
   */
  resourceUpdated(uri: string): void;
  /**
   * Gives the function that reports the plugin's state, called each time `gateway_status` or
   * `/health` is asked and at each `/metrics` scrape (keep it cheap; a later call replaces it).
   * A report that throws or is not JSON shows as `{ok: false}` with the reason, and is logged.
   * Throws a TypeError when `report` is not a function.
   */
  reportStatus(report: () => PluginReport): void;
}

/**
 * A plugin. The one source of its name, version, description and requirements: the registry
 * entry only says where the module is and how the deployment treats it.
 */
/** An external service a plugin calls through a circuit breaker (`PluginDefinition.services`). */
export interface ServiceDeclaration {
  /** `^[a-z][a-z0-9_-]{0,63}$`, or `*` for names given at run time. */
  readonly name: string;
  /** What it is, for /health and the docs: "the IDE backend of plugins.ide-bridge.config.url". */
  readonly description?: string;
}

export interface PluginDefinition<
  Config = Record<string, unknown>,
  Api = unknown,
  Codes extends string = string,
  Requires extends string = string,
  ConfigSchema extends JsonSchema = JsonSchema,
  Uses extends string = string,
> {
  /** Lower-case, `^[a-z][a-z0-9-]{0,63}$`; must match the registry entry's name. */
  readonly name: string;
  /** Reported by `gateway_status`, `/health` and `mcp-gateway plugins`. */
  readonly version: string;
  readonly description: string;
  /**
   * JSON Schema of the plugin's config section; defaults are applied, unknown keys refused.
   * Written inline or `as const`, it types `ctx.config`.
   */
  readonly configSchema?: ConfigSchema;
  /** Plugins that must be set up first; their APIs are reachable with `ctx.api(name)`. */
  readonly requires?: readonly Requires[];
  /**
   * Plugins this one works better with but does without (knowledge uses embeddings for vector
   * search): set up first when they are enabled and load, else skipped without a word. Their
   * APIs are `ctx.api(name)`, `undefined` when absent.
   */
  readonly uses?: readonly Uses[];
  /** The plugin's own error codes, added to the gateway's error table; `ctx.error` takes these and core's. */
  readonly errors?: Readonly<Record<Codes, ErrorSpec>>;
  /**
   * `mcp-gateway <plugin> ...` run on the config file alone, without starting the gateway (the
   * upstream plugin's `add|remove|list` of its servers). It answers every command line that
   * starts with the plugin's name, so a plugin that has one adds no `ctx.command` commands.
   */
  readonly configCommand?: ConfigCommandRunner;
  /**
   * The external services it calls, each through the circuit breaker `<plugin>:<name>`,
   * declared before setup (so /health lists it from the start); `ctx.breaker` takes no other.
   * The name `*` lets `ctx.breaker` take any service name the plugin gives at run time (the
   * servers of its config), each listed from its first use.
   */
  readonly services?: readonly ServiceDeclaration[];
  /**
   * The channels `ctx.notify.channel` may use, each `<plugin>.<name>`, announced to every
   * session in `initialize` (the experimental `claude/channel` capability).
   */
  readonly channels?: readonly string[];
  /** Registers tools and resolves when ready; its return value is the plugin's API. */
  setup(ctx: PluginContext<Config, Codes, Requires, Uses>): Api | Promise<Api>;
}

/**
 * The `ctx` a plugin's `setup` gets, read from what the plugin declares: its `configSchema`,
 * `errors`, `requires` and `uses`. `P` is the plugin (`typeof plugin`), or the declaration the
 * plugin is made from, which a helper that `setup` calls must use: the plugin's own type is
 * inferred from `setup`, so it cannot name itself there (docs/plugins/typed-contract.md).
 */
export type ContextOf<P> = PluginContext<
  ConfigType<P extends { readonly configSchema?: infer S } ? ([Exclude<S, undefined>] extends [never] ? Record<never, never> : Exclude<S, undefined>) : Record<never, never>>,
  CodesOf<P>,
  P extends { readonly requires?: readonly (infer R extends string)[] } ? R : never,
  P extends { readonly uses?: readonly (infer U extends string)[] } ? U : never
>;

/** The codes a plugin may raise, read from the plugin or its declaration: its own (the keys of its `errors`) and core's. */
export type ErrorsOf<P> = ErrorCodeOf<CodesOf<P>>;

type CodesOf<P> = P extends { readonly errors?: infer E } ? Extract<keyof Exclude<E, undefined>, string> : never;
