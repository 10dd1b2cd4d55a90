import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolContent } from '../../../core/index.js';
import { ANY_RESULT, lastOutcome, memoryClient, resultJson, startGateway, waitFor } from '../../helpers.js';

describe('MCP over the in-memory pair (real SDK client)', async () => {
  const gateway = await startGateway({ plugins: { echo: { config: { prefix: '> ' } } } });
  const client = await memoryClient(gateway, 'memory-test');

  it('lists every tool with its schema and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['echo', 'echo_fail', 'echo_fetch', 'echo_image', 'echo_sleep', 'gateway_call_tool', 'gateway_find_tools', 'gateway_status']);
    const echo = tools.find((t) => t.name === 'echo')!;
    assert.equal(echo.inputSchema.type, 'object');
    assert.deepEqual(echo.inputSchema.required, ['text']);
    assert.equal(echo.annotations?.readOnlyHint, true);
    assert.ok(echo.outputSchema);
  });

  it('calls a tool: JSON text content plus structuredContent, defaults and plugin config applied', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, resultJson(result));
    const data = resultJson(result);
    assert.equal(data.text, '> hi');
    assert.equal(data.caller.transport, 'memory');
    assert.equal(data.caller.identity, 'memory-test');
    assert.ok(data.caller.sessionId);
  });

  it('returns image content through the helper', async () => {
    const result = await client.callTool({ name: 'echo_image', arguments: {} });
    const content = result.content as Array<{ type: string; mimeType?: string; data?: string }>;
    assert.equal(content[0]!.type, 'text');
    assert.equal(content[1]!.type, 'image');
    assert.equal(content[1]!.mimeType, 'image/png');
    assert.ok(Buffer.from(content[1]!.data!, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['wrong type', { text: 5 }, /\/text must be string/],
    ['missing required field', {}, /missing required key "text"/],
    ['extra field where the schema forbids it', { text: 'a', extra: 1 }, /unknown key "extra"/],
    ['out of range', { text: 'a', times: 11 }, /\/times must be <= 10/],
    ['string where integer expected (no coercion)', { text: 'a', times: '2' }, /\/times must be integer/],
  ];
  for (const [label, args, message] of invalid) {
    it(`refuses invalid arguments: ${label}`, async () => {
      const result = await client.callTool({ name: 'echo', arguments: args });
      assert.equal(result.isError, true);
      const body = resultJson(result);
      assert.equal(body.code, 'INVALID_ARGUMENTS');
      assert.match(body.message, message);
      assert.ok(Array.isArray(body.details) && body.details.length > 0);
    });
  }

  it('answers an unknown tool with a JSON-RPC error carrying UNKNOWN_TOOL', async () => {
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err: any) => {
      assert.equal(err.code, -32602);
      assert.equal(err.data.code, 'UNKNOWN_TOOL');
      assert.match(err.message, /Unknown tool "no_such_tool"/);
      return true;
    });
  });

  it('passes a declared plugin error through with its code and details', async () => {
    const body = resultJson(await client.callTool({ name: 'echo_fail', arguments: { kind: 'declared' } }));
    assert.deepEqual(body, { code: 'ECHO_REFUSED', message: 'Refused as asked.', details: { asked: true } });
  });

  for (const kind of ['unexpected', 'undeclared', 'bad-output']) {
    it(`hides internals of a ${kind} failure behind INTERNAL_ERROR`, async () => {
      const result = await client.callTool({ name: 'echo_fail', arguments: { kind } });
      assert.equal(result.isError, true);
      const body = resultJson(result);
      assert.equal(body.code, 'INTERNAL_ERROR');
      assert.match(body.message, /echo_fail \(plugin echo\)/);
      assert.doesNotMatch(JSON.stringify(result), /secret|passwd|stack/);
    });
  }

  it('sends progress notifications when the client asks for them', async () => {
    const updates: number[] = [];
    const result = await client.callTool({ name: 'echo_sleep', arguments: { ms: 30, steps: 3 } }, {
      onprogress: (p) => updates.push(p.progress),
    });
    assert.equal(result.isError, undefined);
    assert.deepEqual(updates, [1, 2, 3]);
  });

  it('aborts the handler when the client cancels', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'echo_sleep', arguments: { ms: 3000 } }, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('changed my mind'), 50);
    await assert.rejects(call, /changed my mind|abort/i);
    // The gateway audit records the cancellation once the handler has stopped.
    await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
  });

  it('times a tool out with TOOL_TIMEOUT (the tool sets 5 s)', async () => {
    const result = await client.callTool({ name: 'echo_sleep', arguments: { ms: 6000, ignoreCancel: true } }, {
      timeout: 20_000,
    });
    assert.equal(resultJson(result).code, 'TOOL_TIMEOUT');
  });

  it('reports itself through gateway_status', async () => {
    const result = await client.callTool({ name: 'gateway_status', arguments: {} });
    const status = result.structuredContent as any;
    assert.equal(status.toolCount, 8);
    assert.deepEqual(status.plugins.map((p: any) => p.name), ['echo']);
    assert.equal(status.sessions.memory, 1);
    assert.deepEqual(status.breakers.map((b: any) => [b.name, b.state]), [['echo:upstream', 'closed']]);
  });

  it('answers logging/setLevel (logging capability)', async () => {
    assert.deepEqual(await client.setLoggingLevel('warning'), {});
  });

  it('answers methods named like Object members (constructor, __proto__, hasOwnProperty) as unknown methods', async () => {
    for (const method of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      await assert.rejects(client.request({ method, params: {} } as never, ANY_RESULT), (err: any) => err.code === -32601, method);
    }
  });

  it('answers logging/setLevel with an unknown level -32602 and a plain message', async () => {
    await assert.rejects(client.request({ method: 'logging/setLevel', params: { level: 'loud' } } as never, ANY_RESULT), (err: any) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /"level" must be one of debug, info, notice, warning, error, critical, alert, emergency\./);
      return true;
    });
  });
});

/** A gateway with one extra tool, taking no arguments, whose handler returns `result()`. */
async function gatewayWithTool(name: string, result: () => unknown) {
  const gateway = await startGateway();
  const definition = {
    name,
    description: 'A tool of this test file.',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true },
  } as const;
  gateway.catalog.add([gateway.catalog.prepare('test', definition, result)]);
  return gateway;
}

describe('tool results the plugin got wrong', () => {
  it('a result that cannot be sent as JSON is INTERNAL_ERROR (in its audit row too), and the session goes on', async () => {
    const gateway = await gatewayWithTool('returns_bigint', () => ({ n: 1n }));
    const client = await memoryClient(gateway, 'bigint-test');
    const result = await client.callTool({ name: 'returns_bigint', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(resultJson(result).code, 'INTERNAL_ERROR');
    assert.equal(lastOutcome(gateway, 'returns_bigint'), 'INTERNAL_ERROR');
    const after = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.equal(resultJson(after).text, 'still here');
  });

  it('a content block that is not MCP content is the plugin\'s bug: INTERNAL_ERROR on MCP and REST alike', async () => {
    const gateway = await gatewayWithTool('bad_image', () => toolContent([{ type: 'image', mimeType: 'image/png' } as never]));
    const client = await memoryClient(gateway, 'content-test');
    const result = await client.callTool({ name: 'bad_image', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(resultJson(result).code, 'INTERNAL_ERROR');
    const outcome = await gateway.catalog.call('bad_image', {}, { caller: { transport: 'rest' } });
    assert.ok(!outcome.ok && outcome.error.code === 'INTERNAL_ERROR');
  });
});
