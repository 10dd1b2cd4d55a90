// Relayed tools over REST: GET /tools names where each runs (origin), and the OpenAPI document
// stays valid with schemas another server wrote (draft-07, definitions, unknown keywords).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { documentCompiler, startGateway, WITH_RELAY } from '../../helpers.js';

describe('relayed tools over REST', async () => {
  const gateway = await startGateway(WITH_RELAY);
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const compile = documentCompiler(doc);

  it('GET /tools and GET /tools/{name} give origin for a relayed tool only, as the document describes', async () => {
    const list = await app.inject({ method: 'GET', url: '/tools' });
    const entries = list.json().data as Array<{ name: string; plugin: string; origin?: string }>;
    const byName = new Map(entries.map((e) => [e.name, e]));
    assert.equal(byName.get('relay_read_file')!.origin, 'upstream fs: read_text_file');
    assert.equal(byName.get('relay_search')!.origin, 'upstream web: search');
    for (const name of ['echo', 'relay_ping', 'gateway_status']) assert.equal('origin' in byName.get(name)!, false, name);

    const one = await app.inject({ method: 'GET', url: '/tools/relay_read_file' });
    assert.equal(one.statusCode, 200);
    assert.deepEqual([one.json().data.plugin, one.json().data.origin], ['relay', 'upstream fs: read_text_file']);

    for (const [path, answer] of [['/tools', list], ['/tools/{name}', one]] as const) {
      const validate = compile(doc.paths[path].get.responses['200'].content['application/json'].schema);
      assert.ok(validate(answer.json()), `${path}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('keeps the OpenAPI document valid, in 2020-12 terms, with the recursive definition hoisted', async () => {
    await SwaggerParser.validate(structuredClone(doc));
    const body = (tool: string) => doc.paths[`/tools/${tool}`].post.requestBody.content['application/json'].schema;
    const readFile = body('relay_read_file');
    assert.equal(readFile.$schema, undefined);
    assert.equal(readFile.definitions, undefined);
    assert.deepEqual(readFile.properties.path, { type: 'string', minLength: 1, description: 'A path the server may read.' });
    // Draft-07's tuple, said the 2020-12 way, so that the document means what the tool checks.
    assert.deepEqual(readFile.properties.lines.prefixItems, [{ type: 'integer' }, { type: 'integer' }]);
    assert.equal(readFile.properties.lines.items, false);
    // Not strict: ajv's strict mode would also ask a tuple for a minItems the server never wrote.
    const validate = new Ajv2020({ strict: false }).compile(readFile);
    assert.equal(validate({ path: 'a', lines: [1, 2] }), true);
    assert.equal(validate({ path: 'a', lines: [1, 'x'] }), false);
    assert.equal(validate({ path: 'a', lines: [1, 2, 3] }), false);

    assert.deepEqual(body('relay_search').properties.filter.properties.any.items, { $ref: '#/components/schemas/relay_search.filter' });
    assert.deepEqual(Object.keys(doc.components.schemas['relay_search.filter'].properties), ['field', 'any']);
  });

  it('validates a REST call with the foreign schema and passes exactly the body on', async () => {
    const refused = await app.inject({ method: 'POST', url: '/tools/relay_read_file', payload: { path: 5 } });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.code, 'INVALID_ARGUMENTS');
    const answered = await app.inject({ method: 'POST', url: '/tools/relay_read_file', payload: { path: 'a.md' } });
    assert.equal(answered.statusCode, 200);
    assert.deepEqual(answered.json().data, { received: { path: 'a.md' } });
  });
});
