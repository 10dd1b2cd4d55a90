import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ClientCapabilities } from '@modelcontextprotocol/client';
import { listenHttp } from '../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, resultJson, startGateway } from '../helpers.js';

/**
 * The conformance fixture over a real /mcp, driven the way the conformance suite drives it
 * (an SDK client declaring sampling and elicitation), without the suite itself (CI runs it
 * separately, through npx): sampling, elicitation and logging travel on the tools/call's
 * own POST stream; REST has no client to ask.
 */
describe('the conformance fixture over /mcp and REST', async () => {
  const gateway = await startGateway({ registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const base = `http://127.0.0.1:${http.address.port}`;

  const connect = async (capabilities: ClientCapabilities): Promise<Client> => {
    const client = new Client({ name: 'conformance-like-client', version: '1.0.0' }, { capabilities });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    after(() => client.close());
    return client;
  };
  const textOf = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content)[0]?.text;

  it('asks the client for sampling and elicitation during the call', async () => {
    const client = await connect({ sampling: {}, elicitation: {} });
    client.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant',
      content: { type: 'text', text: 'This is a test response from the client' },
      model: 'test-model',
      stopReason: 'endTurn',
    }));
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { requestedSchema?: unknown }).requestedSchema);
      return { action: 'accept', content: { untitledSingle: 'option1', titledSingle: 'value1', legacyEnum: 'opt1', untitledMulti: ['option1', 'option2'], titledMulti: ['value1', 'value2'] } };
    });
    assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Test prompt for sampling' } })), 'LLM response: This is a test response from the client');
    const enums = await client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    assert.equal(enums.isError, undefined, JSON.stringify(enums));
    const schema = asked[0] as { properties: Record<string, any> };
    assert.deepEqual(schema.properties.legacyEnum.enumNames, ['Option One', 'Option Two', 'Option Three']);
    assert.equal(schema.properties.titledMulti.items.anyOf.length, 3);
  });

  it('refuses sampling with CLIENT_CAPABILITY_MISSING for a client without the capability', async () => {
    const client = await connect({});
    const body = resultJson(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } }));
    assert.equal(body.code, 'CLIENT_CAPABILITY_MISSING');
  });

  it('delivers the log messages of a call before its result', async () => {
    const client = await connect({});
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params.data);
    });
    await client.setLoggingLevel('debug');
    const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(logs, ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    assert.equal(textOf(result), 'Tool with logging executed successfully');
  });

  it('returns image, audio and embedded resource content unchanged', async () => {
    const client = await connect({});
    const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
    assert.deepEqual((mixed.content as Array<{ type: string }>).map((c) => c.type), ['text', 'image', 'resource']);
    const [resource] = (await client.callTool({ name: 'test_embedded_resource', arguments: {} })).content as any[];
    assert.deepEqual(resource, { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } });
    const [audio] = (await client.callTool({ name: 'test_audio_content', arguments: {} })).content as any[];
    assert.equal(audio.mimeType, 'audio/wav');
  });

  it('lists the 2020-12 schema verbatim', async () => {
    const client = await connect({});
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema as Record<string, unknown>;
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.ok((schema.$defs as Record<string, unknown>).address);
    assert.equal(schema.additionalProperties, false);
  });

  it('over REST, where there is no client to ask, answers 400 CLIENT_CAPABILITY_MISSING', async () => {
    for (const [name, args] of [
      ['test_sampling', { prompt: 'x' }],
      ['test_elicitation', { message: 'x' }],
    ] as const) {
      const res = await fetch(`${base}/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
      assert.equal(res.status, 400, name);
      const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
      assert.equal(body.success, false);
      assert.equal(body.error.code, 'CLIENT_CAPABILITY_MISSING');
      assert.match(body.error.message, /came over rest, where there is no MCP client to ask/);
    }
  });

  it('over REST, a call that logs to its client still succeeds (the messages go to the gateway log)', async () => {
    const res = await fetch(`${base}/tools/test_tool_with_logging`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 200);
  });
});
