// The typed plugin contract (issue 11, item 6): tsc on fixtures. typed-plugin.ts must compile
// clean; in typed-plugin-mistakes.ts every `@ts-expect-error` must be used, and, compiled with
// the directives removed, each marked line must fail with the error its marker names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers.js';

const FIXTURES = join(ROOT, 'test', 'types', 'fixtures');
const GOOD = join(FIXTURES, 'typed-plugin.ts');
const MISTAKES = join(FIXTURES, 'typed-plugin-mistakes.ts');
const MARKER = /\/\/ @ts-expect-error -- (.+): \/(.+)\/$/;

function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

let previous: ts.Program | undefined;

/**
 * Diagnostics of a program over `files`, with `override` served in place of the file on disk.
 * Each program reuses the previous one's unchanged source files (core's, node's types).
 */
function diagnose(files: string[], override?: { file: string; text: string }): readonly ts.Diagnostic[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (override && name === override.file ? override.text : readFile(name));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) =>
    override && name === override.file ? ts.createSourceFile(name, override.text, version) : getSourceFile(name, version, onError, create);
  previous = ts.createProgram(files, options, host, previous);
  return ts.getPreEmitDiagnostics(previous);
}

function describeAll(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
}

describe('the typed plugin contract', () => {
  it('compiles the correct plugin clean and uses every @ts-expect-error of the mistakes', () => {
    const diagnostics = diagnose([GOOD, MISTAKES]);
    assert.equal(diagnostics.length, 0, describeAll(diagnostics));
  });

  it('reports each deliberate mistake with the error its marker names', () => {
    const lines = readFileSync(MISTAKES, 'utf8').split('\n');
    const expected = lines.flatMap((line, index) => {
      const match = MARKER.exec(line.trim());
      return match ? [{ line: index + 1, what: match[1]!, message: new RegExp(match[2]!) }] : [];
    });
    assert.ok(expected.length >= 10, `only ${expected.length} markers found`);
    const stripped = lines.map((line) => line.replace('// @ts-expect-error --', '// expected error --')).join('\n');
    const diagnostics = diagnose([MISTAKES], { file: MISTAKES, text: stripped });
    const found = diagnostics.map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
    for (const { line, what, message } of expected) {
      const onLine = found.filter((d) => d.line === line + 1);
      assert.ok(
        onLine.some((d) => message.test(d.text)),
        `${what} (line ${line + 1}): expected ${message}, got ${JSON.stringify(onLine.map((d) => d.text))}`,
      );
    }
    // Nothing else fails: each error is one of the marked mistakes.
    const marked = new Set(expected.map((e) => e.line + 1));
    assert.deepEqual(found.filter((d) => !marked.has(d.line)), []);
  });
});
