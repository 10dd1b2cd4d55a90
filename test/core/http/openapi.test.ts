import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp, listenHttp } from '../../../core/http/http-server.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../../core/plugins/registry.js';
import { documentCompiler, ROOT, startGateway } from '../../helpers.js';

const registry = loadRegistry([BUILTIN_REGISTRY_DIR]);
const shipped = Object.fromEntries([...registry.keys()].map((name) => [name, {}]));
const withPlugins = (extra: Record<string, unknown> = {}) => ({ plugins: { ...shipped, echo: { enabled: false } }, transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } }, ...extra });

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, any>; requestBody?: any };
const operations = (doc: any): Array<[string, Operation]> =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as object).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op as Operation]));

describe('the OpenAPI document', async () => {
  const gateway = await startGateway(withPlugins());
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();

  it('is valid OpenAPI 3.1, licensed as the package is, served from its own origin when not listening', async () => {
    await SwaggerParser.validate(structuredClone(doc));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(doc.info.license.identifier, pkg.license);
    assert.deepEqual(doc.servers, [{ url: '/' }]);
  });

  it('names every operation uniquely and lists the 4xx answers of each', () => {
    const ids = operations(doc).map(([route, op]) => {
      assert.ok(op.operationId, `${route} has no operationId`);
      assert.ok(Object.keys(op.responses).some((status) => /^4\d\d$/.test(status)), `${route} has no 4xx response`);
      return op.operationId;
    });
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length >= gateway.catalog.size + 3);
  });

  it('says no key is needed when none is configured', () => {
    assert.deepEqual(doc.security, []);
    assert.equal(doc.components.securitySchemes, undefined);
  });

  it('types every tool result with its outputSchema, recursive shapes as components', () => {
    for (const tool of gateway.catalog.list()) {
      const ok = doc.paths[`/tools/${tool.listing.name}`].post.responses['200'].content['application/json'].schema;
      assert.equal(ok.properties.data.type, 'object', tool.listing.name);
      assert.deepEqual(Object.keys(ok.properties.data.properties ?? {}), Object.keys(tool.definition.outputSchema?.properties ?? {}), tool.listing.name);
    }
    const node = doc.components.schemas['dir_tree.node'];
    assert.deepEqual(node.properties.children.items, { $ref: '#/components/schemas/dir_tree.node' });
  });

  it('offers each tool\'s input examples as the request body examples', () => {
    for (const tool of gateway.catalog.list()) {
      const examples = tool.definition.inputSchema.examples as unknown[];
      const media = doc.paths[`/tools/${tool.listing.name}`].post.requestBody.content['application/json'];
      const offered = media.example === undefined ? Object.values(media.examples).map((e: any) => e.value) : [media.example];
      assert.deepEqual(offered, examples, tool.listing.name);
    }
  });

  it('describes what GET /tools, GET /tools/{name}, /health and a tool call really answer', async () => {
    const compile = documentCompiler(doc);
    const cases = [
      ['get', '/tools', '/tools', undefined],
      ['get', '/tools/{name}', '/tools/file_read', undefined],
      ['get', '/health', '/health', undefined],
      ['get', '/health/live', '/health/live', undefined],
      ['post', '/tools/gateway_status', '/tools/gateway_status', {}],
      ['post', '/tools/dir_tree', '/tools/dir_tree', { depth: 3 }],
    ] as const;
    for (const [method, path, url, payload] of cases) {
      const res = await app.inject({ method: method.toUpperCase() as 'GET' | 'POST', url, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
      const validate = compile(doc.paths[path][method].responses['200'].content['application/json'].schema);
      assert.ok(validate(res.json()), `${url}: ${JSON.stringify(validate.errors)}`);
    }
    const unknown = await app.inject({ method: 'GET', url: '/tools/no_such_tool' });
    const validate = compile(doc.paths['/tools/{name}'].get.responses[String(unknown.statusCode)].content['application/json'].schema);
    assert.ok(validate(unknown.json()));
  });
});

describe('the OpenAPI document of a listening gateway with API keys', async () => {
  const key = createApiKey();
  const gateway = await startGateway(withPlugins({ auth: 'key', apiKeys: [{ name: 'ci', hash: key.hash, scopes: ['*'] }] }));
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  const base = `http://127.0.0.1:${listener.address.port}`;
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;

  it('names the listening address as its server; the explorer\'s copy keeps its own origin', async () => {
    assert.deepEqual(doc.servers, [{ url: base }]);
    const explorers = (await (await fetch(`${base}/docs/json`)).json()) as any;
    assert.deepEqual(explorers.servers, [{ url: '/' }]);
  });

  it('requires a key everywhere but on the public routes', async () => {
    // The requests first: a validation that holds the event loop for seconds on a loaded machine
    // would keep fetch from dropping a kept-alive connection the server has closed meanwhile.
    assert.equal((await fetch(`${base}/health`)).status, 200);
    assert.equal((await fetch(`${base}/health/live`)).status, 200);
    await SwaggerParser.validate(structuredClone(doc));
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearer']);
    assert.deepEqual(doc.security, [{ bearer: [] }, { apiKey: [] }]);
    assert.deepEqual(doc.paths['/health'].get.security, []);
    assert.deepEqual(doc.paths['/health/live'].get.security, []);
    for (const [route, op] of operations(doc)) if (route !== 'GET /health' && route !== 'GET /health/live') assert.equal(op.security, undefined, route);
  });
});
