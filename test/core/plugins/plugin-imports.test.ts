import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../../support/repository.js';

// DESIGN.md: "A plugin never imports another plugin's files or core internals: it imports only
// the public plugin API (core/index.ts)". That is what lets a plugin move to a package of its
// own; this test keeps the shipped plugins to it.

const PLUGINS = join(ROOT, 'plugins');
const PUBLIC_API = 'core/index.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.[cm]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface ModuleReference {
  readonly specifier: string;
  /** Erased at compile time: `import type`, `export type`, `import('…').T`, `declare module '…'`. */
  readonly typeOnly: boolean;
  readonly line: number;
}

/** Every module a source file names: static and dynamic imports, re-exports, require(), import types, module augmentations. */
function moduleReferences(file: string, text: string): ModuleReference[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: ModuleReference[] = [];
  const add = (node: ts.Node, literal: ts.Node | undefined, typeOnly: boolean) => {
    if (literal && ts.isStringLiteralLike(literal)) {
      found.push({ specifier: literal.text, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) add(node, node.name, true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true);
    else if (ts.isCallExpression(node)) {
      const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      // A specifier built at run time (the search worker's bootstrap) is not a literal and not checked here.
      if (dynamic || required) add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

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
    'plugins/brain/vectors.ts → plugins/embeddings/api.js',
    'plugins/collab/index.ts → plugins/process/api.js',
    'plugins/collab/workers/worker.ts → plugins/process/api.js',
    'plugins/collab/workers/workers.ts → plugins/process/api.js',
    'plugins/knowledge/index.ts → plugins/embeddings/api.js',
    'plugins/knowledge/vectors.ts → plugins/embeddings/api.js',
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
