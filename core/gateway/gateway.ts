import { join } from 'node:path';
import { ApiKeys } from '../auth/api-keys.js';
import { AuditLog } from './audit.js';
import { BreakerRegistry } from '../runtime/breaker.js';
import type { GatewayConfig } from '../config/config.js';
import { ErrorTable, GatewayError, isGatewayError } from '../contract/errors.js';
import { EventBus } from '../lib/events.js';
import { Lifecycle } from '../runtime/lifecycle.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { TaskStore } from '../tasks/task-store.js';
import { Tasks } from '../tasks/tasks.js';
import { ListChangedNotices } from '../sessions/list-changed.js';
import { ListeningAddresses } from '../runtime/listening.js';
import type { CoreServices } from '../plugins/plugin-context.js';
import { loadOwnerKey, type OwnerKey } from '../auth/owner-key.js';
import { PluginHost } from '../plugins/plugin-host.js';
import { PluginCommands } from '../plugins/plugin-commands.js';
import { makePrivateDir } from '../fs/private-files.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../plugins/registry.js';
import { createSchemaCompiler } from '../lib/schema.js';
import { SessionRegistry } from '../sessions/sessions.js';
import { statusToolDefinition, type GatewayStatus } from './status-tool.js';
import { addToolSearch } from '../catalog/tool-search.js';
import type { ToolSearchIndex } from '../catalog/tool-search-index.js';
import { openDatabase, scheduleCheckpoints, type Database } from '../storage/storage.js';
import { SharedStore } from '../storage/shared-store.js';
import { GatewaySharing } from './gateway-sharing.js';
import { CallPipeline } from '../catalog/call-pipeline.js';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { Profiles } from '../catalog/profiles.js';
import { globToRegExp } from '../lib/glob.js';
import { PromptCatalog } from '../catalog/prompt-catalog.js';
import { ResourceCatalog } from '../catalog/resource-catalog.js';
import { ResourceSubscriptions } from '../sessions/resource-subscriptions.js';
import { PluginRouteTable } from '../plugins/plugin-route-table.js';
import { GATEWAY_VERSION } from '../lib/version.js';
import { createWorkspace } from '../fs/workspace.js';

export interface CreateGatewayOptions {
  config: GatewayConfig;
  log?: Logger;
  /** Registry folders to read instead of the built-in one (the config's extra folders are always read). */
  registryDirs?: readonly string[];
  /**
   * The process's lifecycle (`serve`, `--stdio`), which then owns the gateway and marks it
   * ready once its listeners are up. Without one the gateway makes its own, ready when
   * `createGateway` resolves.
   */
  lifecycle?: Lifecycle;
}

/** A booted gateway: its plugins set up and its catalog complete; transports attach to it. */
export interface Gateway {
  readonly config: GatewayConfig;
  readonly log: Logger;
  readonly version: string;
  /**
   * The one path of every call, whatever its kind and face (core/catalog/call-pipeline.ts):
   * where observers (audit, metrics) see each finished call and preconditions refuse them.
   */
  readonly calls: CallPipeline;
  readonly catalog: ToolCatalog;
  /** Every resource and resource template the plugins offer. */
  readonly resources: ResourceCatalog;
  /** Every prompt the plugins offer. */
  readonly prompts: PromptCatalog;
  /** The named subsets of the catalog, `all` and the config's (core/catalog/profiles.ts). */
  readonly profiles: Profiles;
  /** Which sessions subscribed to which resource URIs. */
  readonly subscriptions: ResourceSubscriptions;
  /** The HTTP routes, static folders and WebSocket routes plugins recorded (ctx.http). */
  readonly routes: PluginRouteTable;
  /** The CLI commands plugins recorded (ctx.command), for `mcp-gateway <plugin> <command>`. */
  readonly commands: PluginCommands;
  readonly errors: ErrorTable;
  readonly events: EventBus;
  readonly sessions: SessionRegistry;
  readonly breakers: BreakerRegistry;
  readonly plugins: PluginHost;
  readonly db: Database;
  /** The shared store (`ctx.store`): `<dataDir>/shared.db` or PostgreSQL, per `storage.shared`. */
  readonly store: SharedStore;
  /** Events, audit rows and API keys shared with the other gateways on a PostgreSQL store. */
  readonly sharing: GatewaySharing;
  /** The API keys network transports accept (`keys.required` is false with `auth: none`). */
  readonly keys: ApiKeys;
  /** The owner key in dataDir, with `auth: key`. */
  readonly ownerKey: OwnerKey | undefined;
  /** The audit log when `tools.audit` is on; `flush()` it before reading `core_audit`. */
  readonly audit: AuditLog | undefined;
  /** Aborted when shutdown begins. */
  readonly signal: AbortSignal;
  /** The addresses the gateway's listeners are bound to (none until `serve` starts them). */
  readonly listening: ListeningAddresses;
  /** The owner of start-up and shutdown; every listener starts through it (lifecycle.ts). */
  readonly lifecycle: Lifecycle;
  /** Run-time changes of the tool, resource and prompt lists, as MCP clients hear of them. */
  readonly listChanges: ListChangedNotices;
  /** The MCP tasks of every session (core/tasks/), shared with the other gateways of the store. */
  readonly tasks: Tasks;
  /** The notification channels the loaded plugins declare (their plugin objects' `channels`), sorted. */
  readonly channels: readonly string[];
  status(): GatewayStatus;
  /**
   * Shuts the lifecycle down: closes the listeners started on it, then cancels running calls,
   * runs plugin closers in reverse order and closes the database.
   */
  close(): Promise<void>;
}

function openWorkspace(config: GatewayConfig) {
  try {
    // The gateway's own config and data are never the tools' to change (issue 19).
    const own = [config.dataDir, ...(config.file ? [config.file] : [])];
    return createWorkspace(config.workspace, { protectedPaths: [...config.protectedPaths, ...own], refuseHardLinks: config.refuseHardLinks });
  } catch (err) {
    throw new GatewayError(
      'CONFIG_INVALID',
      `${config.file ?? '(default configuration)'}: workspace: ${config.workspace} cannot be used (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); point it at an existing directory.`,
      { cause: err },
    );
  }
}

/**
 * Boots a gateway as the first part of its lifecycle: a shutdown during the boot stops it at
 * its next step (or its plugin's setup), closes what it had opened and rejects with
 * SHUTTING_DOWN.
 */
export async function createGateway(options: CreateGatewayOptions): Promise<Gateway> {
  const lifecycle = options.lifecycle ?? new Lifecycle({ log: options.log, pauseAt: '' });
  const { gateway } = await lifecycle.start('gateway', () => bootGateway(options, lifecycle), (booted) => booted.closeOwn());
  if (!options.lifecycle) lifecycle.ready();
  return gateway;
}

/** The boot itself; `closeOwn` closes the gateway's own resources (the lifecycle's part close). */
async function bootGateway(options: CreateGatewayOptions, lifecycle: Lifecycle): Promise<{ gateway: Gateway; closeOwn(): Promise<void> }> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const bootStarted = performance.now();
  // Before the database opens: a bad workspace must not leave a handle behind.
  const workspace = openWorkspace(config);
  await lifecycle.checkpoint('workspace-opened');
  makePrivateDir(config.dataDir);
  const ownerKey = config.auth === 'key' ? loadOwnerKey(config.dataDir) : undefined;
  const keys = new ApiKeys(config.apiKeys, ownerKey?.key);
  await lifecycle.checkpoint('data-dir-ready');
  const shutdown = new AbortController();
  // A shutdown during the boot reaches the plugins (ctx.signal) and cuts a setup short.
  const abortBoot = () => shutdown.abort();
  lifecycle.signal.addEventListener('abort', abortBoot, { once: true });
  // First, and before gateway.db opens: an unreachable PostgreSQL stops the boot with
  // nothing else to undo.
  const store = await SharedStore.open(config.storage, { dataDir: config.dataDir, log, configWhere: config.file ?? '(default configuration)' });
  let db: Database;
  let taskStore: TaskStore;
  try {
    taskStore = await TaskStore.open(store);
    db = openDatabase(join(config.dataDir, 'gateway.db'));
  } catch (err) {
    await store.close();
    throw err;
  }
  const stopCheckpoints = scheduleCheckpoints(db);
  const errors = new ErrorTable();
  // One compiler for tool arguments, resource template variables and prompt arguments, so that
  // all three accept and refuse alike.
  const ajv = createSchemaCompiler({ useDefaults: true, log });
  const pipelineOptions = { errors, log, defaultTimeoutMs: config.tools.timeoutMs, shutdownSignal: shutdown.signal, closingSignal: lifecycle.signal };
  const calls = new CallPipeline(pipelineOptions);
  const catalog = new ToolCatalog({ ...pipelineOptions, ajv, pipeline: calls, listing: config.tools.listing, excludes: pluginExclusions(config) });
  const profiles = new Profiles(config.profiles, config.defaultProfile, catalog);
  const resources = new ResourceCatalog({ ...pipelineOptions, ajv, pipeline: calls });
  const prompts = new PromptCatalog({ ...pipelineOptions, ajv, pipeline: calls });
  const subscriptions = new ResourceSubscriptions();
  // A caller's mistake (a 4xx code) says nothing about a service's health.
  const isCallerError = (err: unknown) => isGatewayError(err) && (errors.get(err.code)?.status ?? 500) < 500;
  const breakers = new BreakerRegistry(config.breakers, log, isCallerError);
  const routes = new PluginRouteTable({ ajv, log, defaultTimeoutMs: config.tools.timeoutMs });
  const commands = new PluginCommands();
  const events = new EventBus(log);
  const tasks = new Tasks(taskStore, events, log);
  const sessions = new SessionRegistry();
  const listening = new ListeningAddresses();
  // Run-time catalog changes reach every session; at boot there is none yet to tell.
  const listChanges = new ListChangedNotices(sessions);
  // Only changes after the boot are news: the plugins' setup entries are what a session
  // lists first (--stdio may already hold an initialized session while they join).
  let booted = false;
  catalog.onChange(() => booted && listChanges.changed('tools'));
  let channels: readonly string[] = [];
  resources.onChange(() => booted && listChanges.changed('resources'));
  prompts.onChange(() => booted && listChanges.changed('prompts'));
  const core: CoreServices = {
    log,
    catalog,
    resources,
    prompts,
    subscriptions,
    breakers,
    db,
    store,
    events,
    errors,
    workspace,
    dataDir: config.dataDir,
    signal: shutdown.signal,
    sessions,
    listening,
    routes,
    commands,
  };
  const plugins = new PluginHost(core, config);
  const startedAt = Date.now();
  const sharing = new GatewaySharing({ store, events, keys, db, audit: config.tools.audit, log });
  let audit: AuditLog | undefined;
  let toolSearch: ToolSearchIndex | undefined;
  let closing: Promise<void> | undefined;
  const closeAll = async () => {
    shutdown.abort();
    try {
      await calls.drain();
      await toolSearch?.close();
      await plugins.close();
    } finally {
      breakers.shutdown();
      stopCheckpoints();
      try {
        audit?.close();
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        try {
          await tasks.close();
          await sharing.close();
          db.close();
        } finally {
          await store.close();
        }
      }
    }
  };

  const closeOwn = () => (closing ??= closeAll());
  const gateway: Gateway = {
    config,
    log,
    version: GATEWAY_VERSION,
    calls,
    catalog,
    resources,
    prompts,
    profiles,
    subscriptions,
    listChanges,
    routes,
    commands,
    errors,
    events,
    sessions,
    breakers,
    plugins,
    db,
    store,
    sharing,
    keys,
    ownerKey,
    get audit() {
      return audit;
    },
    signal: shutdown.signal,
    listening,
    lifecycle,
    tasks,
    get channels() {
      return channels;
    },
    status: () => ({
      state: lifecycle.state,
      version: GATEWAY_VERSION,
      uptimeS: Math.round((Date.now() - startedAt) / 1000),
      plugins: plugins.loaded.map(({ name, version, tools, report }) => {
        const status = report();
        return { name, version, tools: [...tools], ...(status ? { status } : {}) };
      }),
      skippedPlugins: [...plugins.skipped],
      toolCount: catalog.size,
      breakers: breakers.list(),
      sessions: sessions.countByTransport(),
      ...(audit ? { audit: audit.state } : {}),
      store: { dialect: store.dialect, vectors: store.vectors.engine, ...(store.vectors.reason ? { vectorsReason: store.vectors.reason } : {}), ...store.health.last },
    }),
    close: () => lifecycle.close('close()'),
  };

  try {
    await lifecycle.checkpoint('database-opened');
    // Before any plugin: folding in the journals a killed process left is part of opening
    // the database, and every call from here on has its row.
    if (config.tools.audit) {
      const auditLog = new AuditLog(db, { retentionDays: config.tools.auditRetentionDays, failOpen: config.tools.auditFailOpen, log });
      audit = auditLog;
      calls.require(() => auditLog.availability());
      calls.observe((call) => auditLog.record(call));
      await lifecycle.checkpoint('audit-opened');
    }
    if (await sharing.start()) await lifecycle.checkpoint('sharing-started');
    // The store's health as of now (a cached probe), like /health's; the rest is read at once.
    catalog.add([catalog.prepare('gateway', statusToolDefinition, async () => (await store.health.check(), gateway.status()))]);
    if (config.tools.search) toolSearch = addToolSearch(catalog);
    await lifecycle.checkpoint('registry-reading');
    const registry = loadRegistry([...(options.registryDirs ?? [BUILTIN_REGISTRY_DIR]), ...config.registries]);
    await lifecycle.checkpoint('registry-read');
    await plugins.start(registry, (point) => lifecycle.checkpoint(point));
    channels = plugins.loaded.flatMap((plugin) => plugin.channels).sort();
    booted = true;
    for (const { profile, unmatched } of profiles.unmatched()) {
      log.warn({ profile, unmatched }, `profile ${profile}: ${unmatched.join(', ')} match no tool of the catalog`);
    }
    await lifecycle.checkpoint('plugins-ready');
  } catch (err) {
    // Not lifecycle.close(): that waits for this boot to settle.
    await closeOwn().catch(() => {});
    throw err;
  } finally {
    lifecycle.signal.removeEventListener('abort', abortBoot);
  }

  log.info(
    {
      plugins: plugins.loaded.map((p) => ({ name: p.name, tools: p.tools.length, setupMs: Math.round(p.setupMs) })),
      skipped: plugins.skipped.map((s) => s.name),
      tools: catalog.size,
      store: store.where,
      bootMs: Math.round(performance.now() - bootStarted),
    },
    'gateway ready',
  );
  catalog.compileInBackground();
  await lifecycle.checkpoint('gateway-ready').catch(async (err: unknown) => {
    await closeOwn().catch(() => {});
    throw err;
  });
  return { gateway, closeOwn };
}

/** `plugins.<name>.exclude`: the tools of each plugin the config turns off. */
function pluginExclusions(config: GatewayConfig): ((plugin: string, tool: string) => boolean) | undefined {
  const byPlugin = new Map(
    Object.entries(config.plugins)
      .filter(([, settings]) => settings.exclude?.length)
      .map(([plugin, settings]) => [plugin, settings.exclude!.map(globToRegExp)] as const),
  );
  if (byPlugin.size === 0) return undefined;
  return (plugin, tool) => byPlugin.get(plugin)?.some((glob) => glob.test(tool)) ?? false;
}
