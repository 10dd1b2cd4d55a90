import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { moduleReferences, sources } from '../support/module-references.js';
import { ROOT } from '../support/repository.js';

// One test harness, dogfooded: the tests of the plugins below reach the gateway only through
// @mcp-gateway/core/testing (core/testing.ts) and the public plugin API (core/index.ts), as a plugin
// in a package of its own would. Besides those they use their plugin's own files, their own
// helpers in their folder, and the generic test utilities named below, none of which wraps a
// gateway. A plugin whose tests move onto the harness joins the list.

/** The plugins whose tests are on the harness, and how many test files each has at least (a check that finds none checks nothing). */
const ON_THE_HARNESS: Readonly<Record<string, number>> = { collab: 20, embeddings: 6, brain: 10, files: 11, process: 11 };

/** What such a test file may import outside its folder and its plugin's sources: a module, and the names it may take from it ('*' for any). */
const ALLOWED: Readonly<Record<string, readonly string[] | '*'>> = {
  'core/testing.js': '*',
  'core/index.js': '*',
  // Folders, polling, notifications, HTTP requests: no gateway in them.
  'test/helpers.js': [
    'tempDir',
    'waitFor',
    'recordNotifications',
    'httpRequest',
    'resultJson',
    'socketClient',
    'TESTS',
    'Received',
    // Gateways run as processes, as a user runs them: the binary, its config file, a free port.
    'BIN',
    'writeConfig',
    'spawnGateway',
    'GatewayProcess',
    'freePort',
  ],
  'test/support/test-stores.js': '*',
  'test/support/module-references.js': '*',
  'test/support/repository.js': '*',
  // A real full disk (a tmpfs), for the files plugin's NO_SPACE: no gateway in it.
  'test/support/tiny-disk.js': ['mountTinyDisk'],
  'test/plugins/process/process-helpers.js': ['isGone', 'track', 'waitFor'],
  // A fixture plugin that takes the process plugin's API (ctx.api('process')) and hands it to
  // the test: a plugin, not a gateway.
  'test/fixtures/process-api-plugin/index.js': ['received'],
  // Servers the plugins talk to: no gateway in them.
  'test/fixtures/embeddings-server/server.js': '*',
  'test/fixtures/openbrain-server/server.js': '*',
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

/** Every import of `plugin`'s test file that reaches past what it may use, as `file:line: …`. */
function refusedIn(plugin: string, file: string, text: string): string[] {
  const names = importedNames(file, text);
  return moduleReferences(file, text).flatMap(({ specifier, line }) => {
    if (!specifier.startsWith('.') && !specifier.startsWith('/')) return []; // node:, npm packages
    const target = relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/');
    if (target.startsWith(`plugins/${plugin}/`) || target.startsWith(`test/plugins/${plugin}/`)) return [];
    const allowed = ALLOWED[target];
    const taken = names.get(line) ?? ['*'];
    const extra = allowed === '*' ? [] : taken.filter((name) => !allowed?.includes(name));
    return extra.length === 0 ? [] : [`${relative(ROOT, file).split(sep).join('/')}:${line}: ${extra.join(', ')} from '${specifier}' (${target})`];
  });
}

for (const [plugin, atLeast] of Object.entries(ON_THE_HARNESS)) {
  test(`the tests of ${plugin} reach the gateway only through @mcp-gateway/core/testing and the public API`, () => {
    const here = join(ROOT, 'test', 'plugins', plugin);
    const testFiles = sources(here).filter((path) => path.endsWith('.ts'));
    assert.ok(testFiles.length >= atLeast, `expected ${plugin}'s test files under ${relative(ROOT, here)}, found ${testFiles.length}`);
    assert.deepEqual(testFiles.flatMap((file) => refusedIn(plugin, file, readFileSync(file, 'utf8'))), [], 'use core/testing.ts (add what is missing there, documented) instead of core internals or the helpers that wrap them');
  });
}

test("the check refuses a core internal, a helper that wraps the gateway, and another plugin's sources", () => {
  // Guards the test itself: a check that refused nothing would pass the test above forever.
  const probe = join(ROOT, 'test', 'plugins', 'collab', 'probe.ts');
  const text = [
    "import { listenHttp } from '../../../core/http/http-server.js';",
    "import { startGateway, tempDir } from '../../helpers.js';",
    "import { startTestGateway } from '../../../core/testing.js';",
    "import { KEEP_ENDED_WORKERS } from '../../../plugins/collab/workers/workers.js';",
    "import { spawnGateway, testConfigObject } from '../../helpers.js';",
    "import { LocalBrain } from '../../../plugins/brain/local/local-brain.js';",
  ].join('\n');
  assert.deepEqual(refusedIn('collab', probe, text), [
    "test/plugins/collab/probe.ts:1: listenHttp from '../../../core/http/http-server.js' (core/http/http-server.js)",
    "test/plugins/collab/probe.ts:2: startGateway from '../../helpers.js' (test/helpers.js)",
    "test/plugins/collab/probe.ts:5: testConfigObject from '../../helpers.js' (test/helpers.js)",
    "test/plugins/collab/probe.ts:6: LocalBrain from '../../../plugins/brain/local/local-brain.js' (plugins/brain/local/local-brain.js)",
  ], "another plugin's sources are not its own");
});
