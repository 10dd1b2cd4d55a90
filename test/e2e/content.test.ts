import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiKey } from '../../core/auth/api-keys.js';
import { listenHttp } from '../../core/http/http-server.js';
import { BIN, recordWireErrors, socketClient, spawnGateway, startGateway, tempDir, testConfigObject, waitFor, WITH_LIBRARY, writeConfig } from '../helpers.js';

/** Every resource and prompt feature, as one client sees it over one transport. */
async function exerciseContent(client: Client, transport: string): Promise<void> {
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === 'library://readme'));
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['library://books/{id}', 'library://search{?q,limit}']);

  assert.deepEqual((await client.readResource({ uri: 'library://readme' })).contents[0]!.mimeType, 'text/markdown');
  const logo = (await client.readResource({ uri: 'library://logo.png' })).contents[0] as { blob: string };
  assert.ok(Buffer.from(logo.blob, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
  const book = (await client.readResource({ uri: 'library://books/dune' })).contents[0] as { text: string };
  assert.equal(book.text, `A desert planet. (read by ${transport})`);

  // Thunks: a request made before assert.rejects holds it would be an unhandled rejection.
  const refusals: Array<[() => Promise<unknown>, number, string]> = [
    [() => client.readResource({ uri: 'no scheme here' }), -32602, 'INVALID_URI'],
    [() => client.readResource({ uri: 'library://missing' }), -32002, 'RESOURCE_NOT_FOUND'],
    [() => client.readResource({ uri: 'library://books/Bad_Id' }), -32602, 'RESOURCE_VARIABLES_INVALID'],
    [() => client.subscribeResource({ uri: 'library://missing' }), -32002, 'RESOURCE_NOT_FOUND'],
    [() => client.getPrompt({ name: 'nope' }), -32602, 'UNKNOWN_PROMPT'],
    [() => client.getPrompt({ name: 'summarize_book', arguments: { style: 'long' } }), -32602, 'PROMPT_ARGUMENTS_INVALID'],
    [() => client.readResource({ uri: 'library://broken' }), -32603, 'INTERNAL_ERROR'],
  ];
  // Checked as the answers came on the wire: SDK v2's client rewrites a resource-not-found.
  const wire = recordWireErrors(client);
  for (const [request, code, stable] of refusals) {
    await assert.rejects(request());
    const err = wire.at(-1)!;
    assert.equal(err.code, code, stable);
    assert.equal(err.data?.code, stable);
    assert.doesNotMatch(err.message, /secret|passwd/);
    wire.length = 0;
  }

  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === 'summarize_book'));
  const got = await client.getPrompt({ name: 'summarize_book', arguments: { id: 'emma' } });
  assert.equal(got.messages.length, 2);
  const { completion } = await client.complete({ ref: { type: 'ref/resource', uri: 'library://books/{id}' }, argument: { name: 'id', value: 'd' } });
  assert.deepEqual(completion.values, ['dracula', 'dune']);
}

/** Subscribes `client` to a book, writes it, and waits for the update. */
async function expectUpdate(client: Client, id: string): Promise<void> {
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
  await client.subscribeResource({ uri: `library://books/${id}` });
  await client.callTool({ name: 'library_write', arguments: { id, text: 'Rewritten.' } });
  await waitFor(() => updates.length > 0);
  assert.deepEqual(updates, [`library://books/${id}`]);
}

describe('resources and prompts through the mcp-gateway binary', () => {
  it('over stdio', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, testConfigObject(dir, WITH_LIBRARY));
    const client = new Client({ name: 'stdio-content', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config], stderr: 'pipe' }));
    try {
      await exerciseContent(client, 'stdio');
      await expectUpdate(client, 'emma');
    } finally {
      await client.close();
    }
  });

  it('over TCP and /mcp: each feature, updates to subscribers only, list_changed to all', async () => {
    const dir = tempDir();
    const overrides = { ...WITH_LIBRARY, logLevel: 'info', transports: { unix: { enabled: false }, tcp: { port: 0 }, http: { port: 0 } } };
    const gateway = spawnGateway(['serve', '--config', writeConfig(dir, testConfigObject(dir, overrides))]);
    const addresses = await gateway.listening(2);
    const tcp = addresses.find((a) => a.kind === 'tcp')!;
    const http = addresses.find((a) => a.kind === 'http') as { port: number };

    const { client: overTcp } = await socketClient(tcp as never, 'tcp-content');
    after(() => overTcp.close());
    const overHttp = new Client({ name: 'http-content', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.port}/mcp`)));
    after(() => overHttp.close());

    await exerciseContent(overTcp, 'tcp');
    await exerciseContent(overHttp, 'http');

    const httpUpdates: string[] = [];
    overHttp.setNotificationHandler('notifications/resources/updated', (n) => void httpUpdates.push(n.params.uri));
    await expectUpdate(overTcp, 'dracula');
    // An update the HTTP session did subscribe to comes after the one it did not: had that
    // one been sent to it, it would have arrived first on the same stream.
    await overHttp.subscribeResource({ uri: 'library://books/emma' });
    await overHttp.callTool({ name: 'library_write', arguments: { id: 'emma', text: 'Rewritten.' } });
    await waitFor(() => httpUpdates.length > 0);
    assert.deepEqual(httpUpdates, ['library://books/emma'], 'the HTTP session, not subscribed to dracula, heard only of emma');

    const changed = { tcp: 0, http: 0 };
    overTcp.setNotificationHandler('notifications/resources/list_changed', () => void changed.tcp++);
    overHttp.setNotificationHandler('notifications/resources/list_changed', () => void changed.http++);
    await overHttp.callTool({ name: 'library_shelf', arguments: { action: 'add', name: 'maps' } });
    await waitFor(() => changed.tcp === 1 && changed.http === 1);
    assert.ok((await overTcp.listResources()).resources.some((r) => r.uri === 'library://shelf/maps'));

    await overTcp.close();
    await overHttp.close();
    assert.equal(await gateway.stop(), 0);
  });
});

describe('resources and prompts on /mcp with a key scoped to another plugin', async () => {
  const key = createApiKey();
  const gateway = await startGateway({
    ...WITH_LIBRARY,
    auth: 'key',
    apiKeys: [{ name: 'echo-only', hash: key.hash, scopes: ['plugin:echo'] }],
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
  });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  const client = new Client({ name: 'scoped-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${listener.address.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key.key}` } } }));
  after(() => client.close());

  it('sees none of the library and is refused its resources and prompts', async () => {
    assert.deepEqual((await client.listResources()).resources, []);
    assert.deepEqual((await client.listPrompts()).prompts, []);
    await assert.rejects(client.readResource({ uri: 'library://readme' }), (err: any) => err.data.code === 'FORBIDDEN');
    await assert.rejects(client.getPrompt({ name: 'greet', arguments: { name: 'x' } }), (err: any) => err.data.code === 'FORBIDDEN');
  });
});
