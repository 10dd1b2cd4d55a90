import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readYamlFile } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import { GATEWAY_PACKAGE } from '../lib/version.js';
import { createSchemaCompiler, describeSchemaErrors, pointerToKeyPath, type JsonSchema } from '../lib/schema.js';

/**
 * One validated `registry/<plugin>.yaml`: which plugin, where its module is, and how this
 * deployment treats it. What the plugin is (version, description, requires, services,
 * channels) is said once, by the plugin object itself (`definePlugin`).
 */
export interface RegistryEntry {
  /** The key the config enables it by; the module's plugin must carry the same name. */
  readonly name: string;
  /** What to import: a file URL for paths, the bare name for packages. */
  readonly module: string;
  /** A failing optional plugin is skipped with a logged error instead of stopping the boot. */
  readonly optional: boolean;
  /** The YAML file it came from, for error messages. */
  readonly file: string;
}

/** The registry of the shipped plugins: in core's package, whether it runs from dist/ or its sources. */
export const BUILTIN_REGISTRY_DIR = join(GATEWAY_PACKAGE.root, 'registry');

const PLUGIN_NAME = '^[a-z][a-z0-9-]{0,63}$';

const entrySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'module'],
  properties: {
    name: { type: 'string', pattern: PLUGIN_NAME },
    module: { type: 'string', minLength: 1 },
    optional: { type: 'boolean', default: false },
  },
};

const validateEntry = createSchemaCompiler({ useDefaults: true, allErrors: true }).compile(entrySchema);

/** Keys the plugin object owns: said in the YAML too, the two would drift apart. */
const PLUGIN_OWNED_KEYS = ['version', 'description', 'requires', 'uses', 'services', 'channels'] as const;

/** Names that stand for the gateway itself: `core` owns its error codes and events, `gateway` its tools. */
const RESERVED_NAMES = new Set(['core', 'gateway']);

/** Reads every `*.yaml`/`*.yml` in the given folders. Throws REGISTRY_INVALID naming the file. */
export function loadRegistry(dirs: readonly string[]): Map<string, RegistryEntry> {
  const entries = new Map<string, RegistryEntry>();
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new GatewayError('REGISTRY_INVALID', `Registry folder ${dir} does not exist.`);
    const files = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort();
    for (const name of files) {
      const entry = readEntry(join(dir, name));
      const previous = entries.get(entry.name);
      if (previous) {
        throw new GatewayError(
          'REGISTRY_INVALID',
          `${entry.file}: plugin "${entry.name}" is already registered by ${previous.file}. Plugin names must be unique.`,
        );
      }
      entries.set(entry.name, entry);
    }
  }
  return entries;
}

function readEntry(file: string): RegistryEntry {
  let data: unknown;
  try {
    data = readYamlFile(file);
  } catch (err) {
    throw new GatewayError('REGISTRY_INVALID', (err as Error).message, { cause: err });
  }
  const owned = PLUGIN_OWNED_KEYS.filter((key) => typeof data === 'object' && data !== null && key in data);
  if (owned.length > 0) {
    throw new GatewayError(
      'REGISTRY_INVALID',
      `${file}: ${owned.map((k) => `"${k}"`).join(', ')} ${owned.length === 1 ? 'is' : 'are'} not read from the registry: a plugin's version, description, requires, uses, services and channels are declared once, in its definePlugin object. Move ${owned.length === 1 ? 'it' : 'them'} there.`,
    );
  }
  if (!validateEntry(data)) {
    const lines = describeSchemaErrors(validateEntry.errors).map((p) => `${pointerToKeyPath(p.path)}: ${p.message}`);
    throw new GatewayError('REGISTRY_INVALID', `${file}: ${lines.join('; ')}`, { details: lines });
  }
  const raw = data as Omit<RegistryEntry, 'file'>;
  if (RESERVED_NAMES.has(raw.name)) {
    throw new GatewayError('REGISTRY_INVALID', `${file}: the plugin name "${raw.name}" is reserved (it names the gateway itself in tools, audit rows, events and errors); choose another.`);
  }
  return Object.freeze({ ...raw, module: locateModule(raw.module, file), file });
}

/**
 * A module path starting with `.` or `/` is relative to the YAML file and must exist; a
 * `.js` path may exist as `.ts` when the gateway runs from its sources. Anything else is a
 * package name, resolved at import time.
 */
function locateModule(module: string, file: string): string {
  if (!module.startsWith('.') && !module.startsWith('/')) return module;
  const path = resolve(dirname(file), module);
  const candidates = [path, path.replace(/\.js$/, '.ts')];
  if (!candidates.some((c) => existsSync(c))) {
    throw new GatewayError('REGISTRY_INVALID', `${file}: module ${module} was not found (looked for ${path}).`);
  }
  return pathToFileURL(path).href;
}
