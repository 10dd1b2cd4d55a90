import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { moduleReferences, sources } from '../support/module-references.js';
import { ROOT } from '../support/repository.js';

// docs/architecture.md, "Layers": each folder of core/ is a layer, and a file imports only its
// own layer and the layers below it, type imports included, so that the picture in the docs
// is what the code does. Circles are refused too, inside a layer as well.

/** Bottom first. The root of core/ holds the package's two entry points, above everything. */
const LAYERS = [
  'vendor',
  'lib',
  'contract',
  'fs',
  'storage',
  'config',
  'auth',
  'runtime',
  'catalog',
  'sessions',
  'tasks',
  'plugins',
  'gateway',
  'mcp',
  'http',
  'cli',
  'testing',
  '(entry)',
] as const;

const CORE = join(ROOT, 'core');

function layerOf(file: string): string {
  const parts = relative(CORE, file).split(sep);
  return parts.length === 1 ? '(entry)' : parts[0]!;
}

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

/** Every import between two files of core/, as repository paths. */
function coreImports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(CORE).filter((path) => path.endsWith('.ts'))) {
    for (const { specifier, line } of moduleReferences(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (!target.startsWith(CORE + sep) || !existsSync(target)) continue;
      edges.push({ from: file, to: target, line });
    }
  }
  return edges;
}

const repoPath = (file: string) => relative(ROOT, file).split(sep).join('/');

/** The circles of the graph: its strongly connected components of more than one file (Tarjan). */
function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(repoPath(member));
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('every file of core/ sits in a known layer', () => {
  const unknown = sources(CORE)
    .filter((file) => !(LAYERS as readonly string[]).includes(layerOf(file)))
    .map(repoPath);
  assert.deepEqual(unknown, [], 'a new folder of core/ is a new layer: add it to LAYERS (and to docs/architecture.md) at its place');
});

test('a layer imports only itself and the layers below it', () => {
  const edges = coreImports();
  assert.ok(edges.length > 500, `only ${edges.length} imports were read: the scan is broken`);
  const rank = (file: string) => LAYERS.indexOf(layerOf(file) as (typeof LAYERS)[number]);
  const upward = edges
    .filter(({ from, to }) => rank(to) > rank(from))
    .map(({ from, to, line }) => `${repoPath(from)}:${line} (${layerOf(from)}) imports ${repoPath(to)} (${layerOf(to)})`);
  assert.deepEqual(upward, [], 'move the code to the layer where it belongs, or hand the lower layer an interface it declares');
});

test('no import circle, type imports included', () => {
  assert.deepEqual(circles(coreImports()), []);
});

test('the faces take the part of the gateway they use, not the whole object', () => {
  // Where a face is put together: createHttpApp wires every HTTP part, and --stdio boots its own gateway.
  const composers = ['core/http/http-server.ts', 'core/mcp/stdio-server.ts'];
  const faces = [...sources(join(CORE, 'http')), ...sources(join(CORE, 'mcp'))].filter((file) => !composers.includes(repoPath(file)));
  assert.ok(faces.length > 40, `only ${faces.length} face files were read`);
  const whole = faces.filter((file) => /:\s*Gateway\b(?!\s*[,|&>])/.test(readFileSync(file, 'utf8').replaceAll(/Pick<Gateway/g, ''))).map(repoPath);
  assert.deepEqual(whole, [], 'declare what the file uses, e.g. `export type RestCallGateway = Pick<Gateway, \'catalog\' | \'errors\'>`');
});

test('the circle finder finds a circle', () => {
  const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((name) => join(CORE, 'lib', name));
  const found = circles([
    { from: a!, to: b!, line: 1 },
    { from: b!, to: c!, line: 1 },
    { from: c!, to: a!, line: 1 },
  ]);
  assert.deepEqual(found, [['core/lib/a.ts', 'core/lib/b.ts', 'core/lib/c.ts']]);
});
