import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { GATEWAY_PACKAGE } from '../lib/version.js';
import * as templates from './scaffold-templates.js';

/**
 * Names `plugin new` accepts: a registry name short enough that `<prefix>_greet` (a tool) and
 * `<PREFIX>_NAME_REFUSED` (an error code) stay within their 64-character patterns.
 */
const SCAFFOLD_NAME = /^[a-z][a-z0-9-]{0,49}$/;
const RESERVED = new Set(['core', 'gateway']);

export interface ScaffoldResult {
  readonly dir: string;
  /** The files written, relative to `dir`. */
  readonly files: readonly string[];
}

/** Why `name` cannot name a new plugin, if it cannot. */
export function scaffoldNameProblem(name: string): string | undefined {
  if (!SCAFFOLD_NAME.test(name)) {
    return `"${name}" is not a plugin name: lower-case letters, digits and "-", starting with a letter, at most 50 characters (e.g. "weather" or "jira-sync").`;
  }
  if (RESERVED.has(name)) return `"${name}" is reserved: it names the gateway itself. Choose another name.`;
  return undefined;
}

/**
 * Writes a third-party plugin package named `name` into `dir` (created if missing). Refuses,
 * with a message saying why, a bad name or a folder that exists and is not empty: it never
 * overwrites anything.
 */
export function scaffoldPlugin(name: string, dir: string): ScaffoldResult {
  const problem = scaffoldNameProblem(name);
  if (problem) throw new Error(problem);
  const target = resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new Error(`${target} exists and is not a folder; choose another --dir.`);
    if (readdirSync(target).length > 0) throw new Error(`${target} is not empty; plugin new writes only into a new or empty folder (choose another --dir).`);
  }
  const prefix = name.replace(/-/g, '_');
  const names: templates.ScaffoldNames = {
    plugin: name,
    prefix,
    codePrefix: prefix.toUpperCase(),
    coreSource: coreSource(target),
    gatewayVersion: GATEWAY_PACKAGE.version,
    typescriptVersion: GATEWAY_PACKAGE.devDependencies.typescript ?? '~5.9.3',
    nodeTypesVersion: GATEWAY_PACKAGE.devDependencies['@types/node'] ?? '^20.19.0',
  };
  const files: Record<string, string> = {
    'package.json': templates.packageJson(names),
    'tsconfig.json': templates.tsconfigJson(),
    'index.ts': templates.indexTs(names),
    'index.test.ts': templates.indexTestTs(names),
    [`registry/${name}.yaml`]: templates.registryYaml(names),
    'README.md': templates.readme(names),
    '.gitignore': templates.gitignore(),
  };
  mkdirSync(join(target, 'registry'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(target, file), text, { flag: 'wx' });
  return { dir: target, files: Object.keys(files) };
}

/**
 * The new package's devDependency on core: the registry's release when this core was installed
 * from it, else (a source checkout) a link to its core/ folder, which npm makes a symbolic link.
 */
function coreSource(target: string): string {
  if (GATEWAY_PACKAGE.root.split(sep).includes('node_modules')) return `^${GATEWAY_PACKAGE.version}`;
  return `file:${relative(target, GATEWAY_PACKAGE.root).split(sep).join('/') || '.'}`;
}
