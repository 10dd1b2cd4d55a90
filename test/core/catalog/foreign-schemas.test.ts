// Tools whose schemas another server wrote (ToolDefinition.foreignSchemas): accepted in the
// dialect their $schema names, still validating every call, with no defaults filled in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorTable } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';
import { createSchemaCompiler, type JsonSchema } from '../../../core/lib/schema.js';
import { ToolCatalog } from '../../../core/catalog/tool-catalog.js';
import { leanInputSchema, leanOutputSchema } from '../../../core/catalog/lean-listing.js';
import type { ToolDefinition } from '../../../core/contract/plugin-types.js';
import { memoryClient, resultJson, startGateway, WITH_RELAY } from '../../helpers.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const memory = { caller: { transport: 'memory' as const, identity: 'unit' } };

/** As zod-to-json-schema writes it: `$schema`, `definitions` with a `$ref`, a tuple, a default. */
const draft07: JsonSchema = {
  $schema: DRAFT_07,
  type: 'object',
  definitions: { path: { type: 'string', minLength: 1 } },
  properties: {
    path: { $ref: '#/definitions/path' },
    head: { type: 'integer', default: 10 },
    lines: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }], additionalItems: false },
  },
  required: ['path'],
  additionalProperties: false,
};

/** No `$schema` (so 2020-12), with a keyword and a format this gateway does not know. */
const unknownWords: JsonSchema = {
  type: 'object',
  properties: { query: { type: 'string', format: 'search-syntax', 'x-ranking': 'bm25' } },
  required: ['query'],
};

/** A catalog as the gateway makes it (strict Ajv2020 that fills defaults), recording what handlers get. */
function catalogOf(...definitions: Array<Partial<ToolDefinition> & { inputSchema: JsonSchema }>) {
  const catalog = new ToolCatalog({
    ajv: createSchemaCompiler({ useDefaults: true }),
    errors: new ErrorTable(),
    log: createLogger('silent'),
    defaultTimeoutMs: 1000,
    shutdownSignal: new AbortController().signal,
  });
  const seen: unknown[] = [];
  const tools = definitions.map((definition, i) =>
    catalog.prepare('up', { name: `t${i}`, description: 'relayed', annotations: { readOnlyHint: true }, foreignSchemas: true, ...definition }, (args: unknown) => {
      seen.push(structuredClone(args));
      return { ok: true };
    }),
  );
  catalog.add(tools);
  const outcome = async (args: unknown, tool = 't0') => {
    const result = await catalog.call(tool, args, memory);
    return result.ok ? 'ok' : result.error.code;
  };
  return { catalog, seen, outcome };
}

describe('foreign schemas in the catalog', () => {
  it('takes a draft-07 schema with definitions and $ref, and still validates every call', async () => {
    const { outcome } = catalogOf({ inputSchema: draft07 });
    assert.equal(await outcome({ path: 'a.txt' }), 'ok');
    const table: Array<[unknown, string]> = [
      [{ path: 1 }, 'INVALID_ARGUMENTS'],
      [{ path: '' }, 'INVALID_ARGUMENTS'], // minLength, reached through the $ref
      [{}, 'INVALID_ARGUMENTS'],
      [{ path: 'a', extra: true }, 'INVALID_ARGUMENTS'],
      [{ path: 'a', head: '5' }, 'INVALID_ARGUMENTS'], // nothing is coerced
    ];
    for (const [args, code] of table) assert.equal(await outcome(args), code, JSON.stringify(args));
  });

  it('applies draft-07 tuple items to a draft-07 schema', async () => {
    const { outcome } = catalogOf({ inputSchema: draft07 });
    assert.equal(await outcome({ path: 'a', lines: [1, 20] }), 'ok');
    assert.equal(await outcome({ path: 'a', lines: [1, 'x'] }), 'INVALID_ARGUMENTS');
    assert.equal(await outcome({ path: 'a', lines: [1, 2, 3] }), 'INVALID_ARGUMENTS', 'additionalItems: false');
  });

  it('takes an unknown keyword and an unknown format, and still checks types', async () => {
    const { outcome } = catalogOf({ inputSchema: unknownWords });
    assert.equal(await outcome({ query: 'title:"dune" OR author:herbert' }), 'ok');
    assert.equal(await outcome({ query: 42 }), 'INVALID_ARGUMENTS');
  });

  it('fills in no defaults: the handler sees exactly the arguments sent', async () => {
    const { outcome, seen } = catalogOf({ inputSchema: draft07 });
    await outcome({ path: 'a' });
    await outcome({ path: 'b', lines: [3, 4] });
    assert.deepEqual(seen, [{ path: 'a' }, { path: 'b', lines: [3, 4] }]);
  });

  it('checks results against a foreign outputSchema', async () => {
    const output = { $schema: DRAFT_07, type: 'object', required: ['text'], properties: { text: { type: 'string' } } };
    const { outcome } = catalogOf({ inputSchema: unknownWords, outputSchema: output });
    // The recording handler answers {ok: true}, which has no `text`: the plugin's bug.
    assert.equal(await outcome({ query: 'q' }), 'INTERNAL_ERROR');
  });

  it('compiles two schemas with the same $id (a tool relayed again, or by a second server)', async () => {
    const withId = { ...unknownWords, $id: 'https://upstream.example/schemas/search' };
    const { outcome } = catalogOf({ inputSchema: withId }, { inputSchema: structuredClone(withId) });
    assert.equal(await outcome({ query: 'q' }, 't1'), 'ok');
    assert.equal(await outcome({ query: 1 }, 't1'), 'INVALID_ARGUMENTS');
  });

  const strictRefuses: Array<[string, JsonSchema]> = [
    ['a draft-07 schema ($schema, definitions, tuple items)', draft07],
    ['an unknown keyword and format', unknownWords],
  ];
  for (const [label, inputSchema] of strictRefuses) {
    it(`refuses ${label} without foreignSchemas (strict mode)`, () => {
      assert.throws(
        () => catalogOf({ inputSchema, foreignSchemas: undefined }),
        (err: any) => err.code === 'TOOL_DEFINITION_INVALID' && /does not compile in strict mode/.test(err.message),
      );
    });
  }

  it('refuses what no dialect compiles, such as draft-04 boolean exclusiveMinimum', () => {
    const draft04 = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true } } };
    assert.throws(
      () => catalogOf({ inputSchema: draft04 }),
      (err: any) => err.code === 'TOOL_DEFINITION_INVALID' && /its schema does not compile: .*exclusiveMinimum/.test(err.message),
    );
  });
});

describe('foreign schemas through MCP', async () => {
  const gateway = await startGateway(WITH_RELAY);
  const client = await memoryClient(gateway);

  it('lists both schemas lean (tools.listing), in their dialect; one with a $ref, $schema and definitions included, exactly as given', async () => {
    const { tools } = await client.listTools();
    for (const name of ['relay_read_file', 'relay_search']) {
      const listed = tools.find((t) => t.name === name)!;
      const { definition } = gateway.catalog.get(name)!;
      // tools/list is lean by default (tools.listing): a foreign schema goes through the same transform.
      assert.deepEqual(listed.inputSchema, leanInputSchema(definition.inputSchema), name);
      if (definition.outputSchema) assert.deepEqual(listed.outputSchema, leanOutputSchema(definition.outputSchema), name);
    }
    assert.deepEqual(tools.find((t) => t.name === 'relay_read_file')!.inputSchema, gateway.catalog.get('relay_read_file')!.definition.inputSchema, 'kept whole: it refers');
    const readFile = tools.find((t) => t.name === 'relay_read_file')!;
    assert.equal(readFile.inputSchema.$schema, DRAFT_07);
    assert.equal(readFile.outputSchema?.$schema, DRAFT_07);
    assert.deepEqual((readFile.inputSchema as any).definitions, { path: { type: 'string', minLength: 1, description: 'A path the server may read.' } });
  });

  it('answers a wrong type with INVALID_ARGUMENTS, and hands over exactly the arguments sent', async () => {
    const refused = await client.callTool({ name: 'relay_read_file', arguments: { path: 7 } });
    assert.equal(refused.isError, true);
    assert.equal(resultJson(refused).code, 'INVALID_ARGUMENTS');
    assert.deepEqual(resultJson(refused).details, [{ path: '/path', message: 'must be string' }]);

    const sent = { path: 'notes/todo.md', lines: [2, 9] };
    const answered = await client.callTool({ name: 'relay_read_file', arguments: sent });
    assert.deepEqual(answered.structuredContent, { received: sent }, 'no head: 10 filled in');
    const search = await client.callTool({ name: 'relay_search', arguments: { query: 'a', filter: { any: [{ field: 'x' }] } } });
    assert.deepEqual(resultJson(search), { received: { query: 'a', filter: { any: [{ field: 'x' }] } } });
    const deep = await client.callTool({ name: 'relay_search', arguments: { query: 'a', filter: { any: [{ any: [{ field: 1 }] }] } } });
    assert.equal(resultJson(deep).code, 'INVALID_ARGUMENTS', 'the recursive definition validates all the way down');
  });
});
