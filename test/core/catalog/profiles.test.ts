import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { Profiles } from '../../../core/catalog/profiles.js';
import type { RegisteredTool } from '../../../core/catalog/tool-catalog.js';
import { FIXTURE_REGISTRY, httpRequest, LIBRARY_REGISTRY, socketClient, startGateway, tempDir, testConfig, toolCalls } from '../../helpers.js';

const tool = (plugin: string, name: string) => ({ plugin, listing: { name } }) as RegisteredTool;
const TOOLS = [tool('files', 'file_read'), tool('files', 'file_write'), tool('echo', 'echo'), tool('echo', 'echo_fail'), tool('gateway', 'gateway_find_tools'), tool('gateway', 'gateway_call_tool')];
const CATALOG = { list: () => TOOLS, onChange: () => {} };

describe('Profiles', () => {
  const profiles = new Profiles(
    {
      reading: { plugins: ['echo'], tools: ['file_r*'], exclude: ['echo_fail'] },
      lookup: { tools: ['file_read'], others: 'search' },
    },
    'lookup',
    CATALOG,
  );
  const listed = (name: string) => profiles.listed(profiles.require(name)).map((t) => t.listing.name);

  it('selects by plugin and glob, leaves out exclusions, and always holds the two search tools', () => {
    assert.deepEqual(listed('reading'), ['file_read', 'echo', 'gateway_find_tools', 'gateway_call_tool']);
    assert.deepEqual(listed('all'), TOOLS.map((t) => t.listing.name));
  });

  it('refuses tools outside a profile, unless its others are searchable', () => {
    const reading = profiles.require('reading');
    assert.equal(reading.allows(tool('files', 'file_write')), false);
    assert.equal(reading.allows(tool('echo', 'echo_fail')), false);
    const lookup = profiles.require('lookup');
    assert.deepEqual(listed('lookup'), ['file_read', 'gateway_find_tools', 'gateway_call_tool']);
    assert.equal(lookup.allows(tool('files', 'file_write')), true);
  });

  it('offers the resources and prompts of the plugins it holds tools of', () => {
    const reading = profiles.require('reading');
    assert.equal(reading.allowsPlugin('files'), true, 'file_read is in it');
    assert.equal(reading.allowsPlugin('webview'), false);
    assert.equal(profiles.require('lookup').allowsPlugin('webview'), true, 'a searchable profile keeps them all');
  });

  it('names the profiles there are when one is unknown, and the default is the config\'s', () => {
    assert.equal(profiles.default.name, 'lookup');
    assert.throws(() => profiles.require('nope'), (err: any) => err.code === 'PROFILE_NOT_FOUND' && /all, reading, lookup/.test(err.message));
  });

  it('names the selectors that match nothing', () => {
    const odd = new Profiles({ odd: { plugins: ['echo', 'webview'], tools: ['zzz_*'] } }, undefined, CATALOG);
    assert.deepEqual(odd.unmatched(), [{ profile: 'odd', unmatched: ['plugin webview', 'tool zzz_*'] }]);
    assert.equal(odd.default.name, 'all');
  });
});

describe('profiles in the config', () => {
  const dir = tempDir();
  const invalid = (overrides: Record<string, unknown>, pattern: RegExp) =>
    assert.throws(() => testConfig(dir, overrides), (err: any) => err.code === 'CONFIG_INVALID' && pattern.test(err.message));

  it('refuses a profile that selects nothing, one named all, and references to unknown ones', () => {
    invalid({ profiles: { empty: {} } }, /profiles\.empty selects no tools/);
    invalid({ profiles: { all: { plugins: ['echo'] } } }, /profiles/);
    invalid({ profiles: { p: { plugins: ['echo'] } }, defaultProfile: 'q' }, /defaultProfile: no profile is named "q"; the profiles are: all, p/);
    const key = createApiKey();
    invalid({ auth: 'key', apiKeys: [{ name: 'k', hash: key.hash, scopes: ['*'], profile: 'q' }] }, /apiKeys\[0\]\.profile: no profile is named "q"/);
  });
});

describe('one gateway serving several profiles at once', async () => {
  const dir = tempDir();
  const bound = createApiKey();
  const owner = createApiKey();
  const gateway = await startGateway(
    {
      auth: 'key',
      apiKeys: [
        { name: 'owner-like', hash: owner.hash, scopes: ['*'] },
        { name: 'echo-bound', hash: bound.hash, scopes: ['*'], profile: 'echoes' },
      ],
      plugins: { echo: { exclude: ['echo_image'] }, files: {} },
      profiles: {
        echoes: { plugins: ['echo'], exclude: ['echo_fail'] },
        reading: { tools: ['file_read', 'dir_list'] },
        lookup: { tools: ['echo'], others: 'search' },
      },
      defaultProfile: 'lookup',
      transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
    },
    dir,
  );
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, host: '127.0.0.1', port: 0 });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => Promise.all([http.close(), tcp.close()]));
  const port = http.address.port;
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });

  async function overHttp(path: string, key: string): Promise<Client> {
    const client = new Client({ name: `at ${path}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${path}`), { requestInit: { headers: auth(key) } }));
    after(() => client.close());
    return client;
  }
  const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

  const echoes = await overHttp('/mcp/echoes', owner.key);
  const reading = await overHttp('/mcp/reading', owner.key);
  const plain = await overHttp('/mcp', owner.key);
  const { client: boundTcp } = await socketClient(tcp.address, 'bound', bound.key);
  after(() => boundTcp.close());

  it('gives each endpoint and key exactly its profile\'s tools', async () => {
    assert.deepEqual(await names(echoes), ['echo', 'echo_fetch', 'echo_sleep', 'gateway_call_tool', 'gateway_find_tools']);
    assert.deepEqual(await names(reading), ['dir_list', 'file_read', 'gateway_call_tool', 'gateway_find_tools']);
    assert.deepEqual(await names(plain), ['echo', 'gateway_call_tool', 'gateway_find_tools'], '/mcp serves the default profile');
    assert.deepEqual(await names(boundTcp), await names(echoes), 'a key bound to a profile sees it over TCP');
    const rest = await httpRequest(port, { method: 'GET', url: '/profiles/reading/tools', headers: auth(owner.key) });
    assert.deepEqual(rest.json().data.map((t: { name: string }) => t.name).sort(), ['dir_list', 'file_read', 'gateway_call_tool', 'gateway_find_tools']);
    const boundRest = await httpRequest(port, { method: 'GET', url: '/tools', headers: auth(bound.key) });
    assert.deepEqual(boundRest.json().data.map((t: { name: string }) => t.name).sort(), await names(echoes), "the plain REST paths serve a bound key's profile");
  });

  it('refuses a tool outside a profile on every path, gateway_call_tool included', async () => {
    const outside = { name: 'echo_fail', arguments: { kind: 'gateway' } };
    for (const [face, client] of [['/mcp/echoes', echoes], ['bound key over TCP', boundTcp]] as const) {
      const { fail } = toolCalls(client);
      assert.equal((await fail(outside.name, outside.arguments)).code, 'NOT_IN_PROFILE', face);
      assert.equal((await fail('gateway_call_tool', outside)).code, 'NOT_IN_PROFILE', `${face}, through gateway_call_tool`);
    }
    const viaProfile = await httpRequest(port, { method: 'POST', url: '/profiles/reading/tools/echo', headers: auth(owner.key), payload: { text: 'hi' } });
    assert.equal(viaProfile.statusCode, 403);
    assert.equal(viaProfile.json().error.code, 'NOT_IN_PROFILE');
    const boundRest = await httpRequest(port, { method: 'POST', url: '/tools/file_read', headers: auth(bound.key), payload: { path: 'x' } });
    assert.equal(boundRest.json().error.code, 'NOT_IN_PROFILE');
    const found = await toolCalls(echoes).call('gateway_find_tools', { query: 'read a text file' });
    assert.equal(found.tools.some((t: { name: string }) => t.name === 'file_read'), false, 'find never offers what the profile refuses');
  });

  it('finds and calls a tool the default profile does not list', async () => {
    const { call } = toolCalls(plain);
    const found = await call('gateway_find_tools', { query: 'list the entries of a directory' });
    assert.ok(found.tools.some((t: { name: string }) => t.name === 'dir_list'), JSON.stringify(found.tools.map((t: { name: string }) => t.name)));
    const listing = await call('gateway_call_tool', { name: 'dir_list', arguments: { path: '.' } });
    assert.ok(Array.isArray(listing.entries));
  });

  it('answers the tools of the profile, and a call of one, through its REST paths', async () => {
    const called = await httpRequest(port, { method: 'POST', url: '/profiles/echoes/tools/echo', headers: auth(owner.key), payload: { text: 'hi' } });
    assert.equal(called.statusCode, 200, called.body);
    assert.equal(called.json().data.text, 'hi');
    const doc = (await httpRequest(port, { method: 'GET', url: '/profiles/reading/openapi.json', headers: auth(owner.key) })).json();
    const toolPaths = Object.keys(doc.paths).filter((p) => p.includes('/tools'));
    assert.deepEqual(toolPaths.sort(), [
      '/profiles/reading/tools',
      '/profiles/reading/tools/dir_list',
      '/profiles/reading/tools/file_read',
      '/profiles/reading/tools/gateway_call_tool',
      '/profiles/reading/tools/gateway_find_tools',
      '/profiles/reading/tools/{name}',
    ]);
    const list = (await httpRequest(port, { method: 'GET', url: '/profiles', headers: auth(owner.key) })).json().data;
    assert.deepEqual(
      list.map((p: { name: string; default: boolean }) => [p.name, p.default]),
      [['all', false], ['echoes', false], ['reading', false], ['lookup', true]],
    );
  });

  it('answers an unknown profile with the ones there are, and a bound key elsewhere with its own', async () => {
    const unknown = await httpRequest(port, {
      method: 'POST',
      url: '/mcp/nope',
      headers: { ...auth(owner.key), accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
    });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.body, /PROFILE_NOT_FOUND|No profile is named "nope"\. The profiles are: all, echoes, reading, lookup/);
    for (const url of ['/profiles/nope/tools', '/profiles/nope/openapi.json']) {
      const answer = await httpRequest(port, { method: 'GET', url, headers: auth(owner.key) });
      assert.equal(answer.json().error.code, 'PROFILE_NOT_FOUND', url);
    }
    await assert.rejects(overHttp('/mcp/reading', bound.key), /PROFILE_FORBIDDEN/);
    const rest = await httpRequest(port, { method: 'POST', url: '/profiles/reading/tools/file_read', headers: auth(bound.key), payload: { path: 'x' } });
    assert.equal(rest.json().error.code, 'PROFILE_FORBIDDEN');
  });

  it('keeps a tool the config excludes out of the catalog altogether', async () => {
    assert.equal(gateway.catalog.get('echo_image'), undefined);
    assert.equal(gateway.catalog.get('echo_fetch')?.plugin, 'echo');
  });
});

describe('a profile that refuses others, for resources, prompts, completions and hostile URLs', async () => {
  const owner = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [{ name: 'owner-like', hash: owner.hash, scopes: ['*'] }],
    registries: [FIXTURE_REGISTRY, LIBRARY_REGISTRY],
    plugins: { echo: {}, library: {} },
    profiles: { echoes: { plugins: ['echo'] }, shelf: { tools: ['library_shelf'] } },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
  });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, host: '127.0.0.1', port: 0 });
  after(() => http.close());
  const port = http.address.port;
  const auth = { authorization: `Bearer ${owner.key}` };
  async function at(path: string): Promise<Client> {
    const client = new Client({ name: `at ${path}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${path}`), { requestInit: { headers: auth } }));
    after(() => client.close());
    return client;
  }
  const echoes = await at('/mcp/echoes');
  const shelf = await at('/mcp/shelf');

  it("offers a plugin's resources, prompts and completions only to a profile holding its tools", async () => {
    assert.deepEqual((await echoes.listResources()).resources, []);
    assert.deepEqual((await echoes.listPrompts()).prompts, []);
    await assert.rejects(echoes.readResource({ uri: 'library://readme' }));
    await assert.rejects(echoes.getPrompt({ name: 'summarize_book', arguments: { id: 'dune' } }));
    await assert.rejects(echoes.complete({ ref: { type: 'ref/prompt', name: 'summarize_book' }, argument: { name: 'style', value: 's' } }));
    assert.ok((await shelf.listResources()).resources.some((r) => r.uri === 'library://readme'));
    assert.ok((await shelf.listPrompts()).prompts.some((p) => p.name === 'summarize_book'));
    const read = await shelf.readResource({ uri: 'library://readme' });
    assert.equal(read.contents[0]?.uri, 'library://readme');
  });

  it('answers odd profile names in URLs with an error, and keeps serving', async () => {
    for (const url of ['/mcp/%E0', '/mcp/%00', '/mcp/__proto__', '/mcp/a%2Fb', `/mcp/${'x'.repeat(5000)}`, '/profiles/%E0/tools', '/profiles/%E0/tools/echo', '/profiles/constructor/openapi.json']) {
      for (const method of ['GET', 'POST']) {
        const answer = await httpRequest(port, { method, url, headers: { ...auth, accept: 'application/json, text/event-stream' }, payload: method === 'POST' ? { jsonrpc: '2.0', id: 1, method: 'ping' } : undefined });
        assert.ok(answer.statusCode >= 400 && answer.statusCode < 500, `${method} ${url.slice(0, 40)}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      }
    }
    assert.deepEqual((await echoes.listTools()).tools.map((t) => t.name).sort(), ['echo', 'echo_fail', 'echo_fetch', 'echo_image', 'echo_sleep', 'gateway_call_tool', 'gateway_find_tools']);
  });
});
