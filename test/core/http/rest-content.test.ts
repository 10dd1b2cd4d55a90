import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { InjectOptions } from 'fastify';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { createSchemaCompiler } from '../../../core/lib/schema.js';
import { httpRequest, startGateway, WITH_LIBRARY, type HttpAnswer } from '../../helpers.js';

const noListeners = { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 0 } } };
const readUrl = (uri: string) => `/resources?uri=${encodeURIComponent(uri)}`;

// Through fastify's inject and through a real listening socket: both must answer alike.
for (const via of ['inject', 'socket'] as const) describe(`REST resources and prompts (${via})`, async () => {
  const gateway = await startGateway({ ...WITH_LIBRARY, transports: noListeners });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  if (via === 'socket') await app.listen({ host: '127.0.0.1', port: 0 });
  const send = (request: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }): Promise<HttpAnswer> =>
    via === 'inject'
      ? app.inject(request as InjectOptions).then((res) => ({ statusCode: res.statusCode, headers: res.headers, body: res.body, json: () => res.json() }))
      : httpRequest((app.server.address() as { port: number }).port, request);

  it('GET /resources lists resources and templates with their plugin', async () => {
    const res = await send({ method: 'GET', url: '/resources' });
    assert.equal(res.statusCode, 200);
    const { data } = res.json();
    assert.deepEqual(data.resources[0], { plugin: 'library', uri: 'library://readme', name: 'readme', title: 'Read me', description: 'What the library holds.', mimeType: 'text/markdown', annotations: { audience: ['user'], priority: 0.5 } });
    assert.deepEqual(data.resourceTemplates.map((t: any) => [t.plugin, t.uriTemplate]), [['library', 'library://books/{id}'], ['library', 'library://search{?q,limit}']]);
  });

  it('GET /resources?uri= reads text, bytes and template URIs', async () => {
    const text = await send({ method: 'GET', url: readUrl('library://readme') });
    assert.equal(text.statusCode, 200);
    assert.deepEqual(text.json(), { success: true, data: { contents: [{ uri: 'library://readme', mimeType: 'text/markdown', text: '# Library\nBooks by id under library://books/{id}.' }] } });
    const logo = (await send({ method: 'GET', url: readUrl('library://logo.png') })).json().data.contents[0];
    assert.ok(Buffer.from(logo.blob, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
    const book = (await send({ method: 'GET', url: readUrl('library://books/emma') })).json().data.contents[0];
    assert.equal(book.text, 'A matchmaker. (read by rest)');
  });

  it('GET /prompts lists the prompts with their MCP arguments and argument schema', async () => {
    const { data } = (await send({ method: 'GET', url: '/prompts' })).json();
    const summarize = data.find((p: any) => p.name === 'summarize_book');
    assert.equal(summarize.plugin, 'library');
    assert.deepEqual(summarize.arguments.map((a: any) => [a.name, a.required]), [['id', true], ['style', false]]);
    assert.deepEqual(summarize.argumentsSchema.required, ['id']);
  });

  it('POST /prompts/<name> renders a prompt from the JSON body', async () => {
    const res = await send({ method: 'POST', url: '/prompts/summarize_book', payload: { id: 'dracula' } });
    assert.equal(res.statusCode, 200);
    const { data } = res.json();
    assert.equal(data.description, 'Asks for a summary of one book, with the book embedded.');
    assert.deepEqual(data.messages[0], { role: 'user', content: { type: 'text', text: 'Summarize this book (short).' } });
    assert.equal(data.messages[1].content.resource.uri, 'library://books/dracula');
  });

  const statuses: Array<[string, () => Promise<HttpAnswer>, number, string]> = [
    ['a URI that is not a URI', () => send({ method: 'GET', url: readUrl('not a uri') }), 400, 'INVALID_URI'],
    ['an empty uri', () => send({ method: 'GET', url: '/resources?uri=' }), 400, 'INVALID_URI'],
    ['two uri parameters', () => send({ method: 'GET', url: `${readUrl('library://readme')}&uri=x` }), 400, 'INVALID_URI'],
    ['an unknown URI', () => send({ method: 'GET', url: readUrl('library://nothing') }), 404, 'RESOURCE_NOT_FOUND'],
    ['template variables that do not match', () => send({ method: 'GET', url: readUrl('library://books/UPPER') }), 400, 'RESOURCE_VARIABLES_INVALID'],
    ['a declared plugin error from a reader', () => send({ method: 'GET', url: readUrl('library://refused') }), 409, 'LIBRARY_REFUSED'],
    ['a reader that throws (no internals sent)', () => send({ method: 'GET', url: readUrl('library://broken') }), 500, 'INTERNAL_ERROR'],
    ['a reader past its time limit', () => send({ method: 'GET', url: readUrl('library://stuck') }), 504, 'TOOL_TIMEOUT'],
    ['an unknown prompt', () => send({ method: 'POST', url: '/prompts/no_such_prompt', payload: {} }), 404, 'UNKNOWN_PROMPT'],
    ['prompt arguments against the schema', () => send({ method: 'POST', url: '/prompts/summarize_book', payload: { id: 'dune', style: 'epic' } }), 400, 'PROMPT_ARGUMENTS_INVALID'],
    ['a missing body for a prompt with a required argument', () => send({ method: 'POST', url: '/prompts/greet' }), 400, 'PROMPT_ARGUMENTS_INVALID'],
    ['a body that is a list', () => send({ method: 'POST', url: '/prompts/greet', payload: '[]', headers: { 'content-type': 'application/json' } }), 400, 'PROMPT_ARGUMENTS_INVALID'],
    ['a prompt argument that is not a string', () => send({ method: 'POST', url: '/prompts/greet', payload: { name: 7 } }), 400, 'PROMPT_ARGUMENTS_INVALID'],
    ['malformed JSON', () => send({ method: 'POST', url: '/prompts/greet', payload: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 'PARSE_ERROR'],
    ['a getter that throws', () => send({ method: 'POST', url: '/prompts/broken_prompt', payload: {} }), 500, 'INTERNAL_ERROR'],
  ];
  for (const [label, request, status, code] of statuses) {
    it(`${status} ${code} for ${label}`, async () => {
      const res = await request();
      assert.equal(res.statusCode, status, res.body);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, code);
      assert.doesNotMatch(res.body, /secret|passwd/);
    });
  }

  it('serves a prompt added at run time through the catch-all route', async () => {
    const add = await send({ method: 'POST', url: '/tools/library_shelf', payload: { action: 'add', name: 'travel' } });
    assert.equal(add.statusCode, 200);
    const res = await send({ method: 'POST', url: '/prompts/shelf_travel', payload: {} });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.messages[0].content.text, 'About shelf travel.');
  });

  it('audits REST reads and gets with their kind', async () => {
    gateway.audit?.flush();
    const kinds = gateway.db.prepare("SELECT DISTINCT kind FROM core_audit WHERE transport = 'rest' ORDER BY kind").pluck().all();
    assert.deepEqual(kinds, ['prompt', 'resource', 'tool']);
  });
});

describe('REST resources and prompts with API keys', async () => {
  const echoOnly = createApiKey();
  const library = createApiKey();
  const gateway = await startGateway({
    ...WITH_LIBRARY,
    auth: 'key',
    apiKeys: [
      { name: 'echo-only', hash: echoOnly.hash, scopes: ['plugin:echo', 'echo*'] },
      { name: 'library', hash: library.hash, scopes: ['plugin:library'] },
    ],
    transports: noListeners,
  });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  it('needs a key', async () => {
    assert.equal((await app.inject({ method: 'GET', url: '/resources' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'POST', url: '/prompts/greet', payload: { name: 'x' } })).statusCode, 401);
  });

  it('shows and serves a plugin\'s resources and prompts only to keys with * or plugin:<name>', async () => {
    const hidden = (await app.inject({ method: 'GET', url: '/resources', headers: as(echoOnly.key) })).json().data;
    assert.deepEqual(hidden, { resources: [], resourceTemplates: [] });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/prompts', headers: as(echoOnly.key) })).json().data, []);
    const read = await app.inject({ method: 'GET', url: readUrl('library://readme'), headers: as(echoOnly.key) });
    assert.equal(read.statusCode, 403);
    assert.equal(read.json().error.code, 'FORBIDDEN');
    assert.match(read.json().error.message, /"echo-only".*plugin:library/);
    const get = await app.inject({ method: 'POST', url: '/prompts/greet', payload: { name: 'x' }, headers: as(echoOnly.key) });
    assert.equal(get.statusCode, 403);

    assert.equal((await app.inject({ method: 'GET', url: readUrl('library://readme'), headers: as(library.key) })).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/prompts/greet', payload: { name: 'x' }, headers: as(library.key) })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: readUrl('library://readme'), headers: as(gateway.ownerKey!.key) })).statusCode, 200);
  });

  it('refuses a foreign Origin before the route runs', async () => {
    const res = await app.inject({ method: 'GET', url: readUrl('library://readme'), headers: { ...as(library.key), origin: 'https://evil.example' } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.code, 'HOST_NOT_ALLOWED');
  });
});

describe('the OpenAPI document with resources and prompts', async () => {
  const gateway = await startGateway({ ...WITH_LIBRARY, transports: noListeners });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const schemaOf = (path: string, method: string, status = '200') => doc.paths[path][method].responses[status].content['application/json'].schema;

  it('is valid, with an operation per prompt whose body is the prompt\'s argument schema', async () => {
    await SwaggerParser.validate(structuredClone(doc));
    assert.equal(doc.paths['/resources'].get.operationId, 'resources');
    assert.equal(doc.paths['/prompts'].get.operationId, 'listPrompts');
    const summarize = doc.paths['/prompts/summarize_book'].post;
    assert.equal(summarize.operationId, 'getPrompt_summarize_book');
    assert.deepEqual(summarize.requestBody.content['application/json'].schema, gateway.prompts.get('summarize_book')!.argumentsSchema);
    assert.ok(summarize.responses['400'].description.includes('PROMPT_ARGUMENTS_INVALID'));
    assert.ok(doc.paths['/resources'].get.responses['404'].description.includes('RESOURCE_NOT_FOUND'));
    assert.ok(doc.tags.some((t: any) => t.name === 'library'));
  });

  it('describes what the routes really answer', async () => {
    const ajv = createSchemaCompiler();
    const cases: Array<[string, string, string, unknown]> = [
      ['/resources', 'get', '/resources', undefined],
      ['/resources', 'get', readUrl('library://readme'), undefined],
      ['/resources', 'get', readUrl('library://logo.png'), undefined],
      ['/prompts', 'get', '/prompts', undefined],
      ['/prompts/summarize_book', 'post', '/prompts/summarize_book', { id: 'dune' }],
    ];
    for (const [path, method, url, payload] of cases) {
      const res = await app.inject({ method: method.toUpperCase() as 'GET' | 'POST', url, ...(payload ? { payload: payload as object } : {}) });
      assert.equal(res.statusCode, 200, url);
      const validate = ajv.compile(schemaOf(path, method));
      assert.ok(validate(res.json()), `${url}: ${JSON.stringify(validate.errors)}`);
    }
  });
});

describe('metrics of resource reads and prompt gets', async () => {
  const gateway = await startGateway({ ...WITH_LIBRARY, transports: noListeners });
  const app = await createHttpApp(gateway);
  after(() => app.close());

  it('counts reads by the resource or template that served them, and gets by prompt', async () => {
    await app.inject({ method: 'GET', url: readUrl('library://books/dune') });
    await app.inject({ method: 'GET', url: readUrl('library://books/emma') });
    await app.inject({ method: 'GET', url: readUrl('library://random-1') });
    await app.inject({ method: 'POST', url: '/prompts/greet', payload: { name: 'x' } });
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(text, /mcp_gateway_resource_reads_total\{resource="library:\/\/books\/\{id\}",outcome="ok"\} 2/);
    assert.match(text, /mcp_gateway_resource_reads_total\{resource="\(unknown\)",outcome="RESOURCE_NOT_FOUND"\} 1/);
    assert.match(text, /mcp_gateway_prompt_gets_total\{prompt="greet",outcome="ok"\} 1/);
    assert.match(text, /mcp_gateway_content_duration_seconds_count\{kind="resource"\} 3/);
  });
});
