import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Reading a source file's imports as TypeScript parses them, for the tests that hold the code
// to its boundaries (test/core/plugins/plugin-imports.test.ts).

/** The source files under `dir` (TypeScript and JavaScript, not declarations), recursively. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // A package's compiled output and installed packages are not its sources.
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.[cm]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export interface ModuleReference {
  readonly specifier: string;
  /** Erased at compile time: `import type`, `export type`, `import('…').T`, `declare module '…'`. */
  readonly typeOnly: boolean;
  readonly line: number;
}

/** Every module a source file names: static and dynamic imports, re-exports, require(), import types, module augmentations. */
export function moduleReferences(file: string, text: string): ModuleReference[] {
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
