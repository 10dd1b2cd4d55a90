import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GatewayError } from '../contract/errors.js';
import type { PluginDefinition } from '../contract/plugin-types.js';
import type { RegistryEntry } from './registry.js';
import { SERVICE_NAME } from '../runtime/breaker.js';

const PLUGIN_NAME = /^[a-z][a-z0-9-]{0,63}$/;
/** `<plugin>.<word>[.<word>…]`: the prefix makes every channel's owner plain and names unique. */
const CHANNEL_NAME = /^[a-z][a-z0-9-]{0,63}(\.[a-z0-9_-]{1,64}){1,4}$/;

/**
 * Imports the module a registry entry names and checks the plugin object it exports, without
 * setting it up: the host does so before a boot, the CLI before a plugin's config command.
 * Throws PLUGIN_LOAD_FAILED saying what to fix.
 */
export async function importPlugin(entry: RegistryEntry): Promise<PluginDefinition> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(entry.module)) as Record<string, unknown>;
  } catch (err) {
    const hint = typeScriptOnly(entry.module)
      ? ' It exists only as TypeScript: compile it, or run the gateway with `node --import tsx`.'
      : packageMissing(entry.module, err)
        ? ` Install it beside the gateway: npm install ${entry.module}.`
        : '';
    throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${entry.name}" (${entry.file}): cannot import ${entry.module}: ${(err as Error).message}.${hint}`, { cause: err });
  }
  const definition = (mod.default ?? mod.plugin) as PluginDefinition | undefined;
  if (typeof definition !== 'object' || definition === null || typeof definition.setup !== 'function') {
    throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${entry.name}": ${entry.module} must export a definePlugin(...) object as default.`);
  }
  if (definition.name !== entry.name) {
    throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${entry.name}": the module calls itself "${definition.name}"; the registry entry ${entry.file} and the module must agree.`);
  }
  const problem = metadataProblem(definition);
  if (problem) throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${entry.name}" (${entry.module}): ${problem}`);
  return definition;
}

/** A `.js` module path whose file is missing but whose `.ts` source is there. */
function typeScriptOnly(module: string): boolean {
  if (!module.startsWith('file:') || !module.endsWith('.js')) return false;
  const path = fileURLToPath(module);
  return !existsSync(path) && existsSync(path.replace(/\.js$/, '.ts'));
}

/** A package name (not a path) that Node found in no node_modules folder. */
function packageMissing(module: string, err: unknown): boolean {
  return !module.startsWith('file:') && (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && (err as Error).message.includes(`'${module}'`);
}

/**
 * The channels of the plugins `plugins` (the config's section) enables, sorted: what every
 * session announces under the experimental `claude/channel` capability. Imports their modules
 * without setting them up, so that --stdio can answer `initialize` before the boot; a plugin
 * that cannot be imported adds none, and the boot then stops with its error.
 */
export async function declaredChannels(registry: ReadonlyMap<string, RegistryEntry>, plugins: Readonly<Record<string, { readonly enabled?: boolean }>>): Promise<string[]> {
  const enabled = Object.entries(plugins).filter(([, settings]) => settings.enabled !== false);
  const channels = await Promise.all(
    enabled.map(async ([name]) => {
      const entry = registry.get(name);
      return entry ? ((await importPlugin(entry).catch(() => undefined))?.channels ?? []) : [];
    }),
  );
  return channels.flat().sort();
}

/** What is wrong with the metadata a plugin object declares, if anything. */
function metadataProblem(definition: PluginDefinition): string | undefined {
  const { version, description, requires, uses, configCommand, services, channels } = definition as Partial<
    Record<'version' | 'description' | 'requires' | 'uses' | 'configCommand' | 'services' | 'channels', unknown>
  >;
  if (typeof version !== 'string' || version.trim() === '') return 'definePlugin needs a version (a non-empty string, e.g. "1.0.0").';
  if (typeof description !== 'string' || description.trim() === '') return 'definePlugin needs a description (one line saying what the plugin gives an agent).';
  for (const [key, list] of [['requires', requires], ['uses', uses]] as const) {
    if (list !== undefined && (!Array.isArray(list) || !list.every((r) => typeof r === 'string' && PLUGIN_NAME.test(r)))) {
      return `${key} must be a list of plugin names, not ${JSON.stringify(list)}.`;
    }
  }
  if (configCommand !== undefined && typeof configCommand !== 'function') return 'configCommand, when given, must be a function (args, io) => exit status.';
  return servicesProblem(services) ?? channelsProblem(definition.name, channels);
}

function servicesProblem(services: unknown): string | undefined {
  if (services === undefined) return undefined;
  const valid = (s: unknown): s is { name: string } => {
    if (typeof s !== 'object' || s === null) return false;
    const { name, description, ...rest } = s as Record<string, unknown>;
    return typeof name === 'string' && (name === '*' || SERVICE_NAME.test(name)) && (description === undefined || typeof description === 'string') && Object.keys(rest).length === 0;
  };
  if (!Array.isArray(services) || !services.every(valid)) {
    return `services must be a list of {name, description?}, each name ${SERVICE_NAME.source} or "*" (names given at run time), not ${JSON.stringify(services)}.`;
  }
  const names = services.map((s) => s.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  return twice === undefined ? undefined : `services: "${twice}" is listed twice.`;
}

function channelsProblem(plugin: string, channels: unknown): string | undefined {
  if (channels === undefined) return undefined;
  if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string' && CHANNEL_NAME.test(c))) {
    return `channels must be a list of channel names (${CHANNEL_NAME.source}), not ${JSON.stringify(channels)}.`;
  }
  const foreign = channels.find((channel: string) => !channel.startsWith(`${plugin}.`));
  if (foreign !== undefined) return `channels: "${foreign}" must start with the plugin's name, "${plugin}." (e.g. ${plugin}.messages).`;
  const twice = channels.find((channel, i) => channels.indexOf(channel) !== i);
  return twice === undefined ? undefined : `channels: "${twice}" is listed twice.`;
}
