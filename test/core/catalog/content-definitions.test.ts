import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorTable } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';
import { PromptCatalog } from '../../../core/catalog/prompt-catalog.js';
import { ResourceCatalog } from '../../../core/catalog/resource-catalog.js';
import { createSchemaCompiler } from '../../../core/lib/schema.js';

function catalogs() {
  const options = { ajv: createSchemaCompiler({ useDefaults: true }), errors: new ErrorTable(), log: createLogger('silent'), defaultTimeoutMs: 1000, shutdownSignal: new AbortController().signal };
  return { resources: new ResourceCatalog(options), prompts: new PromptCatalog(options) };
}

const read = () => 'text';

describe('resource definitions', () => {
  const refused: Array<[string, unknown, RegExp]> = [
    ['not an object', null, /must be an object/],
    ['neither uri nor uriTemplate', { name: 'n' }, /exactly one of "uri"/],
    ['both uri and uriTemplate', { name: 'n', uri: 'a://b', uriTemplate: 'a://{b}' }, /exactly one of "uri"/],
    ['no name', { uri: 'a://b' }, /a name is required/],
    ['a uri that is not a URI', { name: 'n', uri: 'no scheme' }, /absolute URI/],
    ['a uri with a template expression', { name: 'n', uri: 'a://{b}' }, /use uriTemplate/],
    ['a bad template', { name: 'n', uriTemplate: 'a://{b' }, /not closed/],
    ['a template without variables', { name: 'n', uriTemplate: 'a://b' }, /no variable/],
    ['a negative size', { name: 'n', uri: 'a://b', size: -1 }, /size must be/],
    ['bad annotations', { name: 'n', uri: 'a://b', annotations: { priority: 2 } }, /annotations may have/],
    ['a title that is not a string', { name: 'n', uri: 'a://b', title: 5 }, /title must be a string/],
    ['variables on a static uri', { name: 'n', uri: 'a://b', variables: { type: 'object' } }, /belong to a uriTemplate/],
    ['a variables schema that is not an object schema', { name: 'n', uriTemplate: 'a://{b}', variables: { type: 'string' } }, /type "object"/],
    ['a variables property not in the template', { name: 'n', uriTemplate: 'a://{b}', variables: { type: 'object', properties: { c: { type: 'string' } } } }, /"c", which is not a variable/],
    ['a variables property that is not a string', { name: 'n', uriTemplate: 'a://{b}', variables: { type: 'object', properties: { b: { type: 'integer' } } } }, /must have type "string"/],
    ['a variables schema ajv refuses', { name: 'n', uriTemplate: 'a://{b}', variables: { type: 'object', properties: { b: { type: 'string', minLenght: 1 } } } }, /does not compile/],
    ['a completer for a variable the template lacks', { name: 'n', uriTemplate: 'a://{b}', complete: { c: () => [] } }, /"c", which is not a variable/],
    ['a bad timeout', { name: 'n', uri: 'a://b', timeoutMs: 0 }, /timeoutMs/],
    ['an onSubscribe that is not a function', { name: 'n', uri: 'a://b', onSubscribe: 'subscribe upstream' }, /onSubscribe must be a function/],
    ['an onUnsubscribe that is not a function', { name: 'n', uriTemplate: 'a://{b}', onUnsubscribe: {} }, /onUnsubscribe must be a function/],
  ];
  for (const [label, definition, message] of refused) {
    it(`refuses ${label} with RESOURCE_DEFINITION_INVALID`, () => {
      assert.throws(() => catalogs().resources.prepare('p', definition as never, read), (err: any) => err.code === 'RESOURCE_DEFINITION_INVALID' && message.test(err.message));
    });
  }

  it('serves an exact URI before a template that also matches it, and templates in the order added', () => {
    const { resources } = catalogs();
    const first = resources.prepare('p', { uriTemplate: 'a://{x}', name: 'first' }, read);
    const second = resources.prepare('p', { uriTemplate: 'a://{+y}', name: 'second' }, read);
    const exact = resources.prepare('p', { uri: 'a://fixed', name: 'exact' }, read);
    resources.add([first, second, exact]);
    assert.equal(resources.resolve('a://fixed')?.resource, exact);
    assert.deepEqual(resources.resolve('a://other'), { resource: first, variables: { x: 'other' } });
    assert.deepEqual(resources.resolve('a://deep/path'), { resource: second, variables: { y: 'deep/path' } });
    assert.equal(resources.resolve('b://fixed'), undefined);
  });

  it('takes nothing of a batch with a clash inside it', () => {
    const { resources } = catalogs();
    const one = resources.prepare('p', { uri: 'a://same', name: 'one' }, read);
    const two = resources.prepare('q', { uri: 'a://same', name: 'two' }, read);
    assert.throws(() => resources.add([one, two]), /taken by plugin "p"/);
    assert.equal(resources.size, 0);
  });
});

describe('prompt definitions', () => {
  const get = () => 'hi';
  const refused: Array<[string, unknown, RegExp]> = [
    ['a name with a dot', { name: 'a.b', description: 'd' }, /snake_case/],
    ['no description', { name: 'p' }, /description is required/],
    ['arguments that are not an object schema', { name: 'p', description: 'd', arguments: { type: 'array' } }, /type "object"/],
    ['a non-string argument', { name: 'p', description: 'd', arguments: { type: 'object', properties: { n: { type: 'number' } } } }, /MCP prompt arguments are strings/],
    ['a required argument that is not a property', { name: 'p', description: 'd', arguments: { type: 'object', required: ['x'], properties: {} } }, /required must list/],
    ['a completer for an unknown argument', { name: 'p', description: 'd', complete: { x: () => [] } }, /"x", which is not one of/],
    ['an arguments schema ajv refuses', { name: 'p', description: 'd', arguments: { type: 'object', properties: { a: { type: 'string', patern: 'x' } } } }, /does not compile/],
  ];
  for (const [label, definition, message] of refused) {
    it(`refuses ${label} with PROMPT_DEFINITION_INVALID`, () => {
      assert.throws(() => catalogs().prompts.prepare('p', definition as never, get), (err: any) => err.code === 'PROMPT_DEFINITION_INVALID' && message.test(err.message));
    });
  }

  it('fills in schema defaults before the getter runs, as for tools', async () => {
    const { prompts } = catalogs();
    const seen: unknown[] = [];
    prompts.add([prompts.prepare('p', { name: 'p', description: 'd', arguments: { type: 'object', properties: { tone: { type: 'string', default: 'calm' } } } }, (args) => (seen.push(args), 'ok'))]);
    const outcome = await prompts.render('p', undefined, { caller: { transport: 'memory' } });
    assert.ok(outcome.ok);
    assert.deepEqual(seen, [{ tone: 'calm' }]);
  });

  it('refuses arguments that are not an object (a REST body may be anything)', async () => {
    const { prompts } = catalogs();
    prompts.add([prompts.prepare('p', { name: 'p', description: 'd' }, get)]);
    for (const args of [[], 'text', null, 5]) {
      const outcome = await prompts.render('p', args, { caller: { transport: 'rest' } });
      assert.ok(!outcome.ok && outcome.error.code === 'PROMPT_ARGUMENTS_INVALID', JSON.stringify(args));
    }
  });
});
