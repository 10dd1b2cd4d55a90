import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { createSchemaCompiler } from '../../../core/lib/schema.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { PluginRouteTable } from '../../../core/plugins/plugin-route-table.js';
import { httpResponse, responseProblem } from '../../../core/http/route-response.js';
import type { PluginHttp, RouteDefinition } from '../../../core/contract/route-types.js';
import { startGateway, tempDir } from '../../helpers.js';

const ok = () => null;
const route = (extra: Partial<Record<keyof RouteDefinition, unknown>>) => ({ method: 'GET', path: 'items', description: 'Items.', ...extra }) as RouteDefinition;

describe('ctx.http definitions', () => {
  const recorder = () => new PluginRouteTable({ ajv: createSchemaCompiler({ useDefaults: true }), defaultTimeoutMs: 1000 }).recorder('board');
  const dir = tempDir('mcpgw-defs-');
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'a-file'), 'x');

  const bad: Array<[string, (http: PluginHttp) => void, RegExp]> = [
    ['an unknown method', (h) => h.route(route({ method: 'TRACE' }), ok), /method must be one of GET, POST, PUT, PATCH, DELETE/],
    ['no description', (h) => h.route(route({ description: ' ' }), ok), /a description is required/],
    ['an empty path', (h) => h.route(route({ path: '/' }), ok), /1 to 16 segments/],
    ['a .. segment', (h) => h.route(route({ path: 'a/../b' }), ok), /segment "\.\." must be/],
    ['a segment with a space', (h) => h.route(route({ path: 'a b' }), ok), /segment "a b" must be/],
    ['a path under static/', (h) => h.route(route({ path: 'static/x' }), ok), /may not start with "static\/"/],
    ['a parameter named twice', (h) => h.route(route({ path: ':id/:id' }), ok), /parameter :id appears twice/],
    ['a bodySchema on a GET', (h) => h.route(route({ bodySchema: { type: 'object' } }), ok), /a GET route has no body/],
    ['a querySchema that is not an object', (h) => h.route(route({ querySchema: { type: 'string' } }), ok), /querySchema must have type: "object"/],
    ['a schema ajv refuses', (h) => h.route(route({ method: 'POST', bodySchema: { type: 'object', requried: ['x'] } }), ok), /bodySchema does not compile: strict mode: unknown keyword: "requried"/],
    ['a bad scope', (h) => h.route(route({ scope: 'Admin!' }), ok), /scope must match/],
    ['a bodyLimit of 0', (h) => h.route(route({ method: 'POST', bodyLimit: 0 }), ok), /bodyLimit must be a positive integer/],
    ['a responseType that is not a media type', (h) => h.route(route({ responseType: 'html' }), ok), /responseType must be a media type/],
    ['no handler', (h) => h.route(route({}), undefined as never), /the handler must be a function/],
    ['the same method and path twice', (h) => { h.route(route({ path: 'items/:a' }), ok); h.route(route({ path: 'items/:b' }), ok); }, /same method and path/],
    ['a relative static folder', (h) => h.static('public'), /dir must be an absolute path/],
    ['a static folder that does not exist', (h) => h.static(join(dir, 'nope')), /is not a readable directory \(ENOENT\)/],
    ['a static "folder" that is a file', (h) => h.static(join(dir, 'a-file')), /is not a readable directory/],
    ['a static index with a slash', (h) => h.static(join(dir, 'public'), { index: 'a/b.html' }), /index must be a file name/],
    ['two static folders', (h) => { h.static(join(dir, 'public')); h.static(join(dir, 'public')); }, /once per plugin/],
    ['a socket path with a parameter', (h) => h.websocket('rooms/:id', ok), /no parameters/],
    ['a socket on the path of a GET route', (h) => { h.route(route({ path: 'feed' }), ok); h.websocket('feed', ok); }, /another WebSocket or GET route/],
    ['a socket with a bad maxQueuedBytes', (h) => h.websocket('feed', ok, { maxQueuedBytes: -1 }), /maxQueuedBytes must be a positive integer/],
  ];
  for (const [label, record, message] of bad) {
    it(`refuses ${label} with ROUTE_DEFINITION_INVALID naming the plugin`, () => {
      assert.throws(() => record(recorder().http), (err: any) => {
        assert.equal(err.code, 'ROUTE_DEFINITION_INVALID');
        assert.match(err.message, /^Plugin "board": /);
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('accepts the same path under other methods, and gives each route a unique operationId', () => {
    const { http, seal } = recorder();
    http.route(route({ path: 'items/:id' }), ok);
    http.route(route({ method: 'DELETE', path: 'items/:id' }), ok);
    http.route(route({ path: 'items/by-id' }), ok);
    const ids = seal().routes.map((r) => r.operationId);
    assert.deepEqual(ids, ['board-get-items-by-id', 'board-delete-items-by-id', 'board-get-items-by-id-2']);
  });

  it('refuses anything recorded after setup (sealed), pointing at setup', () => {
    const { http, seal } = recorder();
    seal();
    assert.throws(() => http.route(route({}), ok), /ctx\.http is for setup only/);
    assert.throws(() => http.websocket('feed', ok), /ctx\.http is for setup only/);
  });
});

describe('ctx.http through the plugin host', async () => {
  const dir = tempDir('mcpgw-host-routes-');
  const registry = join(dir, 'registry');
  mkdirSync(registry);
  const plugin = (name: string, setup: string, optional = false) => {
    writeFileSync(join(dir, `${name}.mjs`), `export default { name: '${name}', version: '1.0.0', description: 'test', async setup(ctx) { ${setup} } };\n`);
    writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs`, optional }));
  };
  const get = { method: 'GET', path: 'hello', description: 'Hello.' };
  // Tries a route when told to, after boot, and says what happened.
  plugin('late', `ctx.events.subscribe('late.try', () => { try { ctx.http.route(${JSON.stringify({ ...get, path: 'later' })}, () => 1); ctx.events.publish('late.result', { code: 'none' }); } catch (err) { ctx.events.publish('late.result', { code: err.code }); } }); ctx.http.route(${JSON.stringify(get)}, () => 'hi');`);
  plugin('failing', `ctx.http.route(${JSON.stringify(get)}, () => 'never'); throw new Error('setup broke');`, true);
  plugin('wrong', `ctx.http.route({ method: 'GET', path: '../x', description: 'x' }, () => 1);`);

  const gateway = await startGateway({ registries: [registry], plugins: { late: {}, failing: {} } }, dir);
  const app = await createHttpApp(gateway);
  after(() => app.close());

  it('mounts the routes of a setup that succeeded', async () => {
    const res = await app.inject({ method: 'GET', url: '/plugins/late/hello' });
    assert.deepEqual(res.json(), { success: true, data: 'hi' });
  });

  it('throws PLUGIN_SETUP_OVER at a route recorded after setup, and never mounts it', async () => {
    const results: string[] = [];
    gateway.events.subscribe('late.result', (event) => results.push((event.data as { code: string }).code));
    gateway.events.publish('test', 'late.try', {});
    assert.deepEqual(results, ['PLUGIN_SETUP_OVER']);
    assert.equal((await app.inject({ method: 'GET', url: '/plugins/late/later' })).statusCode, 404);
  });

  it('drops the routes of a setup that failed (an optional plugin, skipped)', async () => {
    assert.deepEqual(gateway.plugins.skipped.map((s) => s.name), ['failing']);
    assert.equal((await app.inject({ method: 'GET', url: '/plugins/failing/hello' })).statusCode, 404);
  });

  it('stops the boot on a bad definition, naming the plugin', async () => {
    await assert.rejects(startGateway({ registries: [registry], plugins: { wrong: {} } }, tempDir()), (err: any) => {
      assert.equal(err.code, 'ROUTE_DEFINITION_INVALID');
      assert.match(err.message, /Plugin "wrong": route GET \.\.\/x: the path segment "\.\." must be/);
      return true;
    });
  });
});

describe('httpResponse checks', () => {
  const cases: Array<[string, ReturnType<typeof httpResponse>, RegExp | undefined]> = [
    ['a string with its default type', httpResponse('hi'), undefined],
    ['bytes with a type and a 201', httpResponse(new Uint8Array([1]), { status: 201, type: 'image/png' }), undefined],
    ['a redirect with its location', httpResponse('', { status: 302, headers: { location: '/plugins/board/static/' } }), undefined],
    ['an error status', httpResponse('no', { status: 404 }), /status 404 \(200-399 only/],
    ['a type that is not a media type', httpResponse('x', { type: 'html' }), /media type "html"/],
    ['a header the gateway sets', httpResponse('x', { headers: { 'Set-Cookie': 'a=b' } }), /the header Set-Cookie/],
    ['a header name that is not a token', httpResponse('x', { headers: { 'bad name': 'x' } }), /the header name "bad name"/],
    ['a header value with a line break', httpResponse('x', { headers: { 'x-a': 'a\r\nx-b: c' } }), /a bad value for the header x-a/],
  ];
  for (const [label, response, problem] of cases) {
    it(`${problem ? 'refuses' : 'accepts'} ${label}`, () => {
      const found = responseProblem(response);
      if (problem) assert.match(found ?? '', problem);
      else assert.equal(found, undefined);
    });
  }
});
