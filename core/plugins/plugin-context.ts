import { join } from 'node:path';
import type { BreakerRegistry } from '../runtime/breaker.js';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import type { EventBus } from '../lib/events.js';
import type { ListeningAddresses } from '../runtime/listening.js';
import type { Logger } from '../lib/logger.js';
import type { PluginContext, PluginReport, PluginSessions, PluginStatus, ToolDefinition, ToolHandler } from '../contract/plugin-types.js';
import { isJsonSerialisable } from '../lib/json.js';
import { createLiveEntries } from './plugin-live.js';
import type { PluginLifetime } from './plugin-lifetimes.js';
import { createNotifier } from '../sessions/notifier.js';
import type { SessionRegistry } from '../sessions/sessions.js';
import { makePrivateDir } from '../fs/private-files.js';
import { migrate, type Database } from '../storage/storage.js';
import type { SharedStore } from '../storage/shared-store.js';
import type { RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import type { PluginRouteTable, RouteRecorder } from './plugin-route-table.js';
import type { Workspace } from '../contract/workspace-types.js';
import { createContentScope, type ContentScope, type ContentServices } from './content-context.js';
import { prepareCommand, type PluginCommands, type RegisteredCommand } from './plugin-commands.js';

/** What core hands to every plugin context. */
export interface CoreServices extends ContentServices {
  readonly log: Logger;
  readonly catalog: ToolCatalog;
  readonly breakers: BreakerRegistry;
  readonly db: Database;
  readonly store: SharedStore;
  readonly events: EventBus;
  readonly workspace: Workspace;
  readonly errors: ErrorTable;
  readonly dataDir: string;
  readonly signal: AbortSignal;
  /** The open MCP sessions, which `ctx.notify` addresses. */
  readonly sessions: SessionRegistry;
  /** Where the gateway's listeners are bound (`ctx.listening()`). */
  readonly listening: ListeningAddresses;
  /** Plugin HTTP routes, mounted by the HTTP face (ctx.http). */
  readonly routes: PluginRouteTable;
  /** Plugin CLI commands, run by `mcp-gateway <plugin> <command>` (ctx.command). */
  readonly commands: PluginCommands;
}

/** A plugin's context plus what the host needs back from it after setup. */
export interface PluginScope {
  readonly ctx: PluginContext;
  /** Tools recorded during setup, added to the catalog only if setup succeeds. */
  readonly tools: RegisteredTool[];
  /** HTTP routes recorded during setup (ctx.http); sealed and added to the table if setup succeeds. */
  readonly routes: RouteRecorder;
  /** Cleanup, in registration order. */
  readonly closers: Array<() => unknown>;
  /** Resources and prompts recorded during setup, and their commit to the catalogs. */
  readonly content: ContentScope;
  /** CLI commands recorded during setup (ctx.command), added to core's only if setup succeeds. */
  readonly commands: RegisteredCommand[];
  /** Aborts `ctx.signal`: the plugin's setup failed or timed out and it is being discarded. */
  abort(reason: unknown): void;
  /** Setup resolved or failed: from now on `ctx.tool` throws PLUGIN_SETUP_OVER. */
  endSetup(): void;
  /** The plugin's own state, from the function it gave `ctx.reportStatus`; absent if it gave none. */
  report(): PluginStatus | undefined;
  /** The `gauges` of the plugin's report as it gave them, for /metrics to check; absent if none. */
  gauges(): unknown;
}

export function createPluginScope(
  name: string,
  config: Readonly<Record<string, unknown>>,
  /** The plugins named in `requires` and `uses`: the names `ctx.api` takes. */
  dependencies: readonly string[],
  apis: ReadonlyMap<string, unknown>,
  core: CoreServices,
  /** The channels the plugin object declares, for `ctx.notify.channel`. */
  channels: readonly string[],
  /** The plugin's own signal: shutdown, or its setup failing (a timed-out setup may still run). */
  lifetime: PluginLifetime,
): PluginScope {
  const tools: RegisteredTool[] = [];
  const commands: RegisteredCommand[] = [];
  const closers: Array<() => unknown> = [];
  closers.push(() => lifetime.release());
  const log = core.log.child({ plugin: name });
  const dataDir = join(core.dataDir, 'plugins', name);
  makePrivateDir(dataDir);
  let setupOver = false;
  let reporter: (() => PluginReport) | undefined;
  const content = createContentScope(name, core, () => setupOver);
  const live = createLiveEntries(name, core, () => lifetime.signal.aborted);
  closers.push(() => live.removeAll());
  const routes = core.routes.recorder(name);

  const ctx: PluginContext = {
    name,
    config,
    log,
    dataDir,
    signal: lifetime.signal,
    workspace: core.workspace,
    listening: () => core.listening.list(),
    tool(definition: ToolDefinition, handler: ToolHandler<never>) {
      // Never dropped in silence: a tool recorded now would never join the catalog.
      if (setupOver) {
        throw new GatewayError(
          'PLUGIN_SETUP_OVER',
          `Plugin "${name}" called ctx.tool("${String(definition?.name)}") after its setup was over; use ctx.live.tool(...) to add tools at run time.`,
        );
      }
      const tool = core.catalog.prepare(name, definition, handler);
      if (tools.some((t) => t.listing.name === tool.listing.name)) {
        throw new GatewayError('TOOL_DEFINITION_INVALID', `Plugin "${name}" records tool "${tool.listing.name}" twice.`);
      }
      tools.push(tool);
    },
    live: live.api,
    notify: createNotifier(core.sessions, name, channels),
    sessions: pluginSessions(core.sessions, log, lifetime.signal, closers),
    http: routes.http,
    breaker(service, options) {
      return core.breakers.forService(name, service, options);
    },
    db: {
      sqlite: core.db,
      migrate: (migrations) => {
        migrate(core.db, name, migrations);
      },
    },
    store: core.store.forPlugin(name),
    events: {
      publish: (channel, data) => core.events.publish(name, channel, data),
      subscribe: (pattern, handler) => {
        // A plugin being discarded (failed or timed-out setup, or shutdown) gets no new
        // subscriptions: its closers have run or are running, and would miss this one.
        if (lifetime.signal.aborted) return () => {};
        const unsubscribe = core.events.subscribe(pattern, handler);
        closers.push(unsubscribe);
        return unsubscribe;
      },
    },
    onClose(closer) {
      // Registered after the plugin was discarded: nothing else would ever run it.
      if (lifetime.signal.aborted) {
        Promise.resolve()
          .then(closer)
          .catch((err: unknown) => log.error({ err }, 'plugin closer failed'));
        return;
      }
      closers.push(closer);
    },
    api<T>(plugin: string): T {
      if (!dependencies.includes(plugin)) {
        throw new GatewayError('PLUGIN_DEPENDENCY', `Plugin "${name}" asked for the API of "${plugin}" without listing it in requires or uses.`);
      }
      return apis.get(plugin) as T;
    },
    error(code, message, details) {
      const owner = core.errors.get(code)?.owner;
      if (owner !== name && owner !== 'core') {
        throw new GatewayError('INTERNAL_ERROR', `Plugin "${name}" raised error code "${code}", which it does not declare in its errors.`);
      }
      return new GatewayError(code, message, { details });
    },
    command(definition, run) {
      if (setupOver) {
        throw new GatewayError(
          'PLUGIN_SETUP_OVER',
          `Plugin "${name}" called ctx.command("${String(definition?.name)}") after its setup was over: commands are recorded in setup only.`,
        );
      }
      const command = prepareCommand(name, definition, run);
      if (commands.some((c) => c.definition.name === command.definition.name)) {
        throw new GatewayError('COMMAND_DEFINITION_INVALID', `Plugin "${name}" records command "${command.definition.name}" twice.`);
      }
      commands.push(command);
    },
    reportStatus(report) {
      if (typeof report !== 'function') throw new TypeError(`Plugin "${name}": ctx.reportStatus takes a function.`);
      reporter = report;
    },
    ...content.ctx,
  };
  return {
    ctx,
    tools,
    closers,
    content,
    commands,
    routes,
    abort: (reason) => lifetime.abort(reason),
    endSetup: () => {
      setupOver = true;
    },
    report: () => (reporter ? safeReport(reporter, log) : undefined),
    gauges: () => (reporter ? reportedGauges(reporter, log) : undefined),
  };
}

/** A plugin's report, or `{ok: false}` with the reason when its function throws or gives no JSON object. */
function safeReport(reporter: () => PluginReport, log: Logger): PluginStatus {
  try {
    const report = reporter();
    if (typeof report !== 'object' || report === null || typeof report.ok !== 'boolean') throw new TypeError('the report must be {ok: boolean, detail?: object}');
    if (report.detail !== undefined && (typeof report.detail !== 'object' || report.detail === null || !isJsonSerialisable(report.detail))) {
      throw new TypeError('detail must be a JSON object');
    }
    return { ok: report.ok, ...(report.detail === undefined ? {} : { detail: report.detail }) };
  } catch (err) {
    log.error({ err }, 'status report failed');
    return { ok: false, detail: { error: `The plugin's status report failed: ${(err as Error).message}` } };
  }
}

/** What a report gives under `gauges`, unchecked; nothing when the report throws (logged, as for status). */
function reportedGauges(reporter: () => PluginReport, log: Logger): unknown {
  try {
    return (reporter() as Partial<PluginReport> | null | undefined)?.gauges;
  } catch (err) {
    log.error({ err }, 'status report failed');
    return undefined;
  }
}

/** `ctx.sessions`: the registry seen through one plugin, whose throwing handlers are logged, not passed on. */
function pluginSessions(sessions: SessionRegistry, log: Logger, lifetime: AbortSignal, closers: Array<() => unknown>): PluginSessions {
  return {
    isOpen: (id) => sessions.get(id) !== undefined,
    onClose(handler) {
      if (lifetime.aborted) return () => {};
      const unsubscribe = sessions.onClose((id) => {
        try {
          handler(id);
        } catch (err) {
          log.error({ err }, 'a session-close handler failed');
        }
      });
      closers.push(unsubscribe);
      return unsubscribe;
    },
    resultNote(note) {
      if (typeof note !== 'function') throw new TypeError('ctx.sessions.resultNote takes a function.');
      // A plugin that closed (shutdown, failed setup) adds nothing more.
      sessions.addResultNote((caller, tool) => {
        if (lifetime.aborted) return undefined;
        try {
          const line = note(caller, tool);
          return typeof line === 'string' ? line : undefined;
        } catch (err) {
          log.error({ err, tool }, 'a result note failed');
          return undefined;
        }
      });
    },
  };
}
