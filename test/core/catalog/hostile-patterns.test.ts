// Patterns in schemas the gateway did not write run in linear time where RE2 can run them
// (issue 34, item 2). The probe, `^(a+)+$` against 28 a's and "!", held the event loop
// 16.8 s, doubling with each a: here it is answered at once, through the catalog, over MCP and
// over REST, from a real upstream server. What stays slow in linear time, and what RE2 cannot
// run (a lookaround, a backreference) and so runs on V8's engine, is stopped at a bound. (No
// time is asserted: before the fix these tests did not end.)
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FOREIGN_COMPILE_MS, FOREIGN_VALIDATION_MS } from '../../../core/catalog/foreign-schema.js';
import { createSchemaCompiler, type JsonSchema } from '../../../core/lib/schema.js';
import { ToolCatalog } from '../../../core/catalog/tool-catalog.js';
import { ErrorTable } from '../../../core/contract/errors.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { createLogger } from '../../../core/lib/logger.js';
import type { ToolDefinition } from '../../../core/contract/plugin-types.js';
import { memoryClient, resultJson, startGateway, TESTS, waitFor } from '../../helpers.js';

const NESTED = '^(a+)+$';
const PROBES = [`${'a'.repeat(28)}!`, `${'a'.repeat(40)}!`];
const memory = { caller: { transport: 'memory' as const, identity: 'unit' } };

function newCatalog(): ToolCatalog {
  return new ToolCatalog({
    ajv: createSchemaCompiler({ useDefaults: true }),
    errors: new ErrorTable(),
    log: createLogger('silent'),
    defaultTimeoutMs: 1000,
    shutdownSignal: new AbortController().signal,
  });
}

/** A catalog holding one tool `t` with `inputSchema`, relayed (foreignSchemas) unless `own`. */
function catalogWith(inputSchema: JsonSchema, own = false) {
  const catalog = newCatalog();
  const definition: ToolDefinition = { name: 't', description: 'relayed', annotations: { readOnlyHint: true }, inputSchema, ...(own ? {} : { foreignSchemas: true }) };
  catalog.add([catalog.prepare('up', definition, () => ({ ok: true }))]);
  return async (args: unknown) => {
    const result = await catalog.call('t', args, memory);
    return result.ok ? { code: 'ok', message: '', details: undefined } : { code: result.error.code, message: result.error.message, details: result.error.details };
  };
}

const objectWith = (properties: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', properties, ...extra });

describe('patterns of foreign schemas in the catalog', () => {
  it("answers the probe against `pattern` with INVALID_ARGUMENTS, and takes a matching text", async () => {
    const call = catalogWith(objectWith({ text: { type: 'string', pattern: NESTED } }, { required: ['text'] }));
    for (const text of PROBES) {
      const answer = await call({ text });
      assert.equal(answer.code, 'INVALID_ARGUMENTS');
      assert.deepEqual(answer.details, [{ path: '/text', message: `must match pattern "${NESTED}"` }]);
    }
    assert.equal((await call({ text: 'a'.repeat(40) })).code, 'ok');
  });

  it('answers the probe as a key against `patternProperties`', async () => {
    const call = catalogWith(objectWith({}, { patternProperties: { [NESTED]: { type: 'integer' } }, additionalProperties: false }));
    for (const key of PROBES) assert.equal((await call({ [key]: 1 })).code, 'INVALID_ARGUMENTS');
    assert.equal((await call({ aaaa: 1 })).code, 'ok');
    assert.equal((await call({ aaaa: 'x' })).code, 'INVALID_ARGUMENTS', 'the matched key is checked against its subschema');
  });

  it('keeps each pattern of a schema apart', async () => {
    const call = catalogWith(objectWith({ a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' } }));
    assert.equal((await call({ a: 'aa', b: 'bb' })).code, 'ok');
    assert.equal((await call({ a: 'bb' })).code, 'INVALID_ARGUMENTS');
    assert.equal((await call({ b: 'aa' })).code, 'INVALID_ARGUMENTS');
  });

  it('stops a validation that is linear but long, texts of an array one by one, and answers INVALID_ARGUMENTS saying so', async () => {
    // RE2's DFA gives up on this pattern (7,000 instructions): about a second per text here, so
    // twenty would hold the event loop for twenty. Each text matches: only the bound refuses them.
    // (linear-regexp.test.ts checks that a pattern stopped half way answers right afterwards.)
    const call = catalogWith(objectWith({ texts: { type: 'array', items: { type: 'string', pattern: '^(?:a|aa|aaa){0,900}$' } } }));
    const answer = await call({ texts: Array.from({ length: 20 }, () => 'a'.repeat(1000)) });
    assert.equal(answer.code, 'INVALID_ARGUMENTS');
    assert.match(answer.message, new RegExp(`took longer than ${FOREIGN_VALIDATION_MS} ms .*; send a smaller value`));
  });

  it('stops a schema whose shape multiplies the work ($ref to allOf of $refs, 2^30 visits)', async () => {
    // 2^26 took 240 ms here, with the JIT warm: too close to the bound to be sure to pass it.
    const defs: JsonSchema = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const call = catalogWith(objectWith({ x: { $ref: '#/$defs/d0' } }, { $defs: defs }));
    assert.equal((await call({ x: 'a' })).code, 'INVALID_ARGUMENTS');
    assert.equal((await call({})).code, 'ok');
  });

  it('refuses a schema that takes too long to compile (Ajv on 1,200 objects; a hundred costly patterns), and compiles the next', () => {
    // Here, without the bound: about 15 s for each.
    const many: JsonSchema = {};
    for (let i = 0; i < 1200; i++) many[`p${i}`] = objectWith({ a: { type: 'integer', minimum: i }, b: { enum: ['x', String(i)] } }, { required: ['a'] });
    const costly: JsonSchema = {};
    for (let i = 0; i < 100; i++) costly[`p${i}`] = { type: 'string', pattern: `^(?:a|aa|aaa){0,${900 - i}}$` };
    for (const properties of [many, costly]) {
      assert.throws(
        () => newCatalog().prepare('up', { name: 'big', description: 'd', annotations: { readOnlyHint: true }, foreignSchemas: true, inputSchema: objectWith(properties) }, () => 1),
        (err: any) => err.code === 'TOOL_DEFINITION_INVALID' && err.message.includes(`compiling it took longer than ${FOREIGN_COMPILE_MS} ms`),
      );
    }
    assert.doesNotThrow(() => catalogWith(objectWith({ a: { type: 'string', pattern: '^a+$' } })));
  });

  it('checks `format: regex` as a syntax, never running the pattern it is given', async () => {
    const call = catalogWith(objectWith({ rx: { type: 'string', format: 'regex' } }));
    assert.equal((await call({ rx: NESTED })).code, 'ok');
    assert.equal((await call({ rx: '(' })).code, 'INVALID_ARGUMENTS');
  });

  const stringMatching = (pattern: string) => objectWith({ s: { type: 'string', pattern } });
  // What RE2 cannot run runs on V8's engine, meaning exactly what ECMAScript means.
  const onV8: Array<{ label: string; inputSchema: JsonSchema; valid: unknown[]; invalid: unknown[] }> = [
    { label: 'a backreference', inputSchema: stringMatching('^(a|b)\\1$'), valid: [{ s: 'aa' }, { s: 'bb' }], invalid: [{ s: 'ab' }] },
    { label: 'a named backreference', inputSchema: stringMatching('^(?<q>["\'])\\w+\\k<q>$'), valid: [{ s: '"ab"' }], invalid: [{ s: '"ab\'' }] },
    { label: 'a lookahead', inputSchema: stringMatching('^(?!.*\\.\\.)[a-z.]+$'), valid: [{ s: 'a.b.c' }], invalid: [{ s: 'a..b' }] },
    { label: 'a lookbehind in patternProperties', inputSchema: objectWith({}, { patternProperties: { '(?<=x)y$': {} }, additionalProperties: false }), valid: [{ xy: 1 }], invalid: [{ zy: 1 }] },
    { label: 'a repeat count over 1,000', inputSchema: stringMatching('^.{0,4096}$'), valid: [{ s: 'a'.repeat(4096) }], invalid: [{ s: 'a'.repeat(4097) }] },
  ];
  for (const { label, inputSchema, valid, invalid } of onV8) {
    it(`offers a tool whose schema has ${label}, and checks calls as ECMAScript means it`, async () => {
      const call = catalogWith(inputSchema);
      for (const args of valid) assert.equal((await call(args)).code, 'ok', JSON.stringify(args));
      for (const args of invalid) assert.equal((await call(args)).code, 'INVALID_ARGUMENTS', JSON.stringify(args));
    });
  }

  it('offers a tool with a backreference in its outputSchema', () => {
    const definition: ToolDefinition = { name: 'out', description: 'd', annotations: { readOnlyHint: true }, foreignSchemas: true, inputSchema: objectWith({}), outputSchema: stringMatching('(x)\\1') };
    assert.doesNotThrow(() => newCatalog().prepare('up', definition, () => 1));
  });

  it('stops a backreference pattern that backtracks for hours on V8 at the bound, answers INVALID_ARGUMENTS, and answers the next call', async () => {
    const call = catalogWith(objectWith({ s: { type: 'string', pattern: '^(a+)+\\1$' } }));
    const answer = await call({ s: `${'a'.repeat(40)}!` });
    assert.equal(answer.code, 'INVALID_ARGUMENTS');
    assert.match(answer.message, new RegExp(`took longer than ${FOREIGN_VALIDATION_MS} ms .*; send a smaller value`));
    assert.equal((await call({ s: 'aaaa' })).code, 'ok');
    assert.equal((await call({ s: 'aaa!' })).code, 'INVALID_ARGUMENTS');
  });

  // What no engine can run: not an ECMAScript regular expression (with the `u` flag Ajv uses).
  const refused: Array<{ label: string; inputSchema: JsonSchema; outputSchema?: JsonSchema }> = [
    { label: 'an unclosed group', inputSchema: stringMatching('(') },
    { label: "Python's named group", inputSchema: stringMatching('(?P<name>a)') },
    { label: 'an escape ECMAScript does not have, in patternProperties', inputSchema: objectWith({}, { patternProperties: { '\\Z': {} } }) },
    { label: 'an invalid pattern in its outputSchema', inputSchema: objectWith({}), outputSchema: stringMatching('[z-a]') },
  ];
  for (const { label, inputSchema, outputSchema } of refused) {
    it(`refuses a tool whose schema has ${label}, naming the pattern and why`, () => {
      const definition: ToolDefinition = { name: 'bad', description: 'd', annotations: { readOnlyHint: true }, foreignSchemas: true, inputSchema, ...(outputSchema ? { outputSchema } : {}) };
      assert.throws(
        () => newCatalog().prepare('up', definition, () => 1),
        (err: any) => err.code === 'TOOL_DEFINITION_INVALID' && /^Plugin "up", tool "bad": its schema does not compile: the pattern ".+" is not a valid regular expression: /.test(err.message),
      );
    });
  }

  it("leaves the gateway's own schemas on V8's engine, lookarounds included", async () => {
    const call = catalogWith(objectWith({ name: { type: 'string', pattern: '^(?!-)[a-z-]+$' } }), true);
    assert.equal((await call({ name: 'a-b' })).code, 'ok');
    assert.equal((await call({ name: '-ab' })).code, 'INVALID_ARGUMENTS');
  });
});

describe("the probe against a real upstream server's schema, over MCP and REST", async () => {
  const server = { name: 'hostile', command: process.execPath, args: [join(TESTS, 'core', 'catalog', 'fixtures', 'hostile-schema-server.js')] };
  const gateway = await startGateway({ plugins: { echo: {}, upstream: { config: { servers: [server] } } } });
  await waitFor(() => gateway.catalog.get('hostile_match') !== undefined && gateway.catalog.get('hostile_keys') !== undefined);
  const client = await memoryClient(gateway);
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const rest = async (tool: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${http.address.port}/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('MCP: tools/call answers the validation error, and a matching text reaches the server', async () => {
    for (const text of PROBES) {
      const result = await client.callTool({ name: 'hostile_match', arguments: { text } });
      assert.equal(result.isError, true);
      assert.equal(resultJson(result).code, 'INVALID_ARGUMENTS');
      assert.deepEqual(resultJson(result).details, [{ path: '/text', message: `must match pattern "${NESTED}"` }]);
      const keys = await client.callTool({ name: 'hostile_keys', arguments: { [text]: 1 } });
      assert.equal(resultJson(keys).code, 'INVALID_ARGUMENTS');
    }
    const passed = await client.callTool({ name: 'hostile_match', arguments: { text: 'aaaa' } });
    assert.notEqual(passed.isError, true);
    assert.deepEqual(resultJson(passed), { received: { text: 'aaaa' } });
  });

  it('REST: POST /tools/{name} answers 400 INVALID_ARGUMENTS, and the gateway goes on serving', async () => {
    for (const text of PROBES) {
      const answer = await rest('hostile_match', { text });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, 'INVALID_ARGUMENTS');
      assert.equal((await rest('hostile_keys', { [text]: 1 })).body.error.code, 'INVALID_ARGUMENTS');
    }
    const echoed = await rest('echo', { text: 'still here' });
    assert.equal(echoed.status, 200);
  });

  it('offers the tool whose pattern has a lookahead, and checks its calls as ECMAScript means it', async () => {
    const passed = await client.callTool({ name: 'hostile_lookahead', arguments: { host: 'example.com' } });
    assert.deepEqual(resultJson(passed), { received: { host: 'example.com' } });
    const refused = await client.callTool({ name: 'hostile_lookahead', arguments: { host: '-example.com' } });
    assert.equal(resultJson(refused).code, 'INVALID_ARGUMENTS');
    assert.equal((await rest('hostile_lookahead', { host: '-example.com' })).status, 400);
  });

  it('stops the backreference pattern that backtracks on V8 at the bound, over MCP and REST, and goes on serving', async () => {
    const probe = `${'a'.repeat(40)}!`;
    const result = await client.callTool({ name: 'hostile_backref', arguments: { text: probe } });
    assert.equal(resultJson(result).code, 'INVALID_ARGUMENTS');
    assert.match(resultJson(result).message, new RegExp(`took longer than ${FOREIGN_VALIDATION_MS} ms`));
    const answer = await rest('hostile_backref', { text: probe });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'INVALID_ARGUMENTS');
    const passed = await client.callTool({ name: 'hostile_backref', arguments: { text: 'aaaa' } });
    assert.deepEqual(resultJson(passed), { received: { text: 'aaaa' } });
    assert.equal((await rest('echo', { text: 'still here' })).status, 200);
  });

  it('refuses only the tool whose pattern is not a regular expression, naming the pattern in the status', () => {
    assert.equal(gateway.catalog.get('hostile_python'), undefined);
    const upstream = gateway.status().plugins.find((p) => p.name === 'upstream')!;
    const hostile = (upstream.status?.detail?.servers as Array<{ name: string; conflicts?: Array<{ upstream: string; reason: string }> }>).find((s) => s.name === 'hostile')!;
    assert.deepEqual(hostile.conflicts?.map((c) => c.upstream), ['python'], JSON.stringify(hostile));
    assert.match(hostile.conflicts![0]!.reason, /the pattern "\^\(\?P<id>\[a-z\]\+\)\$" is not a valid regular expression/);
  });
});
