import { deepFreeze, type GatewayConfig } from '../config/config.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { orderByRequirements } from './load-order.js';
import { createPluginScope, type CoreServices, type PluginScope } from './plugin-context.js';
import { PluginLifetimes } from './plugin-lifetimes.js';
import { importPlugin } from './plugin-module.js';
import { checkPluginConfig } from './plugin-config.js';
import type { PluginDefinition, PluginStatus } from '../contract/plugin-types.js';
import type { RegistryEntry } from './registry.js';
import { createSchemaCompiler } from '../lib/schema.js';

export interface LoadedPlugin {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** Its notification channels (`PluginDefinition.channels`), announced in `initialize`. */
  readonly channels: readonly string[];
  readonly tools: readonly string[];
  /** URIs and templates of the resources the plugin recorded during setup. */
  readonly resources: readonly string[];
  /** Names of the prompts the plugin recorded during setup. */
  readonly prompts: readonly string[];
  /** Names of the CLI commands the plugin recorded during setup (ctx.command). */
  readonly commands: readonly string[];
  readonly setupMs: number;
  /** The plugin's own state (`ctx.reportStatus`); absent when it reports none. */
  readonly report: () => PluginStatus | undefined;
  /** The gauges of its report as the plugin gave them, unchecked (/metrics checks them). */
  readonly gauges: () => unknown;
}

export interface SkippedPlugin {
  readonly name: string;
  readonly code: string;
  readonly reason: string;
}

interface Candidate {
  entry: RegistryEntry;
  optional: boolean;
  config: Readonly<Record<string, unknown>>;
  definition?: PluginDefinition;
}

/**
 * Loads the enabled plugins in dependency order and closes them in reverse. A failing plugin
 * stops the boot with an error naming it, unless it is optional: then it is skipped with a
 * logged error. A plugin that requires a skipped one fails in turn (skipped if optional too).
 */
export class PluginHost {
  readonly #core: CoreServices;
  readonly #config: GatewayConfig;
  readonly #loaded: Array<LoadedPlugin & { closers: Array<() => unknown> }> = [];
  readonly #skipped: SkippedPlugin[] = [];
  readonly #apis = new Map<string, unknown>();
  readonly #configAjv = createSchemaCompiler({ useDefaults: true, coerceTypes: true, allErrors: true });
  readonly #lifetimes: PluginLifetimes;

  constructor(core: CoreServices, config: GatewayConfig) {
    this.#core = core;
    this.#config = config;
    this.#lifetimes = new PluginLifetimes(core.signal);
  }

  /** The plugins set up, each with its tools as they are now (run-time changes included). */
  get loaded(): readonly LoadedPlugin[] {
    const toolsOf = new Map<string, string[]>();
    for (const tool of this.#core.catalog.list()) {
      const names = toolsOf.get(tool.plugin);
      if (names) names.push(tool.listing.name);
      else toolsOf.set(tool.plugin, [tool.listing.name]);
    }
    return this.#loaded.map(({ closers: _, ...plugin }) => ({ ...plugin, tools: toolsOf.get(plugin.name) ?? [] }));
  }

  get skipped(): readonly SkippedPlugin[] {
    return this.#skipped;
  }

  /**
   * Imports and sets up the enabled plugins. `checkpoint` runs between steps (the lifecycle's:
   * it throws once a shutdown has begun, which ends the start there).
   */
  async start(registry: ReadonlyMap<string, RegistryEntry>, checkpoint: (point: string) => Promise<void> = async () => {}): Promise<void> {
    const candidates = enabledCandidates(registry, this.#config);
    for (const candidate of candidates.values()) {
      await this.#attempt(candidate, () => this.#import(candidate));
    }
    await checkpoint('plugins-imported');
    const importable = [...candidates.values()].filter((c) => c.definition);
    const present = new Set(importable.map((c) => c.entry.name));
    // A used plugin that is here is set up first, like a required one; one that is not is no error.
    const { order, missing } = orderByRequirements(
      importable.map((c) => ({ name: c.entry.name, requires: [...requirementsOf(c), ...usesOf(c).filter((u) => present.has(u))] })),
    );
    for (const name of order) {
      const candidate = candidates.get(name)!;
      await checkpoint(`plugin-setup:${name}`);
      await this.#attempt(candidate, async () => {
        const unmet = [...(missing.get(name) ?? []), ...requirementsOf(candidate).filter((r) => !this.#apis.has(r))];
        if (unmet.length > 0) {
          throw new GatewayError(
            'PLUGIN_DEPENDENCY',
            `Plugin "${name}" requires ${[...new Set(unmet)].map((r) => `"${r}"`).join(', ')}, which is not enabled or failed to load.`,
          );
        }
        await this.#setup(candidate);
      });
    }
  }

  /** Runs every closer, newest plugin first, within the shutdown budget. */
  async close(): Promise<void> {
    const deadline = Date.now() + this.#config.shutdownTimeoutMs;
    for (const plugin of [...this.#loaded].reverse()) {
      await runClosers(plugin.name, plugin.closers, deadline, this.#core);
    }
    this.#loaded.length = 0;
  }

  async #attempt(candidate: Candidate, step: () => Promise<void>): Promise<void> {
    if (this.#skipped.some((s) => s.name === candidate.entry.name)) return;
    try {
      await step();
    } catch (err) {
      const error = asPluginError(candidate.entry, err);
      // An optional plugin is skipped, unless the boot is being stopped anyway.
      if (!candidate.optional || this.#core.signal.aborted) throw error;
      this.#core.log.error({ plugin: candidate.entry.name, code: error.code, err: error }, 'optional plugin skipped');
      this.#skipped.push({ name: candidate.entry.name, code: error.code, reason: error.message });
    }
  }

  async #import(candidate: Candidate): Promise<void> {
    const definition = await importPlugin(candidate.entry);
    if (definition.errors) this.#core.errors.add(definition.name, definition.errors);
    candidate.definition = definition;
  }

  async #setup(candidate: Candidate): Promise<void> {
    const definition = candidate.definition!;
    const name = definition.name;
    const config = this.#validatePluginConfig(candidate);
    // Before setup, so /health lists them from the start; the first ctx.breaker builds each.
    const services = (definition.services ?? []).map((s) => `${name}:${s.name}`);
    for (const service of services) this.#core.breakers.declare(service);
    const scope = createPluginScope(name, config, [...requirementsOf(candidate), ...usesOf(candidate)], this.#apis, this.#core, definition.channels ?? [], this.#lifetimes.begin());
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new GatewayError('PLUGIN_SETUP_TIMEOUT', `Plugin "${name}" did not finish setup within ${this.#config.setupTimeoutMs} ms.`)),
        this.#config.setupTimeoutMs,
      );
    });
    // A shutdown during the boot does not wait for a setup that ignores ctx.signal.
    const { signal } = this.#core;
    let onAbort: (() => void) | undefined;
    const shutdown = new Promise<never>((_, reject) => {
      onAbort = () => reject(new GatewayError('SHUTTING_DOWN', `The gateway is shutting down; plugin "${name}" was stopped during its setup.`));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    let api: unknown;
    try {
      api = await Promise.race([Promise.resolve().then(() => definition.setup(scope.ctx)), timeout, shutdown]);
      scope.endSetup();
      if (definition.configCommand && scope.commands.length > 0) {
        const names = scope.commands.map((c) => c.definition.name).join(', ');
        throw new GatewayError('COMMAND_DEFINITION_INVALID', `Plugin "${name}" has a configCommand, which answers every \`mcp-gateway ${name} ...\`, so its commands (${names}) could never run: keep one or the other.`);
      }
      // All of the plugin's entries join, or none: resources and prompts first, as they can
      // be taken back if its tools clash.
      const undoContent = scope.content.commit();
      try {
        this.#core.catalog.add(scope.tools);
        this.#core.routes.add(scope.routes.seal());
      } catch (err) {
        undoContent();
        throw err;
      }
      // Last, as nothing can refuse them: command names are the plugin's own.
      this.#core.commands.add(scope.commands);
    } catch (err) {
      scope.endSetup();
      scope.routes.seal();
      this.#core.breakers.retract(services);
      scope.abort(err);
      await runClosers(name, scope.closers, Date.now() + this.#config.shutdownTimeoutMs, this.#core);
      throw err;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort!);
    }
    this.#apis.set(name, api);
    this.#loaded.push(loadedRecord(definition, scope, performance.now() - started));
  }

  #validatePluginConfig(candidate: Candidate): Readonly<Record<string, unknown>> {
    const { definition, entry } = candidate;
    const checked = checkPluginConfig(entry.name, definition?.configSchema, candidate.config, this.#configAjv);
    if ('problem' in checked) throw configError(this.#config, checked.problem);
    return deepFreeze(checked.data);
  }
}

function enabledCandidates(registry: ReadonlyMap<string, RegistryEntry>, config: GatewayConfig): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const [name, settings] of Object.entries(config.plugins)) {
    const entry = registry.get(name);
    if (!entry) {
      const known = [...registry.keys()].sort().join(', ') || '(none)';
      throw new GatewayError('CONFIG_INVALID', `${config.file ?? '(default configuration)'}: plugins.${name}: no plugin "${name}" in the registry. Known plugins: ${known}.`);
    }
    if (!settings.enabled) continue;
    candidates.set(name, { entry, optional: settings.optional ?? entry.optional, config: settings.config });
  }
  return candidates;
}

/** The plugin object is the one source of what a plugin requires (the registry no longer says). */
function requirementsOf(candidate: Candidate): string[] {
  return [...new Set(candidate.definition?.requires ?? [])];
}

/** The plugins it works with when they are there (`uses`), never the ones it requires too. */
function usesOf(candidate: Candidate): string[] {
  const requires = requirementsOf(candidate);
  return [...new Set(candidate.definition?.uses ?? [])].filter((u) => !requires.includes(u));
}

function asPluginError(entry: RegistryEntry, err: unknown): GatewayError {
  if (isGatewayError(err)) return err;
  return new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${entry.name}" failed during setup: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

function configError(config: GatewayConfig, message: string): GatewayError {
  return new GatewayError('CONFIG_INVALID', `${config.file ?? '(default configuration)'}: ${message}`);
}

function loadedRecord(definition: PluginDefinition, scope: PluginScope, setupMs: number) {
  return {
    name: definition.name,
    version: definition.version,
    description: definition.description,
    channels: definition.channels ?? [],
    tools: scope.tools.map((t) => t.listing.name),
    resources: scope.content.resources.map((r) => r.key),
    prompts: scope.content.prompts.map((p) => p.listing.name),
    commands: scope.commands.map((c) => c.definition.name),
    setupMs,
    report: scope.report,
    gauges: scope.gauges,
    closers: scope.closers,
  };
}

async function runClosers(plugin: string, closers: Array<() => unknown>, deadline: number, core: CoreServices): Promise<void> {
  for (const closer of [...closers].reverse()) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(closer),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`closer did not finish within the shutdown budget`)), Math.max(left, 1));
        }),
      ]);
    } catch (err) {
      core.log.error({ plugin, err }, 'plugin closer failed');
    } finally {
      clearTimeout(timer);
    }
  }
}
