// Each package compiles into its own dist/ (core/dist, plugins/<name>/dist), while the tests
// compile into the root dist/test and import core and the plugins by relative paths, as their
// sources do (`../../core/catalog/...`). Links dist/core and dist/plugins/<name> to those
// folders, so that those paths resolve, and to the very files that `@mcp-gateway/core` names:
// Node follows the links, so one process never loads core twice.
import { lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

function link(from, to) {
  mkdirSync(join(from, '..'), { recursive: true });
  const stat = lstatSync(from, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return;
  // A real folder here is the output of a build before packages had their own dist/.
  if (stat) rmSync(from, { recursive: true, force: true });
  symlinkSync(relative(join(from, '..'), to), from, 'dir');
}

link('dist/core', 'core/dist');
for (const name of readdirSync('plugins', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
  link(join('dist/plugins', name), join('plugins', name, 'dist'));
}
rmSync('dist/registry', { recursive: true, force: true });
