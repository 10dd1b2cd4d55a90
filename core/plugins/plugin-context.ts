import { join } from 'node:path';
import type { BreakerRegistry } from '../breaker.js';
import { GatewayError, type ErrorTable } from '../errors.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import type { PluginContext, ToolDefinition, ToolHandler } from './plugin-types.js';
import { makePrivateDir } from '../private-files.js';
import { migrate, type Database } from '../storage/storage.js';
import type { RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import type { Workspace } from '../workspace.js';

/** What core hands to every plugin context. */
export interface CoreServices {
  readonly log: Logger;
  readonly catalog: ToolCatalog;
  readonly breakers: BreakerRegistry;
  readonly db: Database;
  readonly events: EventBus;
  readonly workspace: Workspace;
  readonly errors: ErrorTable;
  readonly dataDir: string;
  readonly signal: AbortSignal;
}

/** A plugin's context plus what the host needs back from it after setup. */
export interface PluginScope {
  readonly ctx: PluginContext;
  /** Tools recorded during setup, added to the catalog only if setup succeeds. */
  readonly tools: RegisteredTool[];
  /** Cleanup, in registration order. */
  readonly closers: Array<() => unknown>;
  /** Aborts `ctx.signal`: the plugin's setup failed or timed out and it is being discarded. */
  abort(reason: unknown): void;
}

export function createPluginScope(
  name: string,
  config: Readonly<Record<string, unknown>>,
  requires: readonly string[],
  apis: ReadonlyMap<string, unknown>,
  core: CoreServices,
): PluginScope {
  const tools: RegisteredTool[] = [];
  const closers: Array<() => unknown> = [];
  // The plugin's own signal: shutdown, or its setup failing (a timed-out setup may still run).
  const lifetime = new AbortController();
  const onShutdown = () => lifetime.abort(core.signal.reason);
  core.signal.addEventListener('abort', onShutdown, { once: true });
  closers.push(() => core.signal.removeEventListener('abort', onShutdown));
  const log = core.log.child({ plugin: name });
  const dataDir = join(core.dataDir, 'plugins', name);
  makePrivateDir(dataDir);

  const ctx: PluginContext = {
    name,
    config,
    log,
    dataDir,
    signal: lifetime.signal,
    workspace: core.workspace,
    tool(definition: ToolDefinition, handler: ToolHandler<never>) {
      const tool = core.catalog.prepare(name, definition, handler);
      if (tools.some((t) => t.listing.name === tool.listing.name)) {
        throw new GatewayError('TOOL_DEFINITION_INVALID', `Plugin "${name}" records tool "${tool.listing.name}" twice.`);
      }
      tools.push(tool);
    },
    breaker(service, options) {
      return core.breakers.forService(name, service, options);
    },
    db: {
      sqlite: core.db,
      migrate: (migrations) => {
        migrate(core.db, name, migrations);
      },
    },
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
      if (!requires.includes(plugin)) {
        throw new GatewayError('PLUGIN_DEPENDENCY', `Plugin "${name}" asked for the API of "${plugin}" without listing it in requires.`);
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
  };
  return { ctx, tools, closers, abort: (reason) => lifetime.abort(reason) };
}
