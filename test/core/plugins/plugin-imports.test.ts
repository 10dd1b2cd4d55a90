import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { moduleReferences, sources } from '../../support/module-references.js';
import { ROOT } from '../../support/repository.js';

// DESIGN.md: "A plugin never imports another plugin's files or core internals: it imports only
// the public plugin API". Each shipped plugin is a package of its own (@mcp-gateway/plugin-<name>)
// that imports core by its package name, as a third party's does; this test keeps them to it.
// test/packages.test.ts checks that each package declares what it imports.

const PLUGINS = join(ROOT, 'plugins');
const PUBLIC_API = '@mcp-gateway/core';

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** What each plugin file names outside its own plugin folder and outside other npm packages. */
function crossings(): { findings: Finding[]; scanned: number; publicImports: number } {
  const findings: Finding[] = [];
  let scanned = 0;
  let publicImports = 0;
  for (const file of sources(PLUGINS)) {
    scanned++;
    const own = relative(PLUGINS, file).split(sep)[0]!;
    for (const { specifier, typeOnly, line } of moduleReferences(file, readFileSync(file, 'utf8'))) {
      if (specifier === PUBLIC_API) {
        publicImports++;
        continue;
      }
      const relativePath = specifier.startsWith('.') || specifier.startsWith('/');
      if (relativePath && relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/').startsWith(`plugins/${own}/`)) continue;
      // Other packages (node:, npm) are package.json's business; ours are checked here.
      if (!relativePath && !specifier.startsWith('@mcp-gateway/')) continue;
      findings.push({ file: relative(ROOT, file).split(sep).join('/'), line, specifier, typeOnly });
    }
  }
  return { findings, scanned, publicImports };
}

/**
 * The one kind of crossing writing-a-plugin.md documents: a plugin that `requires` or `uses`
 * another imports that plugin's API types (`import type {} from '@mcp-gateway/plugin-process/api'`).
 * Type-only: nothing of it is loaded.
 */
function isApiTypes(finding: Finding): boolean {
  return finding.typeOnly && /^@mcp-gateway\/plugin-[a-z-]+\/api$/.test(finding.specifier);
}

test('plugins import no other plugin files and nothing of core but @mcp-gateway/core', () => {
  const { findings, scanned, publicImports } = crossings();
  assert.ok(scanned > 50, `only ${scanned} plugin source files were found under plugins/`);
  assert.ok(publicImports > 10, `only ${publicImports} imports of ${PUBLIC_API} were recognised: the scan is broken`);
  const refused = findings.filter((finding) => !isApiTypes(finding)).map((f) => `${f.file}:${f.line} imports '${f.specifier}'`);
  assert.deepEqual(refused, [], `a plugin imports only ${PUBLIC_API} of core and its own files: export what it needs from core/index.ts`);
});

test('the only plugin-to-plugin imports are type-only imports of a provider’s api', () => {
  const allowed = crossings()
    .findings.filter(isApiTypes)
    .map((f) => `${f.file} → ${f.specifier}`);
  // The knowledge and brain plugins `uses: ['embeddings']` and type ctx.api('embeddings') through
  // it; collab `requires: ['process']` for its workers.
  assert.deepEqual([...new Set(allowed)].sort(), [
    'plugins/brain/index.ts → @mcp-gateway/plugin-embeddings/api',
    'plugins/collab/index.ts → @mcp-gateway/plugin-process/api',
    'plugins/collab/workers/worker.ts → @mcp-gateway/plugin-process/api',
    'plugins/collab/workers/workers.ts → @mcp-gateway/plugin-process/api',
    'plugins/knowledge/index.ts → @mcp-gateway/plugin-embeddings/api',
  ]);
});

test('the scan sees every form of import, and which are type-only', () => {
  const sample = [
    "import a from './a.js';",
    "import type { B } from './b.js';",
    "export { c } from './c.js';",
    "export type { D } from './d.js';",
    'const e = await import(',
    "  './e.js');",
    "const f = require('./f.js');",
    "type G = import('./g.js').G;",
    "declare module './h.js' { interface H {} }",
    'import {',
    '  i,',
    "} from './i.js';",
    "import './j.js';",
  ].join('\n');
  const seen = moduleReferences('sample.ts', sample).map(({ specifier, typeOnly }) => `${specifier}${typeOnly ? ' (type)' : ''}`);
  assert.deepEqual(seen.sort(), ['./a.js', './b.js (type)', './c.js', './d.js (type)', './e.js', './f.js', './g.js (type)', './h.js (type)', './i.js', './j.js']);
});
