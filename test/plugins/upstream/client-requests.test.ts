import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createGateway } from '../../../core/gateway.js';
import { createHttpApp, listenHttp } from '../../../core/http/http-server.js';
import { createLogger } from '../../../core/logger.js';
import { memoryClient, startGateway, tempDir, testConfig } from '../../helpers.js';
import { EVERYTHING_SERVER } from './upstream-helpers.js';

describe("upstream: a server's requests of its client, relayed to the caller", async () => {
  const gateway = await startGateway(
    { plugins: { upstream: { config: { servers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] }] } } } },
    tempDir('mcpgw-upstream-'),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, { transport: 'memory', peer: 'memory' });
  const client = new Client({ name: 'sampler', version: '1.0.0' }, { capabilities: { sampling: {} } });
  const asked: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, ({ params }) => {
    asked.push(JSON.stringify(params.messages));
    return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'test-model' };
  });
  await client.connect(clientSide);

  it('sampling: the server asks during a call, the calling client answers, the answer reaches the server', async () => {
    const result = await client.callTool({ name: 'everything_trigger_sampling_request', arguments: { prompt: 'say hi', maxTokens: 20 } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.match(asked.join(), /say hi/);
    assert.match(JSON.stringify(result.content), /a sampled answer/);
  });

  it("sampling for a 2026-07-28 client: the server's request becomes a round, and the retry relays the answer", async () => {
    const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
    const modern = new V2Client({ name: 'sampler-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { sampling: {} } });
    const heard: string[] = [];
    modern.setRequestHandler('sampling/createMessage', (request) => {
      heard.push(JSON.stringify(request.params.messages));
      return { role: 'assistant', content: { type: 'text', text: 'a sampled answer for 2026' }, model: 'test-model' } as never;
    });
    try {
      await modern.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address.port}/mcp`)));
      // The first round ends the upstream call to ask; the retry calls it again and answers its question.
      const result = await modern.callTool({ name: 'everything_trigger_sampling_request', arguments: { prompt: 'say hi in 2026', maxTokens: 20 } });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.equal(heard.length, 1);
      assert.match(heard[0]!, /say hi in 2026/);
      assert.match(JSON.stringify(result.content), /a sampled answer for 2026/);
    } finally {
      await modern.close();
      await http.close();
    }
  });

  it('over REST there is no client to ask: the tool fails with the reason', async () => {
    const app = await createHttpApp(gateway);
    try {
      const reply = await app.inject({ method: 'POST', url: '/tools/everything_trigger_sampling_request', payload: { prompt: 'x', maxTokens: 5 } });
      const body = reply.json();
      assert.equal(body.success, false);
      assert.match(JSON.stringify(body.error), /CLIENT_CAPABILITY_MISSING/);
    } finally {
      await app.close();
    }
  });
});

describe('upstream: roots', () => {
  it('are offered only when configured, and then name the configured folders', async () => {
    const dir = tempDir('mcpgw-upstream-');
    mkdirSync(join(dir, 'sub'));
    const everything = (name: string, extra = {}) => ({ name, command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...extra });
    const gateway = await startGateway({ plugins: { upstream: { config: { servers: [everything('plain'), everything('rooted', { roots: ['sub'] })] } } } }, dir);
    const client = await memoryClient(gateway);
    // server-everything offers get-roots-list only to a client that declared roots.
    assert.equal(gateway.catalog.get('plain_get_roots_list'), undefined, 'no roots capability without roots:');
    const rooted = await client.callTool({ name: 'rooted_get_roots_list', arguments: {} });
    assert.match(JSON.stringify(rooted.content), new RegExp(`file://${realpathSync(join(dir, 'sub'))}`));
  });

  it('a root outside the workspace stops the boot', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const config = testConfig(dir, { plugins: { upstream: { config: { servers: [{ name: 'x', command: process.execPath, roots: ['../..'] }] } } } });
    await assert.rejects(createGateway({ config, log: createLogger('silent') }), /roots: .*outside/i);
  });
});
