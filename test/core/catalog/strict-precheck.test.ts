import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSchemaCompiler } from '../../../core/lib/schema.js';
import { strictPrecheck } from '../../../core/catalog/strict-precheck.js';

const ajv = createSchemaCompiler();
const string = { type: 'string' };

describe('the strict precheck of tool schemas (before they compile on first use)', () => {
  it('passes schemas strict mode compiles, whatever keywords and positions they use', () => {
    const sound = {
      type: 'object',
      title: 'T',
      description: 'd',
      examples: [{ requried: 'a value, not a keyword' }],
      properties: {
        name: { ...string, minLength: 1, format: 'uri', default: 'x' },
        list: { type: 'array', items: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } } },
        pair: { type: 'array', prefixItems: [string, string], minItems: 2, items: false },
        pick: { anyOf: [string, { type: 'integer', minimum: 0 }] },
        ref: { $ref: '#/$defs/item' },
      },
      $defs: { item: { type: 'object', additionalProperties: false, patternProperties: { '^x': string } } },
      if: { properties: { name: { const: 'x' } }, required: ['name'] },
      then: { properties: { name: string } },
      required: ['name'],
    };
    assert.equal(strictPrecheck(ajv, sound), undefined);
    assert.doesNotThrow(() => ajv.compile(sound));
  });

  const typos: Array<[string, Record<string, unknown>, RegExp]> = [
    ['at the top', { type: 'object', requried: ['a'] }, /unknown keyword: "requried" \(at #\)/],
    ['in a property', { type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } }, /unknown keyword: "maxLenght" \(at \/properties\/a\)/],
    ['in array items', { type: 'object', properties: { a: { type: 'array', items: { type: 'string', patern: 'x' } } } }, /"patern" \(at \/properties\/a\/items\)/],
    ['in a branch of anyOf', { type: 'object', anyOf: [{ type: 'object' }, { type: 'object', requird: [] }] }, /"requird" \(at \/anyOf\/1\)/],
    ['in $defs', { type: 'object', properties: { a: { $ref: '#/$defs/d' } }, $defs: { d: { type: 'string', enumm: ['a'] } } }, /"enumm" \(at \/\$defs\/d\)/],
    ['in additionalProperties', { type: 'object', additionalProperties: { type: 'string', minimun: 1 } }, /"minimun"/],
  ];
  for (const [where, schema, message] of typos) {
    it(`finds an unknown keyword ${where}, as compiling would`, () => {
      assert.match(strictPrecheck(ajv, schema) ?? '', message);
      assert.throws(() => createSchemaCompiler().compile(schema), /unknown keyword/);
    });
  }

  it('finds an unknown format and a schema the meta-schema refuses', () => {
    assert.match(strictPrecheck(ajv, { type: 'object', properties: { c: { type: 'string', format: 'colour' } } }) ?? '', /unknown format "colour" .*\/properties\/c/);
    assert.match(strictPrecheck(ajv, { type: 'object', properties: { a: { type: 'strnig' } } }) ?? '', /schema is invalid: .*type/);
    assert.match(strictPrecheck(ajv, { type: 'object', required: 'a' }) ?? '', /schema is invalid/);
  });
});
