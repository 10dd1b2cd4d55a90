import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { moduleReferences, sources } from '../../support/module-references.js';
import { ROOT } from '../../support/repository.js';

// DESIGN.md: "A plugin never imports another plugin's files or core internals: it imports only
// the public plugin API (core/index.ts)". That is what lets a plugin move to a package of its
// own; this test keeps the shipped plugins to it.

const PLUGINS = join(ROOT, 'plugins');
const PUBLIC_API = 'core/index.js';

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly target: string;
  readonly typeOnly: boolean;
}

/** What each plugin file names outside its own plugin folder, by repository path. */
function crossings(): { findings: Finding[]; scanned: number; publicImports: number } {
  const findings: Finding[] = [];
  let scanned = 0;
  let publicImports = 0;
  for (const file of sources(PLUGINS)) {
    scanned++;
    const own = relative(PLUGINS, file).split(sep)[0]!;
    for (const { specifier, typeOnly, line } of moduleReferences(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue; // a package (node:, npm, mcp-gateway)
      const target = relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/');
      if (target === PUBLIC_API) {
        publicImports++;
        continue;
      }
      if (target.startsWith(`plugins/${own}/`)) continue;
      findings.push({ file: relative(ROOT, file).split(sep).join('/'), line, specifier, target, typeOnly });
    }
  }
  return { findings, scanned, publicImports };
}

/**
 * The one kind of crossing writing-a-plugin.md documents: a plugin that `requires` or `uses`
 * another imports that plugin's API types (`import type … from 'mcp-gateway-plugin-notes'`),
 * which in this repository is the provider's `api.ts`. Type-only: nothing of it is loaded.
 */
function isApiTypes(finding: Finding): boolean {
  return finding.typeOnly && /^plugins\/[^/]+\/api\.js$/.test(finding.target);
}

test('plugins import no other plugin files and no core module but core/index.js', () => {
  const { findings, scanned, publicImports } = crossings();
  assert.ok(scanned > 50, `only ${scanned} plugin source files were found under plugins/`);
  assert.ok(publicImports > 10, `only ${publicImports} imports of ${PUBLIC_API} were recognised: the scan is broken`);
  const refused = findings.filter((finding) => !isApiTypes(finding)).map((f) => `${f.file}:${f.line} imports '${f.specifier}' (${f.target})`);
  assert.deepEqual(refused, [], `a plugin imports only ${PUBLIC_API} of core and its own files: export what it needs from core/index.ts`);
});

test('the only plugin-to-plugin imports are type-only imports of a provider’s api.ts', () => {
  const allowed = crossings()
    .findings.filter(isApiTypes)
    .map((f) => `${f.file} → ${f.target}`);
  // The knowledge and brain plugins `uses: ['embeddings']` and type ctx.api('embeddings') through
  // it; collab `requires: ['process']` for its workers.
  assert.deepEqual([...new Set(allowed)].sort(), [
    'plugins/brain/index.ts → plugins/embeddings/api.js',
    'plugins/collab/index.ts → plugins/process/api.js',
    'plugins/collab/workers/worker.ts → plugins/process/api.js',
    'plugins/collab/workers/workers.ts → plugins/process/api.js',
    'plugins/knowledge/index.ts → plugins/embeddings/api.js',
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
