import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GatewayError } from '../contract/errors.js';
import type { PluginDefinition } from '../contract/plugin-types.js';
import type { RegistryEntry } from './registry.js';

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

/** What is wrong with the metadata a plugin object declares, if anything. */
function metadataProblem(definition: PluginDefinition): string | undefined {
  const { version, description, requires, uses, configCommand } = definition as Partial<Record<'version' | 'description' | 'requires' | 'uses' | 'configCommand', unknown>>;
  if (typeof version !== 'string' || version.trim() === '') return 'definePlugin needs a version (a non-empty string, e.g. "1.0.0").';
  if (typeof description !== 'string' || description.trim() === '') return 'definePlugin needs a description (one line saying what the plugin gives an agent).';
  for (const [key, list] of [['requires', requires], ['uses', uses]] as const) {
    if (list !== undefined && (!Array.isArray(list) || !list.every((r) => typeof r === 'string' && /^[a-z][a-z0-9-]{0,63}$/.test(r)))) {
      return `${key} must be a list of plugin names, not ${JSON.stringify(list)}.`;
    }
  }
  if (configCommand !== undefined && typeof configCommand !== 'function') return 'configCommand, when given, must be a function (args, io) => exit status.';
  return undefined;
}
