import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTransport as V2InMemoryTransport, Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createGateway } from '../../../core/gateway/gateway.js';
import { mcpFace } from '../../../core/mcp/mcp-face.js';
import { createHttpApp, listenHttp } from '../../../core/http/http-server.js';
import { createLogger } from '../../../core/lib/logger.js';
import { BIN, CONFORMANCE_REGISTRY, memoryClient, startGateway, tempDir, testConfig, waitFor, writeConfig } from '../../helpers.js';
import { EVERYTHING_SERVER, serverStatus } from './upstream-helpers.js';

describe("upstream: a server's requests of its client, relayed to the caller", async () => {
  const gateway = await startGateway(
    { plugins: { upstream: { config: { servers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] }] } } } },
    tempDir('mcpgw-upstream-'),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
  const client = new Client({ name: 'sampler', version: '1.0.0' }, { capabilities: { sampling: {} } });
  const asked: string[] = [];
  client.setRequestHandler('sampling/createMessage', ({ params }) => {
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

/**
 * Issue 35, item 4, the other direction: an upstream that speaks 2026-07-28 (a gateway built
 * on SDK v2, over stdio) asks with an InputRequiredResult; the upstream client answers it
 * through the caller, which for a 2025 session is an elicitation request sent during the call.
 */
describe("upstream: a 2026-07-28 server's InputRequiredResult, relayed to a 2025 client", async () => {
  const upstreamDir = tempDir('mcpgw-modern-upstream-');
  const upstreamConfig = writeConfig(upstreamDir, {
    dataDir: join(upstreamDir, 'data'),
    registries: [CONFORMANCE_REGISTRY],
    plugins: { conformance: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
  });
  const gateway = await startGateway(
    {
      plugins: {
        upstream: {
          config: {
            servers: [
              {
                name: 'modern',
                command: process.execPath,
                args: [BIN, '--stdio', '--config', upstreamConfig, '--workspace', upstreamDir],
                include: ['test_input_required_*', 'test_trigger_tool_change', 'test_changing_tool', 'test_touch_watched_resource'],
              },
            ],
          },
        },
      },
    },
    tempDir('mcpgw-upstream-'),
  );
  const [clientSide, serverSide] = V2InMemoryTransport.createLinkedPair();
  await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
  const client = new V2Client({ name: 'asked-2025', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { name: 'Ada' } } as never;
  });
  await client.connect(clientSide);

  it('the upstream was found to speak 2026-07-28 by server/discover', () => {
    assert.equal(serverStatus(gateway, 'modern').protocol, '2026-07-28');
  });

  it('its question reaches the 2025 client as elicitation/create, and the answer completes the call upstream', async () => {
    const result = await client.callTool({ name: 'modern_test_input_required_result_elicitation', arguments: {} });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(asked, ['What is your name?']);
    assert.equal((result.content as Array<{ text: string }>)[0]!.text, 'Hello, Ada!');
  });

  it("hears the server's list changes and resource updates on its subscriptions/listen stream", async () => {
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await client.callTool({ name: 'modern_test_touch_watched_resource', arguments: {} });
    await waitFor(() => updated.includes('test://watched-resource'));

    assert.equal(gateway.catalog.get('modern_test_changing_tool'), undefined);
    await client.callTool({ name: 'modern_test_trigger_tool_change', arguments: {} });
    await waitFor(() => gateway.catalog.get('modern_test_changing_tool') !== undefined);
  });

  it("a caller that cannot be asked gets its own error, not one against the server", async () => {
    const app = await createHttpApp(gateway);
    try {
      const reply = await app.inject({ method: 'POST', url: '/tools/modern_test_input_required_result_elicitation', payload: {} });
      assert.equal(reply.json().error.code, 'CLIENT_CAPABILITY_MISSING');
    } finally {
      await app.close();
    }
  });

  it('a 2026-07-28 client is asked in rounds: the retry calls upstream again and carries the answer', async () => {
    const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
    const modern = new V2Client({ name: 'asked-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    const heard: string[] = [];
    modern.setRequestHandler('elicitation/create', (request) => {
      heard.push((request.params as { message: string }).message);
      return { action: 'accept', content: { name: 'Grace' } } as never;
    });
    try {
      await modern.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address.port}/mcp`)));
      const result = await modern.callTool({ name: 'modern_test_input_required_result_elicitation', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.deepEqual(heard, ['What is your name?']);
      assert.equal((result.content as Array<{ text: string }>)[0]!.text, 'Hello, Grace!');
    } finally {
      await modern.close();
      await http.close();
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
