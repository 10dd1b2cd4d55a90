import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { moduleReferences, sources } from '../../support/module-references.js';
import { ROOT } from '../../support/repository.js';

// One test harness, dogfooded: collab's tests reach the gateway only through mcp-gateway/testing
// (core/testing.ts) and the public plugin API (core/index.ts), as a plugin in a package of its
// own would. Besides those they use collab's own files, their own helpers here, and the generic
// test utilities named below, none of which wraps a gateway.

const HERE = join(ROOT, 'test', 'plugins', 'collab');

/** What a collab test file may import outside its folder and collab's sources: a module, and the names it may take from it ('*' for any). */
const ALLOWED: Readonly<Record<string, readonly string[] | '*'>> = {
  'core/testing.js': '*',
  'core/index.js': '*',
  // Folders, polling, notifications, HTTP requests: no gateway in them.
  'test/helpers.js': ['tempDir', 'waitFor', 'recordNotifications', 'httpRequest', 'resultJson', 'socketClient', 'TESTS', 'Received'],
  'test/support/test-stores.js': '*',
  'test/support/module-references.js': '*',
  'test/support/repository.js': '*',
  'test/plugins/process/process-helpers.js': ['isGone', 'track', 'waitFor'],
};

/** The names an import declaration takes (`*` for a namespace or a bare import). */
function importedNames(file: string, text: string): Map<number, string[]> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const byLine = new Map<number, string[]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    const names: string[] = [];
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause) names.push('*');
      else {
        if (clause.name) names.push('default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
        else if (bindings) names.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
      }
    } else {
      const clause = statement.exportClause;
      if (!clause || !ts.isNamedExports(clause)) names.push('*');
      else names.push(...clause.elements.map((e) => (e.propertyName ?? e.name).text));
    }
    byLine.set(line, names);
  }
  return byLine;
}

/** Every import of a collab test file that reaches past what it may use, as `file:line: …`. */
function refusedIn(file: string, text: string): string[] {
  const names = importedNames(file, text);
  return moduleReferences(file, text).flatMap(({ specifier, line }) => {
    if (!specifier.startsWith('.') && !specifier.startsWith('/')) return []; // node:, npm packages
    const target = relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/');
    if (target.startsWith('plugins/collab/') || target.startsWith('test/plugins/collab/')) return [];
    const allowed = ALLOWED[target];
    const taken = names.get(line) ?? ['*'];
    const extra = allowed === '*' ? [] : taken.filter((name) => !allowed?.includes(name));
    return extra.length === 0 ? [] : [`${relative(ROOT, file).split(sep).join('/')}:${line}: ${extra.join(', ')} from '${specifier}' (${target})`];
  });
}

const testFiles = sources(HERE).filter((path) => path.endsWith('.ts'));

test("collab's tests reach the gateway only through mcp-gateway/testing and the public API", () => {
  assert.ok(testFiles.length > 20, `expected collab's test files under ${relative(ROOT, HERE)}, found ${testFiles.length}`);
  assert.deepEqual(testFiles.flatMap((file) => refusedIn(file, readFileSync(file, 'utf8'))), [], 'use core/testing.ts (add what is missing there, documented) instead of core internals or the helpers that wrap them');
});

test('the check refuses a core internal and a helper that wraps the gateway', () => {
  // Guards the test itself: a check that refused nothing would pass the test above forever.
  const probe = join(HERE, 'probe.ts');
  const text = [
    "import { listenHttp } from '../../../core/http/http-server.js';",
    "import { startGateway, tempDir } from '../../helpers.js';",
    "import { startTestGateway } from '../../../core/testing.js';",
    "import { KEEP_ENDED_WORKERS } from '../../../plugins/collab/workers/workers.js';",
  ].join('\n');
  assert.deepEqual(refusedIn(probe, text), [
    "test/plugins/collab/probe.ts:1: listenHttp from '../../../core/http/http-server.js' (core/http/http-server.js)",
    "test/plugins/collab/probe.ts:2: startGateway from '../../helpers.js' (test/helpers.js)",
  ]);
});
