import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compileForeignSchema } from '../../../core/catalog/foreign-schema.js';
import type { JsonSchema } from '../../../core/lib/schema.js';
import { memoryClient, startGateway, tempDir } from '../../helpers.js';

/**
 * The lean schemas against the real catalog. Output: against real results: every call goes through the real SDK client,
 * which checks structuredContent against the schema tools/list gave it (the lean one); then
 * each result is mutated many ways, and whatever the full schema accepts the lean one must
 * accept too (a client would otherwise refuse a result the tool is allowed to give).
 */

/** Tools called with their first example, or with these arguments where the example names nothing real. */
const CALLS: Record<string, Record<string, unknown> | undefined> = {
  gateway_status: undefined,
  file_read: { path: 'README.md' },
  file_read_many: undefined,
  file_info: undefined,
  dir_list: undefined,
  dir_tree: { path: '.' },
  file_find: undefined,
  file_search: { query: 'TODO' },
  lang_list: undefined,
  process_run: undefined,
  process_list: { running_only: false },
  knowledge_add: undefined,
  knowledge_list: undefined,
  knowledge_summary: undefined,
  brain_remember: undefined,
  brain_recall: { query: 'brain keeps what agents learn' },
  brain_list: undefined,
  collab_join: { name: 'lean-tester' },
  collab_create_task: undefined,
  collab_list_tasks: { status: 'pending' },
  collab_append_note: undefined,
  collab_list_notes: undefined,
  collab_session_context: undefined,
};

/** How many mutants of each result are checked. */
const MUTANTS_PER_RESULT = 300;

describe('lean output schemas accept what the full ones accept, on real results', async () => {
  const dir = realpathSync(tempDir());
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'README.md'), '# Demo\n\nA workspace.\n');
  writeFileSync(join(dir, 'package.json'), '{"name": "demo"}\n');
  writeFileSync(join(dir, 'src', 'app.ts'), 'const a = 1;\n// TODO: say more\nexport { a };\n');
  const plugins = { files: {}, process: {}, knowledge: {}, brain: {}, collab: {}, echo: { enabled: false } };
  const gateway = await startGateway({ plugins, workspace: dir, dataDir: join(tempDir(), 'data') });
  const client = await memoryClient(gateway);
  const listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  const random = seeded(36);
  const totals = { acceptedByFull: 0, refusedByLean: 0 };

  for (const [name, given] of Object.entries(CALLS)) {
    it(`${name}: its real result, and every mutant the full schema accepts, pass the lean schema`, async () => {
      const tool = gateway.catalog.get(name);
      assert.ok(tool, `${name} is not in the catalog`);
      const full = tool.definition.outputSchema!;
      const lean = listed.get(name)!.outputSchema as JsonSchema;
      assert.ok(lean, `${name} is listed without an outputSchema`);
      const args = given ?? (tool.definition.inputSchema.examples as Array<Record<string, unknown>>)[0];
      // The SDK client refuses structuredContent that breaks the listed (lean) schema.
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      const value = result.structuredContent;
      const validateFull = compileForeignSchema(full);
      const validateLean = compileForeignSchema(lean);
      assert.ok(validateFull(value), `${name}: the full schema refuses the real result: ${JSON.stringify(validateFull.errors)}`);
      assert.ok(validateLean(value), `${name}: the lean schema refuses the real result: ${JSON.stringify(validateLean.errors)}`);
      for (let i = 0; i < MUTANTS_PER_RESULT; i++) {
        const mutant = mutate(value, random);
        if (!validateFull(mutant)) continue;
        totals.acceptedByFull++;
        assert.ok(validateLean(mutant), `${name}: the lean schema refuses ${JSON.stringify(mutant).slice(0, 400)}, which the full one accepts: ${JSON.stringify(validateLean.errors)}`);
      }
      // A field of the wrong type: the lean schema keeps the types, so it still refuses it.
      const [field, shape] = Object.entries((lean.properties ?? {}) as Record<string, JsonSchema>).find(([, s]) => typeof s.type === 'string') ?? [];
      const wrongField = field === undefined ? null : { ...(value as Record<string, unknown>), [field]: shape!.type === 'string' ? 12345 : 'text' };
      for (const wrong of [null, 'text', [], wrongField]) if (!validateLean(wrong)) totals.refusedByLean++;
    });
  }

  it('the mutants were not all refused, and the lean schemas still refuse wrong shapes', () => {
    assert.ok(totals.acceptedByFull > 0, 'no mutant passed the full schemas: the check above proved nothing');
    assert.ok(totals.refusedByLean > 0, 'the lean schemas refused nothing');
  });
});

describe('lean input schemas accept every call the full ones accept, on the shipped tools', async () => {
  // Every shipped plugin with tools of its own, each as it loads on any machine (no browser started, no IDE there).
  const plugins = { files: {}, process: {}, knowledge: {}, brain: {}, collab: {}, webview: {}, 'ide-bridge': { config: { url: 'ws://127.0.0.1:9/' } }, echo: { enabled: false } };
  const gateway = await startGateway({ plugins, workspace: realpathSync(tempDir()), dataDir: join(tempDir(), 'data') });
  const client = await memoryClient(gateway);
  const { tools } = await client.listTools();
  const random = seeded(35);
  let acceptedByFull = 0;

  it('every example of every tool, and every mutant of one the full schema accepts, passes the lean schema', () => {
    assert.ok(tools.length > 50, `only ${tools.length} tools listed`);
    for (const listed of tools) {
      const { definition } = gateway.catalog.get(listed.name)!;
      const validateFull = compileForeignSchema(definition.inputSchema);
      const validateLean = compileForeignSchema(listed.inputSchema as JsonSchema);
      const examples = (definition.inputSchema.examples ?? []) as unknown[];
      assert.ok(examples.length > 0 && (listed.inputSchema.examples as unknown[]).length === 1, `${listed.name}: its first example is listed`);
      for (const example of examples) {
        assert.ok(validateLean(example), `${listed.name}: the lean schema refuses its example ${JSON.stringify(example)}`);
        for (let i = 0; i < 40; i++) {
          const mutant = mutate(example, random);
          if (!validateFull(mutant)) continue;
          acceptedByFull++;
          assert.ok(validateLean(mutant), `${listed.name}: the lean schema refuses ${JSON.stringify(mutant).slice(0, 400)}, which the full one accepts`);
        }
      }
    }
    assert.ok(acceptedByFull > 0, 'no mutant passed the full schemas: the check above proved nothing');
  });

  it('a call the lean schema allows and the full one does not is refused by name', async () => {
    const result = await client.callTool({ name: 'file_read', arguments: { path: 'x'.repeat(5000) } });
    assert.equal(result.isError, true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    assert.match(text, /INVALID_ARGUMENTS/);
    assert.match(text, /path/);
  });
});

describe('tools.listing: full lists the definitions as written', async () => {
  const gateway = await startGateway({ tools: { listing: 'full' } });
  const client = await memoryClient(gateway);

  it('over MCP, each entry carries the full schemas and every annotation', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    for (const listed of tools) {
      const { definition } = gateway.catalog.get(listed.name)!;
      assert.deepEqual(listed.inputSchema, definition.inputSchema, listed.name);
      assert.deepEqual(listed.outputSchema, definition.outputSchema, listed.name);
      assert.deepEqual(listed.annotations, definition.annotations, listed.name);
    }
  });
});

/** A small deterministic generator (mulberry32): the same mutants on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REPLACEMENTS: unknown[] = [null, 0, -1, 2.5, '', 'x', true, false, {}, [], [1], { extra: 1 }];

/** A copy of `value` with one random change somewhere: a value replaced, a key or element removed or added. */
function mutate(value: unknown, random: () => number): unknown {
  const copy = structuredClone(value);
  const spots: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach((item, index) => (spots.push({ parent: node, key: index }), walk(item)));
    else if (node !== null && typeof node === 'object') for (const [key, item] of Object.entries(node)) (spots.push({ parent: node as Record<string, unknown>, key }), walk(item));
  };
  walk(copy);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  if (spots.length === 0) return pick(REPLACEMENTS);
  const { parent, key } = pick(spots);
  const action = Math.floor(random() * 4);
  if (action === 0) (parent as Record<string | number, unknown>)[key] = structuredClone(pick(REPLACEMENTS));
  else if (action === 1) Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key as string];
  else if (action === 2) Array.isArray(parent) ? parent.push(structuredClone(parent[0])) : (parent[`added${Math.floor(random() * 3)}`] = pick(REPLACEMENTS));
  else {
    // The same value at another place, the shape a confused tool would give.
    const other = pick(spots);
    (parent as Record<string | number, unknown>)[key] = structuredClone((other.parent as Record<string | number, unknown>)[other.key]);
  }
  return copy;
}
