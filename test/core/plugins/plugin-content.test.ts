import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { stringify } from 'yaml';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../core/gateway/gateway.js';
import { mcpFace } from '../../../core/mcp/mcp-face.js';
import { createLogger } from '../../../core/lib/logger.js';
import { memoryClient, recordWireErrors, resultJson, startGateway, tempDir, waitFor, WITH_LIBRARY } from '../../helpers.js';

/** Boots a gateway on small plain-JS plugins: name → the body of `setup(ctx)`. */
async function bootPlugins(plugins: Record<string, string>, optional: string[] = []): Promise<Gateway> {
  const dir = tempDir();
  const registry = join(dir, 'registry');
  mkdirSync(registry, { recursive: true });
  for (const [name, setup] of Object.entries(plugins)) {
    writeFileSync(join(dir, `${name}.mjs`), `export default { name: '${name}', version: '1.0.0', description: 'test', async setup(ctx) { ${setup} } };\n`);
    writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs`, optional: optional.includes(name) }));
  }
  const config = resolveConfig(
    { dataDir: join(dir, 'data'), logLevel: 'silent', registries: [registry], plugins: Object.fromEntries(Object.keys(plugins).map((n) => [n, {}])), transports: { tcp: { enabled: false }, unix: { enabled: false } } },
    { env: {}, cwd: dir, file: join(dir, 'gateway.config.yaml') },
  );
  const gateway = await createGateway({ config, log: createLogger('silent'), registryDirs: [] });
  after(() => gateway.close());
  return gateway;
}

const resource = (uri: string) => `ctx.resource({ uri: '${uri}', name: 'r' }, () => 'text');`;
const template = (t: string) => `ctx.resource({ uriTemplate: '${t}', name: 't' }, () => 'text');`;
const prompt = (name: string) => `ctx.prompt({ name: '${name}', description: 'p' }, () => 'hi');`;

describe('resources and prompts through the plugin host', () => {
  const clashes: Array<[string, string, string]> = [
    ['a resource URI', resource('same://one'), 'RESOURCE_DEFINITION_INVALID'],
    ['a resource template', template('same://{id}'), 'RESOURCE_DEFINITION_INVALID'],
    ['a prompt name', prompt('same_prompt'), 'PROMPT_DEFINITION_INVALID'],
  ];
  for (const [what, setup, code] of clashes) {
    it(`stops the boot when two plugins offer ${what}, naming both`, async () => {
      await assert.rejects(bootPlugins({ first: setup, second: setup }), (err: any) => {
        assert.equal(err.code, code);
        assert.match(err.message, /Plugin "second".*taken by plugin "first"/);
        return true;
      });
    });
  }

  it('adds nothing of a plugin whose setup fails, or whose tools clash after its resources', async () => {
    const gateway = await bootPlugins(
      {
        owner: `ctx.tool({ name: 'taken', description: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`,
        fails: `${resource('fails://r')} ${prompt('fails_prompt')} throw new Error('setup broke');`,
        clashes: `${resource('clashes://r')} ${prompt('clashes_prompt')} ctx.tool({ name: 'taken', description: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`,
      },
      ['fails', 'clashes'],
    );
    assert.deepEqual(gateway.plugins.skipped.map((s) => s.name).sort(), ['clashes', 'fails']);
    assert.equal(gateway.resources.size, 0);
    assert.equal(gateway.prompts.size, 0);
  });

  it('refuses ctx.resource and ctx.prompt once setup has resolved, pointing at ctx.live', async () => {
    const gateway = await bootPlugins({
      late: `${resource('late://early')}
        ctx.tool({ name: 'late_add', description: 'adds too late', inputSchema: { type: 'object', properties: { kind: { enum: ['resource', 'prompt'] } } }, annotations: { readOnlyHint: false } },
          ({ kind }) => kind === 'resource' ? ctx.resource({ uri: 'late://r', name: 'r' }, () => 'x') : ctx.prompt({ name: 'late_p', description: 'p' }, () => 'x'));`,
    });
    const client = await memoryClient(gateway);
    for (const kind of ['resource', 'prompt']) {
      const body = resultJson(await client.callTool({ name: 'late_add', arguments: { kind } }));
      assert.equal(body.code, 'PLUGIN_SETUP_OVER');
      assert.match(body.message, new RegExp(`ctx\\.live\\.${kind}`));
    }
    assert.deepEqual(gateway.resources.list().map((r) => r.key), ['late://early']);
    assert.deepEqual(gateway.plugins.loaded[0]!.resources, ['late://early']);
  });

  it('refuses an update announced for a URI none of the plugin\'s resources serves', async () => {
    const gateway = await bootPlugins({
      mine: `${template('mine://{id}')} return {};`,
      other: `${resource('other://r')}
        ctx.tool({ name: 'announce', description: 'a', inputSchema: { type: 'object', required: ['uri'], properties: { uri: { type: 'string' } } }, annotations: { readOnlyHint: true } },
          ({ uri }) => { ctx.resourceUpdated(uri); return { sent: true }; });`,
    });
    const client = await memoryClient(gateway);
    assert.deepEqual(resultJson(await client.callTool({ name: 'announce', arguments: { uri: 'other://r' } })), { sent: true });
    // Both codes have the protocol form: a tool that lets them through answers a JSON-RPC error.
    await assert.rejects(client.callTool({ name: 'announce', arguments: { uri: 'mine://x' } }), (err: any) => err.data.code === 'RESOURCE_NOT_FOUND' && /none of its resources/.test(err.message));
    await assert.rejects(client.callTool({ name: 'announce', arguments: { uri: 'not a uri' } }), (err: any) => err.data.code === 'INVALID_URI');
  });
});

describe('run-time additions (ctx.live) and list_changed', async () => {
  const gateway = await startGateway(WITH_LIBRARY);

  async function listener(name: string) {
    const client = await memoryClient(gateway, name);
    const seen = { resources: 0, prompts: 0 };
    client.setNotificationHandler('notifications/resources/list_changed', () => void seen.resources++);
    client.setNotificationHandler('notifications/prompts/list_changed', () => void seen.prompts++);
    return { client, seen };
  }

  it('adds a resource and a prompt at once, and tells every session once per kind', async () => {
    const a = await listener('a');
    const b = await listener('b');
    await a.client.callTool({ name: 'library_shelf', arguments: { action: 'add', name: 'poetry' } });
    await waitFor(() => a.seen.resources === 1 && a.seen.prompts === 1 && b.seen.resources === 1 && b.seen.prompts === 1);
    assert.ok((await b.client.listResources()).resources.some((r) => r.uri === 'library://shelf/poetry'));
    assert.deepEqual((await b.client.readResource({ uri: 'library://shelf/poetry' })).contents[0], { uri: 'library://shelf/poetry', text: 'shelf poetry' });
    const got = await b.client.getPrompt({ name: 'shelf_poetry' });
    assert.equal((got.messages[0]!.content as { text: string }).text, 'About shelf poetry.');

    await a.client.callTool({ name: 'library_shelf', arguments: { action: 'remove', name: 'poetry' } });
    await waitFor(() => b.seen.resources === 2 && b.seen.prompts === 2);
    const wire = recordWireErrors(b.client);
    await assert.rejects(b.client.readResource({ uri: 'library://shelf/poetry' }));
    assert.equal(wire.at(-1)!.data.code, 'RESOURCE_NOT_FOUND');
    await assert.rejects(b.client.getPrompt({ name: 'shelf_poetry' }), (err: any) => err.data.code === 'UNKNOWN_PROMPT');
  });

  it('validates a live entry like a setup one', async () => {
    const client = await memoryClient(gateway);
    // The shelf name becomes part of a URI and a prompt name; the tool's schema keeps it valid,
    // so a clash is what is left to try: adding a shelf twice is a no-op in the plugin.
    await client.callTool({ name: 'library_shelf', arguments: { action: 'add', name: 'drama' } });
    assert.throws(
      () => gateway.resources.add([gateway.resources.prepare('intruder', { uri: 'library://other', name: 'x' }, () => 'x')].concat(gateway.resources.list().filter((r) => r.key === 'library://shelf/drama'))),
      (err: any) => err.code === 'RESOURCE_DEFINITION_INVALID' && /taken by plugin "library"/.test(err.message),
    );
    assert.ok(!gateway.resources.list().some((r) => r.key === 'library://other'), 'a batch with a clash adds nothing');
  });

  it('removes live entries when the plugin closes', async () => {
    const own = await startGateway(WITH_LIBRARY);
    const client = await memoryClient(own);
    await client.callTool({ name: 'library_shelf', arguments: { action: 'add', name: 'essays' } });
    assert.ok(own.resources.list().some((r) => r.key === 'library://shelf/essays'));
    await own.close();
    assert.ok(!own.resources.list().some((r) => r.key === 'library://shelf/essays'));
    assert.ok(!own.prompts.get('shelf_essays'));
  });
});

describe('API-key scopes for resources and prompts', async () => {
  const gateway = await startGateway(WITH_LIBRARY);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // What the TCP and /mcp transports pass for a key with scope `plugin:echo` only.
  await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', identity: 'echo-key', view: { allowsPlugin: (plugin) => plugin === 'echo' } });
  const client = new Client({ name: 'scoped', version: '1' });
  await client.connect(clientSide);
  after(() => client.close());

  it('hides the resources, templates and prompts of other plugins', async () => {
    assert.deepEqual((await client.listResources()).resources, []);
    assert.deepEqual((await client.listResourceTemplates()).resourceTemplates, []);
    assert.deepEqual((await client.listPrompts()).prompts, []);
  });

  it('refuses reads, gets, subscriptions and completions with FORBIDDEN naming the scope', async () => {
    const refused = (err: any) => err.data.code === 'FORBIDDEN' && /plugin:library/.test(err.message);
    await assert.rejects(client.readResource({ uri: 'library://readme' }), refused);
    await assert.rejects(client.readResource({ uri: 'library://books/dune' }), refused);
    await assert.rejects(client.getPrompt({ name: 'greet', arguments: { name: 'x' } }), refused);
    await assert.rejects(client.subscribeResource({ uri: 'library://readme' }), (err: any) => err.data.code === 'FORBIDDEN');
    await assert.rejects(client.complete({ ref: { type: 'ref/prompt', name: 'summarize_book' }, argument: { name: 'id', value: '' } }), refused);
  });
});
