import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { moduleReferences, sources } from './support/module-references.js';
import { ROOT } from './support/repository.js';
import { readYamlFile } from '../core/config/config.js';

// The repository is npm workspaces: @mcp-gateway/core, one @mcp-gateway/plugin-<name> per
// shipped plugin, and the root, @mcp-gateway/cli, the command users install. Each package is
// published on its own, so each must declare every package its code imports: a dependency that
// only happens to be installed at the root would be missing from a user's install.

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

const readPackage = (dir: string): PackageJson => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as PackageJson;
const root = readPackage('.');
const workspaces = (root.workspaces ?? []).map((dir) => ({ dir, pkg: readPackage(dir) }));
const builtins = new Set(builtinModules);

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

test('the workspaces are core and every shipped plugin, at one version', () => {
  const plugins = workspaces.filter(({ dir }) => dir.startsWith('plugins/'));
  assert.deepEqual(
    workspaces.map(({ dir, pkg }) => `${dir} ${pkg.name}`),
    ['core @mcp-gateway/core', ...plugins.map(({ dir }) => `${dir} @mcp-gateway/plugin-${dir.slice('plugins/'.length)}`)],
  );
  assert.ok(plugins.length >= 9, `only ${plugins.length} plugin packages`);
  for (const { dir, pkg } of workspaces) assert.equal(pkg.version, root.version, `${dir}/package.json`);
  for (const { dir, pkg } of plugins) assert.equal(pkg.peerDependencies?.['@mcp-gateway/core'], `^${root.version}`, `${dir}: core is a peer, so that the gateway's own copy is the one the plugin uses`);
});

test('every package declares each package its sources import', () => {
  const undeclared: string[] = [];
  for (const { dir, pkg } of workspaces) {
    const runtime = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const typesToo = new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {})]);
    for (const file of sources(join(ROOT, dir))) {
      for (const { specifier, typeOnly, line } of moduleReferences(file, readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || builtins.has(specifier)) continue;
        const name = packageOf(specifier);
        if (name === pkg.name || (typeOnly ? typesToo : runtime).has(name)) continue;
        undeclared.push(`${relative(ROOT, file)}:${line} imports ${specifier}${typeOnly ? ' (types)' : ''}, not in ${dir}/package.json`);
      }
    }
  }
  assert.deepEqual(undeclared, []);
});

test('the command package depends on core and every shipped plugin, which its registry names', () => {
  const shipped = workspaces.map(({ pkg }) => pkg.name).sort();
  const deps = Object.keys(root.dependencies ?? {}).filter((name) => name.startsWith('@mcp-gateway/'));
  assert.deepEqual(deps.sort(), shipped);
  const registry = join(ROOT, 'core', 'registry');
  const modules = workspaces
    .filter(({ dir }) => dir.startsWith('plugins/'))
    .map(({ dir }) => (readYamlFile(join(registry, `${dir.slice('plugins/'.length)}.yaml`)) as { module: string }).module);
  assert.deepEqual(modules, shipped.filter((name) => name !== '@mcp-gateway/core'));
});

test('heavy dependencies sit with the one package that uses them', () => {
  const core = readPackage('core');
  for (const heavy of ['playwright-core', 'diff']) assert.equal(core.dependencies?.[heavy], undefined, `core depends on ${heavy}`);
  // PostgreSQL is loaded only when the config names it: an optional peer of core, installed by the command.
  assert.equal(core.dependencies?.pg, undefined);
  assert.ok(core.peerDependencies?.pg && root.dependencies?.pg);
  assert.ok(readPackage('plugins/webview').dependencies?.['playwright-core']);
});
