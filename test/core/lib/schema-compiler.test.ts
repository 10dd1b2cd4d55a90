import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSchemaCompiler } from '../../../core/lib/schema.js';

// A process that starts more than one gateway (the tests, the bench, @mcp-gateway/core/testing)
// compiles each schema once per set of compiler options (core/lib/schema.ts).
describe('schema compilers', () => {
  const schema = () => ({ type: 'object', additionalProperties: false, properties: { n: { type: 'integer', default: 1 } } });

  it('share the validator of a schema with the same JSON, made by compilers of the same options', () => {
    const first = createSchemaCompiler({ useDefaults: true }).compile(schema());
    const second = createSchemaCompiler({ useDefaults: true }).compile(schema());
    assert.equal(second, first);
    const data: Record<string, unknown> = {};
    assert.equal(second(data), true);
    assert.deepEqual(data, { n: 1 });
  });

  it('do not share across options: defaults are filled in only where asked', () => {
    const filling = createSchemaCompiler({ useDefaults: true }).compile(schema());
    const plain = createSchemaCompiler().compile(schema());
    assert.notEqual(plain, filling);
    const data: Record<string, unknown> = {};
    assert.equal(plain(data), true);
    assert.deepEqual(data, {});
  });

  it('compile a schema with an $id each time, so that one compiler still refuses a second under the same $id', () => {
    const ajv = createSchemaCompiler();
    const withId = () => ({ $id: 'https://example.test/thing', type: 'string' });
    const other = createSchemaCompiler().compile(withId());
    assert.notEqual(ajv.compile(withId()), other);
    assert.throws(() => ajv.compile(withId()), /already exists/);
  });
});
