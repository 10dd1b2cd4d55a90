import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { InjectOptions } from 'fastify';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, type HttpAnswer, httpRequest, startGateway, TESTS } from '../../helpers.js';

export const BOARD_REGISTRY = join(TESTS, 'fixtures', 'routes-plugin', 'registry');

/** Keys for each kind of scope a plugin route cares about. */
export function boardKeys() {
  const keys = {
    owner: createApiKey(),
    route: createApiKey(),
    plugin: createApiKey(),
    admin: createApiKey(),
    tools: createApiKey(),
  };
  const apiKeys = [
    { name: 'all', hash: keys.owner.hash, scopes: ['*'] },
    { name: 'routes-only', hash: keys.route.hash, scopes: ['route:board'] },
    { name: 'plugin-wide', hash: keys.plugin.hash, scopes: ['plugin:board'] },
    { name: 'admin-only', hash: keys.admin.hash, scopes: ['route:board:admin'] },
    { name: 'tools-only', hash: keys.tools.hash, scopes: ['echo', 'plugin:echo', 'events'] },
  ];
  return { keys, apiKeys };
}

// Every case runs through fastify's inject and on a real listening server: plugin routes are
// fastify routes on both, behind the same admission hook.
for (const via of ['inject', 'socket'] as const) describe(`plugin HTTP routes (${via})`, async () => {
  const { keys, apiKeys } = boardKeys();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys,
    registries: [FIXTURE_REGISTRY, BOARD_REGISTRY],
    plugins: { board: {}, echo: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 0 } } },
  });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  if (via === 'socket') await app.listen({ host: '127.0.0.1', port: 0 });
  const port = () => (app.server.address() as { port: number }).port;
  const send = (request: { method: string; url: string; headers?: Record<string, string>; payload?: unknown }): Promise<HttpAnswer> =>
    via === 'inject'
      ? app.inject(request as InjectOptions).then((res) => ({ statusCode: res.statusCode, headers: res.headers, body: res.body, json: () => res.json() }))
      : httpRequest(port(), request);
  const as = (key: { key: string }) => ({ authorization: `Bearer ${key.key}` });

  it('a POST with a body that matches its schema answers {success: true, data}', async () => {
    const res = await send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: 'first' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: true, data: { id: 1, text: 'first', author: 'all' } });
    const one = await send({ method: 'GET', url: '/plugins/board/items/1', headers: as(keys.route) });
    assert.equal(one.json().data.text, 'first');
  });

  it('a GET with a query coerced to the schema and defaults filled in', async () => {
    const res = await send({ method: 'GET', url: '/plugins/board/whoami?x=1', headers: as(keys.route) });
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.deepEqual(data.caller, { identity: 'routes-only', keyName: 'routes-only', address: '127.0.0.1' });
    assert.deepEqual(data.query, { x: '1' });
    // The caller's key never reaches the plugin.
    assert.ok(!data.headers.includes('authorization'), data.headers.join());
    const listed = await send({ method: 'GET', url: '/plugins/board/items?limit=1', headers: as(keys.route) });
    assert.equal(listed.json().data.length, 1);
  });

  it('a raw reply keeps its media type and headers', async () => {
    const res = await send({ method: 'GET', url: '/plugins/board/report.csv', headers: as(keys.route) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="report.csv"');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.body, /^id,text\n1,"first"/);
  });

  const refusals: Array<[string, () => Promise<HttpAnswer>, number, string]> = [
    ['no key', () => send({ method: 'GET', url: '/plugins/board/items' }), 401, 'UNAUTHORIZED'],
    ['an unknown key', () => send({ method: 'GET', url: '/plugins/board/items', headers: { 'x-api-key': 'mgw_nope' } }), 401, 'UNAUTHORIZED'],
    ['a key for tools and events only', () => send({ method: 'GET', url: '/plugins/board/items', headers: as(keys.tools) }), 403, 'FORBIDDEN'],
    ['a key of another route scope', () => send({ method: 'GET', url: '/plugins/board/items', headers: as(keys.admin) }), 403, 'FORBIDDEN'],
    ['a foreign Origin, with a good key', () => send({ method: 'GET', url: '/plugins/board/items', headers: { ...as(keys.owner), origin: 'http://evil.example' } }), 403, 'HOST_NOT_ALLOWED'],
    ['a foreign Host, with a good key', () => send({ method: 'GET', url: '/plugins/board/items', headers: { ...as(keys.owner), host: 'evil.example' } }), 403, 'HOST_NOT_ALLOWED'],
    ['a body over the route cap', () => send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: 'x'.repeat(5000) } }), 413, 'MESSAGE_TOO_LARGE'],
    ['a body of the wrong type', () => send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: 5 } }), 400, 'INVALID_ROUTE_INPUT'],
    ['a body with an unknown key', () => send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: 'a', extra: 1 } }), 400, 'INVALID_ROUTE_INPUT'],
    ['an empty body where one is required', () => send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner) }), 400, 'INVALID_ROUTE_INPUT'],
    ['a body that is not JSON', () => send({ method: 'POST', url: '/plugins/board/items', headers: { ...as(keys.owner), 'content-type': 'application/json' }, payload: '{"text":' }), 400, 'PARSE_ERROR'],
    ['a body of another media type', () => send({ method: 'POST', url: '/plugins/board/items', headers: { ...as(keys.owner), 'content-type': 'text/plain' }, payload: 'hi' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a query against its schema', () => send({ method: 'GET', url: '/plugins/board/items?limit=abc', headers: as(keys.owner) }), 400, 'INVALID_ROUTE_INPUT'],
    ['a query key the schema does not know', () => send({ method: 'GET', url: '/plugins/board/items?nope=1', headers: as(keys.owner) }), 400, 'INVALID_ROUTE_INPUT'],
    ["the plugin's own code", () => send({ method: 'GET', url: '/plugins/board/items/99', headers: as(keys.owner) }), 404, 'BOARD_ITEM_NOT_FOUND'],
    ['a handler past its time limit', () => send({ method: 'GET', url: '/plugins/board/slow', headers: as(keys.owner) }), 504, 'ROUTE_TIMEOUT'],
    ['a result JSON cannot express', () => send({ method: 'GET', url: '/plugins/board/broken', headers: as(keys.owner) }), 500, 'INTERNAL_ERROR'],
    ['a raw reply with an error status', () => send({ method: 'GET', url: '/plugins/board/bad-reply', headers: as(keys.owner) }), 500, 'INTERNAL_ERROR'],
    ['a method the route does not answer', () => send({ method: 'DELETE', url: '/plugins/board/items', headers: as(keys.owner) }), 404, 'NOT_FOUND'],
    ['a plugin with no such route', () => send({ method: 'GET', url: '/plugins/nobody/items', headers: as(keys.owner) }), 404, 'NOT_FOUND'],
  ];
  for (const [label, request, status, code] of refusals) {
    it(`${status} ${code} for ${label}`, async () => {
      const res = await request();
      assert.equal(res.statusCode, status, res.body);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, code);
      assert.ok(!/at .*\.(js|ts):\d+/.test(body.error.message), 'no stack in the message');
    });
  }

  it('names every problem of a bad body in details, as JSON Pointers', async () => {
    const res = await send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: '' } });
    assert.deepEqual(res.json().error.details, [{ path: '/text', message: 'must NOT have fewer than 1 characters' }]);
  });

  if (via === 'socket') {
    it("fires the handler's signal with CANCELLED when the client goes away", async () => {
      const waiting = new Promise<void>((resolve) => gateway.events.subscribe('board.waiting', () => resolve()));
      const aborted = new Promise<string>((resolve) => gateway.events.subscribe('board.aborted', (event) => resolve((event.data as { reason: string }).reason)));
      const req = request({ host: '127.0.0.1', port: port(), path: '/plugins/board/wait', headers: as(keys.owner) });
      req.on('error', () => {}); // the destroy below
      req.end();
      await waiting;
      req.destroy();
      assert.equal(await aborted, 'CANCELLED');
    });
  }

  const allowed: Array<[string, keyof typeof keys]> = [
    ['*', 'owner'],
    ['route:board', 'route'],
    ['plugin:board', 'plugin'],
    ['route:board:admin (a route of that scope)', 'admin'],
  ];
  for (const [scope, key] of allowed) {
    it(`a key with ${scope} may call the admin route`, async () => {
      const res = await send({ method: 'GET', url: '/plugins/board/admin/stats', headers: as(keys[key]) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(typeof res.json().data.items, 'number');
    });
  }

  it('a route scope key may not call the plugin tools (and a tools key not its routes)', async () => {
    const tool = await send({ method: 'POST', url: '/tools/echo', headers: as(keys.route), payload: { text: 'x' } });
    assert.equal(tool.statusCode, 403);
    assert.equal(tool.json().error.code, 'FORBIDDEN');
  });

  it('audits and counts every request as a call of kind route, refusals included, by its declared route', async () => {
    await send({ method: 'GET', url: '/plugins/board/items/1', headers: as(keys.route) });
    await send({ method: 'POST', url: '/plugins/board/items', headers: as(keys.owner), payload: { text: '' } });
    await send({ method: 'GET', url: '/plugins/board/items', headers: as(keys.tools) });
    gateway.audit!.flush();
    const rows = gateway.db.prepare("SELECT tool, plugin, transport, caller, outcome FROM core_audit WHERE kind = 'route' ORDER BY id DESC LIMIT 3").all();
    assert.deepEqual(rows.reverse(), [
      { tool: 'GET /plugins/board/items/:id', plugin: 'board', transport: 'rest', caller: 'routes-only', outcome: 'ok' },
      { tool: 'POST /plugins/board/items', plugin: 'board', transport: 'rest', caller: 'all', outcome: 'INVALID_ROUTE_INPUT' },
      { tool: 'GET /plugins/board/items', plugin: 'board', transport: 'rest', caller: 'tools-only', outcome: 'FORBIDDEN' },
    ]);
    const metrics = (await send({ method: 'GET', url: '/metrics', headers: as(keys.owner) })).body;
    assert.match(metrics, /mcp_gateway_route_requests_total\{route="GET \/plugins\/board\/items\/:id",outcome="ok"\} \d+/);
    assert.match(metrics, /mcp_gateway_route_requests_total\{route="GET \/plugins\/board\/slow",outcome="ROUTE_TIMEOUT"\} 1/);
    assert.match(metrics, /mcp_gateway_route_duration_seconds_count\{route="POST \/plugins\/board\/items"\} \d+/);
  });
});

it('plugin routes count against the rate limit like every other route', async () => {
  const limited = await startGateway({ registries: [FIXTURE_REGISTRY, BOARD_REGISTRY], plugins: { board: {} }, transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 2, timeWindowMs: 60_000 } } } });
  const limitedApp = await createHttpApp(limited);
  after(() => limitedApp.close());
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await limitedApp.inject({ method: 'GET', url: '/plugins/board/items' })).statusCode);
  assert.deepEqual(statuses, [200, 200, 429]);
});

describe('plugin routes in the OpenAPI document', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, BOARD_REGISTRY], plugins: { board: {}, echo: {} } });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();

  it('is still valid OpenAPI 3.1', async () => {
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('describes each route with its schemas, operationId, plugin tag and error answers', () => {
    const post = doc.paths['/plugins/board/items'].post;
    assert.equal(post.operationId, 'board-post-items');
    assert.deepEqual(post.tags, ['board']);
    assert.equal(post.summary, 'Add an item');
    assert.deepEqual(post.requestBody.content['application/json'].schema.required, ['text']);
    assert.deepEqual(post.responses['200'].content['application/json'].schema.properties.data.required, ['id', 'text', 'author']);
    for (const status of ['400', '401', '403', '413', '415', '429', '504']) assert.ok(post.responses[status], `POST items answers ${status}`);
    const get = doc.paths['/plugins/board/items/{id}'].get;
    assert.deepEqual(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
    assert.match(get.responses['404'].description, /BOARD_ITEM_NOT_FOUND/);
    const list = doc.paths['/plugins/board/items'].get;
    assert.deepEqual(list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['query:limit']);
    assert.ok(doc.paths['/plugins/board/report.csv'].get.responses['200'].content['text/csv']);
    assert.ok(doc.tags.some((t: { name: string }) => t.name === 'board'));
  });

  it('leaves out static files and WebSockets, which OpenAPI cannot describe', () => {
    assert.ok(!Object.keys(doc.paths).some((p) => p.includes('/static') || p.endsWith('/feed')));
  });
});
