import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leanAnnotations, leanInputSchema, leanOutputSchema, toolListing } from '../../../core/catalog/lean-listing.js';
import { ToolCatalog } from '../../../core/catalog/tool-catalog.js';
import { compileForeignSchema } from '../../../core/catalog/foreign-schema.js';
import { createSchemaCompiler, type JsonSchema } from '../../../core/lib/schema.js';
import { resolveConfig } from '../../../core/config/config.js';
import { ErrorTable } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';
import type { ToolDefinition } from '../../../core/contract/plugin-types.js';

/** Each case: a full output schema, its lean form, and values the full one accepts (the lean one must too). */
const OUTPUT_CASES: Array<{ name: string; full: JsonSchema; lean: JsonSchema; accepted: unknown[] }> = [
  {
    name: 'the result keeps its fields and their types; prose, constraints and the required list go',
    full: {
      type: 'object',
      title: 'A read',
      description: 'What the read found.',
      additionalProperties: false,
      required: ['path', 'size'],
      properties: {
        path: { type: 'string', description: 'Workspace-relative.', minLength: 1, maxLength: 4096, pattern: '^[^/]' },
        size: { type: 'integer', minimum: 0, maximum: 1e12, exclusiveMaximum: 1e13, examples: [12] },
        modified: { type: 'string', format: 'date-time', default: '' },
        kind: { enum: ['file', 'dir'], description: 'Which.' },
        version: { const: 1 },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 0, maxItems: 10, uniqueItems: true },
      },
    },
    lean: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        size: { type: 'integer' },
        modified: { type: 'string' },
        kind: { enum: ['file', 'dir'] },
        version: { const: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    accepted: [{ path: 'a.txt', size: 3, kind: 'file', version: 1, tags: ['x'] }],
  },
  {
    name: 'a nullable bare type becomes a type list; deeper objects are only objects, nullable kept',
    full: {
      type: 'object',
      additionalProperties: false,
      required: ['language', 'owner', 'entries', 'maybe'],
      properties: {
        language: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }], description: 'Or null.' },
        owner: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' } } },
        entries: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { at: { type: 'integer' } } } },
        maybe: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] },
        rows: { type: 'array', items: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] } },
      },
    },
    lean: {
      type: 'object',
      properties: {
        language: { type: ['string', 'null'] },
        owner: { type: 'object' },
        entries: { type: 'array', items: { type: 'object' } },
        maybe: { type: ['object', 'null'] },
        rows: { type: 'array', items: { type: ['object', 'null'] } },
      },
    },
    accepted: [{ language: null, owner: { name: 'x' }, entries: [{ at: 1 }], maybe: null, rows: [null, { a: 'b' }] }],
  },
  {
    name: 'alternatives of the result keep their fields; a oneOf becomes an anyOf',
    full: {
      type: 'object',
      oneOf: [
        { required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } },
        { required: ['n'], properties: { n: { type: 'integer', maximum: -1 }, note: { type: 'string' } } },
      ],
    },
    lean: {
      type: 'object',
      anyOf: [
        { properties: { n: { type: 'integer' } } },
        { properties: { n: { type: 'integer' }, note: { type: 'string' } } },
      ],
    },
    // Matches one branch of the full schema, both of the lean one: a lean oneOf would refuse it.
    accepted: [{ n: 3 }, { n: -2, note: 'x' }],
  },
  {
    name: 'alternatives of which one accepts anything are no constraint at all',
    full: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { properties: { x: { type: 'integer' } } }] } } },
    lean: { type: 'object', properties: { v: {} } },
    accepted: [{ v: 'a' }, { v: { x: 1 } }, { v: 4 }],
  },
  {
    name: 'a tuple keeps its positions; prefixItems and items stay together; items: false goes',
    full: {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string', minLength: 1 }, { type: 'integer' }], items: false },
        head: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer', minimum: 0 } },
      },
    },
    lean: {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
        head: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
      },
    },
    accepted: [{ pair: ['a', 1], head: ['a', 1, 2] }],
  },
  {
    name: 'allOf parts are kept lean, and dropped when they no longer constrain',
    full: {
      type: 'object',
      allOf: [{ required: ['a'], properties: { a: { type: 'string', minLength: 2 } } }, { not: { required: ['b'] } }],
    },
    lean: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }] },
    accepted: [{ a: 'xy' }],
  },
  {
    name: 'boolean subschemas are kept as they are',
    full: { type: 'object', properties: { gone: false, any: true } },
    lean: { type: 'object', properties: { gone: false, any: true } },
    accepted: [{ any: [1] }],
  },
];

/** One `it` per case: `makeLean` gives the lean form expected, and it accepts every value the full schema accepts. */
function itMakesLean(cases: typeof OUTPUT_CASES, makeLean: (schema: JsonSchema) => JsonSchema): void {
  for (const { name, full, lean, accepted } of cases) {
    it(name, () => {
      assert.deepEqual(makeLean(full), lean);
      // Checked as clients check them, without strict mode (it refuses a type list).
      const validateFull = compileForeignSchema(full);
      const validateLean = compileForeignSchema(makeLean(full));
      for (const value of accepted) {
        assert.ok(validateFull(value), `the full schema accepts ${JSON.stringify(value)}`);
        assert.ok(validateLean(value), `the lean schema accepts ${JSON.stringify(value)}: ${JSON.stringify(validateLean.errors)}`);
      }
    });
  }
}

describe('leanOutputSchema', () => {
  itMakesLean(OUTPUT_CASES, leanOutputSchema);

  it('keeps a schema that refers anywhere whole, the very object', () => {
    const tree = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { name: { type: 'string', description: 'x' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    assert.equal(leanOutputSchema(tree), tree);
    const dynamic = { type: 'object', properties: { a: { $dynamicRef: '#meta', description: 'x' } } };
    assert.equal(leanOutputSchema(dynamic), dynamic);
  });

  it('keeps a foreign schema\'s dialect, so a draft-07 tuple still means a tuple', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { point: { type: 'array', items: [{ type: 'number', description: 'x' }, { type: 'number' }], additionalItems: false } },
    };
    const lean = leanOutputSchema(draft07);
    assert.deepEqual(lean, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } });
    const validate = compileForeignSchema(lean);
    assert.equal(validate({ point: [1, 2, 3] }), true);
    assert.equal(validate({ point: ['a', 2] }), false);
  });

  it('leaves the definition it was given untouched', () => {
    const full = structuredClone(OUTPUT_CASES[1]!.full);
    leanOutputSchema(full);
    assert.deepEqual(full, OUTPUT_CASES[1]!.full);
  });
});

/** Each case: a full input schema, its lean form, and calls the full one accepts (the lean one must too). */
const INPUT_CASES: Array<{ name: string; full: JsonSchema; lean: JsonSchema; accepted: unknown[] }> = [
  {
    name: 'types, enums, defaults, ranges, formats and prose stay; lengths, counts, patterns and closedness go',
    full: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 4096, pattern: '^[^\\u0000]*$', description: 'Workspace-relative.' },
        tags: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 32, uniqueItems: true, default: [] },
        env: { type: 'object', propertyNames: { pattern: '^[A-Z_]+$' }, additionalProperties: { type: 'string', maxLength: 10 }, maxProperties: 200 },
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
        mode: { enum: ['a', 'b'] },
        since: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      },
      examples: [{ path: 'a.txt' }, { path: 'b.txt', limit: 2 }],
    },
    lean: {
      type: 'object',
      required: ['path'],
      properties: {
        path: { type: 'string', description: 'Workspace-relative.' },
        tags: { type: 'array', items: { type: 'string' }, default: [] },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
        mode: { enum: ['a', 'b'] },
        since: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      },
      examples: [{ path: 'a.txt' }],
    },
    accepted: [{ path: 'a.txt' }, { path: 'b', tags: ['x'], env: { A: 'b' }, limit: 3, mode: 'a', since: null }],
  },
  {
    name: 'a oneOf becomes an anyOf; conditions and negations, which only refuse, go',
    full: {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'string', minLength: 2 }] }, w: { type: 'string', not: { pattern: '^\\.' } } },
      if: { required: ['v'] },
      then: { required: ['w'] },
    },
    lean: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'string' }] }, w: { type: 'string' } } },
    // 'abc' matches both branches once their bounds are gone: a lean oneOf would refuse it.
    accepted: [{ v: 'a', w: 'x' }, { v: 'abcd', w: 'y' }],
  },
  {
    name: 'unevaluated* go with what marks properties and items evaluated (contains, then), never left to refuse alone',
    full: {
      type: 'object',
      properties: {
        list: { type: 'array', contains: { type: 'string' }, unevaluatedItems: false },
        tagged: { type: 'object', if: true, then: { properties: { a: { type: 'string' } } }, unevaluatedProperties: { type: 'number' } },
      },
    },
    lean: { type: 'object', properties: { list: { type: 'array' }, tagged: { type: 'object' } } },
    accepted: [{ list: ['x'], tagged: { a: 'x' } }],
  },
  {
    name: 'data is never walked: examples, defaults, enums and consts keep what they say',
    full: { type: 'object', properties: { q: { type: 'object', default: { pattern: 'x', maxLength: 3 }, const: { minLength: 1 } } } },
    lean: { type: 'object', properties: { q: { type: 'object', default: { pattern: 'x', maxLength: 3 }, const: { minLength: 1 } } } },
    accepted: [{ q: { minLength: 1 } }],
  },
];

describe('leanInputSchema', () => {
  itMakesLean(INPUT_CASES, leanInputSchema);

  it('keeps a schema that refers anywhere whole, the very object', () => {
    const schema = { type: 'object', $defs: { name: { type: 'string', maxLength: 3 } }, properties: { a: { $ref: '#/$defs/name' } } };
    assert.equal(leanInputSchema(schema), schema);
  });

  it('leaves the definition it was given untouched', () => {
    const full = structuredClone(INPUT_CASES[0]!.full);
    leanInputSchema(full);
    assert.deepEqual(full, INPUT_CASES[0]!.full);
  });
});

describe('leanAnnotations', () => {
  const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
    [{ readOnlyHint: true, idempotentHint: true, openWorldHint: false }, { readOnlyHint: true, idempotentHint: true, openWorldHint: false }],
    [{ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }, {}],
    [{ readOnlyHint: false, destructiveHint: false, openWorldHint: true }, { destructiveHint: false }],
    [{ title: 'Read a file', readOnlyHint: true, openWorldHint: true }, { title: 'Read a file', readOnlyHint: true }],
  ];
  for (const [given, expected] of cases) {
    it(`${JSON.stringify(given)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(leanAnnotations(given as never), expected);
    });
  }
});

const definition: ToolDefinition = {
  name: 'demo_write',
  title: 'Write a demo',
  description: 'Writes a demo.',
  inputSchema: { type: 'object', additionalProperties: false, properties: { text: { type: 'string', description: 'What to write.' } }, examples: [{ text: 'hi' }] },
  outputSchema: { type: 'object', additionalProperties: false, required: ['bytes'], properties: { bytes: { type: 'integer', minimum: 0, description: 'Written.' } } },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
};

describe('toolListing', () => {
  it('lean: input without its bounds, output types only, default hints left out', () => {
    assert.deepEqual(toolListing(definition, 'lean'), {
      name: 'demo_write',
      title: 'Write a demo',
      description: 'Writes a demo.',
      inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to write.' } }, examples: [{ text: 'hi' }] },
      outputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } },
      annotations: { openWorldHint: false },
    });
  });

  it('lean: annotations that all equal the defaults are left out whole', () => {
    const listing = toolListing({ ...definition, annotations: { readOnlyHint: false } }, 'lean');
    assert.equal('annotations' in listing, false);
  });

  it('full: the definition as written', () => {
    const { name, title, description, inputSchema, outputSchema, annotations } = definition;
    assert.deepEqual(toolListing(definition, 'full'), { name, title, description, inputSchema, outputSchema, annotations });
  });
});

describe('ToolCatalog listing option', () => {
  const catalog = (listing?: 'lean' | 'full') =>
    new ToolCatalog({
      ajv: createSchemaCompiler({ useDefaults: true }),
      errors: new ErrorTable(),
      log: createLogger('silent'),
      defaultTimeoutMs: 1000,
      shutdownSignal: new AbortController().signal,
      ...(listing ? { listing } : {}),
    });
  const handler = () => ({ bytes: 2 });

  it('lists lean entries by default, and keeps the definition whole for REST and OpenAPI', () => {
    const tool = catalog().prepare('demo', definition, handler);
    assert.deepEqual(tool.listing, toolListing(definition, 'lean'));
    assert.equal(tool.definition, definition);
    assert.deepEqual(tool.definition.inputSchema.examples, [{ text: 'hi' }]);
  });

  it('lists the full entries with listing: full', () => {
    assert.deepEqual(catalog('full').prepare('demo', definition, handler).listing, toolListing(definition, 'full'));
  });
});

describe('tools.listing in the config', () => {
  const resolve = (tools: Record<string, unknown>) => resolveConfig({ tools }, { env: {}, cwd: '/srv/gw' });

  it('is lean unless the config says full', () => {
    assert.equal(resolve({}).tools.listing, 'lean');
    assert.equal(resolve({ listing: 'full' }).tools.listing, 'full');
  });

  it('refuses any other value, naming the key and the values it takes', () => {
    assert.throws(
      () => resolve({ listing: 'compact' }),
      (err: any) => err.code === 'CONFIG_INVALID' && /tools\.listing: must be one of "lean", "full"/.test(err.message),
    );
  });
});
