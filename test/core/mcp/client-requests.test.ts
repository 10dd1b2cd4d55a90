import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, type ClientCapabilities, type LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { mcpFace } from '../../../core/mcp/mcp-face.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, resultJson, startGateway, waitFor } from '../../helpers.js';
import { after } from 'node:test';

/** A real SDK client over the in-memory pair, declaring `capabilities`. */
async function clientWith(gateway: Gateway, capabilities: ClientCapabilities): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
  const client = new Client({ name: 'asking-client', version: '1.0.0' }, { capabilities });
  await client.connect(clientSide);
  after(() => client.close());
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content)[0]?.text;

describe('call.sample, call.elicit and call.logToClient (in-memory)', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY], plugins: { echo: {}, conformance: {} } });

  it('sends sampling/createMessage to the client and returns its answer', async () => {
    const client = await clientWith(gateway, { sampling: {} });
    const asked: unknown[] = [];
    client.setRequestHandler('sampling/createMessage', (request) => {
      asked.push(request.params);
      return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'test-model', stopReason: 'endTurn' };
    });
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'LLM response: a sampled answer');
    assert.deepEqual(asked, [{ messages: [{ role: 'user', content: { type: 'text', text: 'Say something' } }], maxTokens: 100 }]);
  });

  it('sends elicitation/create in form mode and returns the accepted content', async () => {
    const client = await clientWith(gateway, { elicitation: {} });
    let message: string | undefined;
    client.setRequestHandler('elicitation/create', (request) => {
      message = request.params.message;
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    assert.equal(message, 'Who are you?');
    assert.equal(textOf(result), 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
  });

  it('passes a decline through as an answer, not an error', async () => {
    const client = await clientWith(gateway, { elicitation: {} });
    client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'Elicitation completed: action=decline, content={}');
  });

  it('refuses with CLIENT_CAPABILITY_MISSING when the client did not declare the capability', async () => {
    const client = await clientWith(gateway, {});
    for (const [name, args, method, capability] of [
      ['test_sampling', { prompt: 'x' }, 'sampling/createMessage', 'sampling'],
      ['test_elicitation', { message: 'x' }, 'elicitation/create', 'elicitation'],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, name);
      const body = resultJson(result);
      assert.equal(body.code, 'CLIENT_CAPABILITY_MISSING', name);
      assert.match(body.message, /asking-client did not declare/);
      assert.deepEqual(body.details, { method, capability });
    }
  });

  it('answers CLIENT_REQUEST_FAILED when the client refuses or answers content that breaks the requested schema', async () => {
    const client = await clientWith(gateway, { sampling: {}, elicitation: {} });
    client.setRequestHandler('sampling/createMessage', () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'the user rejected sampling');
    });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { username: 'ada' } }));
    const refused = resultJson(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } }));
    assert.equal(refused.code, 'CLIENT_REQUEST_FAILED');
    assert.match(refused.message, /the user rejected sampling/);
    assert.equal(refused.details.method, 'sampling/createMessage');
    const invalid = resultJson(await client.callTool({ name: 'test_elicitation', arguments: { message: 'x' } }));
    assert.equal(invalid.code, 'CLIENT_REQUEST_FAILED');
    assert.equal(invalid.details.method, 'elicitation/create');
  });

  it("cancels a pending elicitation when the call is cancelled: the client's handler is told", async () => {
    const client = await clientWith(gateway, { elicitation: {} });
    let pending: AbortSignal | undefined;
    let answered = 0;
    client.setRequestHandler('elicitation/create', (request, extra) => {
      // The SDK client ignores notifications/cancelled for request id 0 (a falsy-id check),
      // and a session's first request to its client has id 0: answer that one first.
      if (answered++ === 0) return { action: 'decline' };
      pending = extra.mcpReq.signal;
      return new Promise((resolve) => extra.mcpReq.signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
    });
    await client.callTool({ name: 'test_elicitation', arguments: { message: 'first' } });
    const controller = new AbortController();
    const call = client.callTool({ name: 'test_elicitation', arguments: { message: 'wait' } }, { signal: controller.signal });
    await waitFor(() => pending !== undefined);
    controller.abort('the user closed the dialog');
    await assert.rejects(call);
    // notifications/cancelled for the elicitation reaches the client's handler.
    await waitFor(() => pending!.aborted);
    await waitFor(() => gateway.calls.inFlight === 0);
  });

  it('sends log messages related to the call before its result, honouring logging/setLevel', async () => {
    const client = await clientWith(gateway, {});
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(
      logs.map((l) => [l.level, l.logger, l.data]),
      [
        ['info', 'conformance', 'Tool execution started'],
        ['info', 'conformance', 'Tool processing data'],
        ['info', 'conformance', 'Tool execution completed'],
      ],
    );
    logs.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await client.ping();
    assert.deepEqual(logs, []);
  });
});
