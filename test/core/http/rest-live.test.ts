import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { listenHttp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, httpRequest, NOTIFY_REGISTRY, startGateway, type HttpAnswer } from '../../helpers.js';

/**
 * The REST bridge and the OpenAPI document follow tools added and removed at run time, on
 * both paths: the hot path ahead of fastify (a listening server) and fastify's routes (inject).
 */
describe('REST and OpenAPI follow run-time tool changes', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, NOTIFY_REGISTRY], plugins: { echo: {}, notify: {} } });
  const listener = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => listener.close());
  const port = listener.address.port;
  const both = async (url: string, payload?: unknown): Promise<HttpAnswer[]> => {
    const method = payload === undefined ? 'GET' : 'POST';
    const injected = await listener.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    const real = await httpRequest(port, { method, url, ...(payload === undefined ? {} : { payload }) });
    return [real, { statusCode: injected.statusCode, headers: injected.headers, body: injected.body, json: () => injected.json() }];
  };
  const document = async () => (await httpRequest(port, { method: 'GET', url: '/openapi.json' })).json();
  const before = await document();

  it('calls a tool added at run time on both paths, and lists it', async () => {
    const added = await httpRequest(port, { method: 'POST', url: '/tools/notify_add_tool', payload: { name: 'live_rest' } });
    assert.deepEqual(added.json(), { success: true, data: { added: 'live_rest' } });
    for (const answer of await both('/tools/live_rest', { n: 2 })) {
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json(), { success: true, data: { name: 'live_rest', live: true, n: 2 } });
    }
    for (const answer of await both('/tools/live_rest', { n: 'two' })) assert.equal(answer.json().error.code, 'INVALID_ARGUMENTS');
    const listed = (await httpRequest(port, { method: 'GET', url: '/tools' })).json();
    assert.ok(listed.data.some((t: { name: string; plugin: string }) => t.name === 'live_rest' && t.plugin === 'notify'));
    assert.equal((await httpRequest(port, { method: 'GET', url: '/tools/live_rest' })).statusCode, 200);
  });

  it('documents it in GET /openapi.json, with the boot tools described exactly as before', async () => {
    const doc = await document();
    await SwaggerParser.validate(structuredClone(doc));
    const operation = doc.paths['/tools/live_rest'].post;
    assert.equal(operation.operationId, 'live_rest');
    assert.deepEqual(operation.tags, ['notify']);
    assert.deepEqual(operation.requestBody.content['application/json'].schema, { type: 'object', additionalProperties: false, properties: { n: { type: 'integer' } } });
    assert.ok(operation.responses['404'], 'every error status of the table is listed');
    for (const path of Object.keys(before.paths)) assert.deepEqual(doc.paths[path], before.paths[path], path);
    assert.deepEqual(Object.keys(doc.paths).sort(), [...Object.keys(before.paths), '/tools/live_rest'].sort());
  });

  it('shows it in the explorer\'s copy of the document, which is served without waiting for a regeneration', async () => {
    // GET /openapi.json above waited for the regeneration the change started.
    const explorers = (await httpRequest(port, { method: 'GET', url: '/docs/json' })).json();
    assert.ok('/tools/live_rest' in explorers.paths);
    assert.deepEqual(explorers.servers, [{ url: '/' }]);
  });

  it('answers 404 UNKNOWN_TOOL on both paths once it is removed, and drops it from the document', async () => {
    const removed = await httpRequest(port, { method: 'POST', url: '/tools/notify_remove_tool', payload: { name: 'live_rest' } });
    assert.deepEqual(removed.json(), { success: true, data: { removed: true } });
    for (const answer of await both('/tools/live_rest', { n: 2 })) {
      assert.equal(answer.statusCode, 404);
      assert.equal(answer.json().error.code, 'UNKNOWN_TOOL');
    }
    assert.equal((await httpRequest(port, { method: 'GET', url: '/tools/live_rest' })).statusCode, 404);
    const doc = await document();
    assert.equal(doc.paths['/tools/live_rest'], undefined);
    assert.deepEqual(doc.paths, before.paths);
  });
});
