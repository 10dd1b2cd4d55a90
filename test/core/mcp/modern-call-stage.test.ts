import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Send } from '../../../core/mcp/call-stage.js';
import { modernToolCalls } from '../../../core/mcp/modern-call-stage.js';
import type { ModernToolCallHost } from '../../../core/mcp/sdk-tool-calls.js';
import type { ToolCallMessage } from '../../../core/mcp/tool-call-message.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, lastOutcome, startGateway, tempDir, waitFor } from '../../helpers.js';
import { RawConnection } from './socket-clients.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};

/**
 * A 2026-07-28 tools/call is answered ahead of the SDK when it is plain (modern-call-stage.ts).
 * A params key the stage does not take (`extra`, which the SDK's schema lets through) sends the
 * same call through the SDK's handler: the two answers must be the same.
 */
const viaSdk = (params: Record<string, unknown>) => ({ ...params, extra: true });

describe('2026-07-28 tools/call answered ahead of the SDK', async () => {
  const dir = tempDir();
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY], plugins: { echo: {}, conformance: {} } }, dir);
  const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, gateway.config.transports.tcp);
  after(() => unix.close());
  let nextId = 1;

  async function connection(): Promise<RawConnection> {
    const raw = await RawConnection.open(unix.address);
    after(() => raw.socket.destroy());
    return raw;
  }

  /** Sends one tools/call and collects what comes back for it: its notifications, then the response. */
  async function call(raw: RawConnection, params: Record<string, unknown>): Promise<{ response: any; notifications: any[] }> {
    const id = nextId++;
    raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const notifications = [];
    for (;;) {
      const message = await raw.next();
      if (message.id === id) return { response: message, notifications };
      notifications.push(message);
    }
  }

  /** The answer without the id, which differs by call (deepEqual ignores the order of keys). */
  const comparable = (response: any) => ({ result: response.result, error: response.error });

  it('answers as the SDK does: the result stamped with resultType and serverInfo, failures with the same codes', async () => {
    const raw = await connection();
    for (const params of [
      { name: 'echo', arguments: { text: 'fast' }, _meta: META },
      { name: 'test_error_handling', arguments: {}, _meta: META },
      { name: 'test_multiple_content_types', _meta: META },
      { name: 'no_such_tool', _meta: META },
      { name: 'echo', arguments: { text: 5 }, _meta: META },
    ]) {
      const fast = (await call(raw, params)).response;
      const sdk = (await call(raw, viaSdk(params))).response;
      assert.deepEqual(comparable(fast), comparable(sdk), `${params.name}: the two paths differ`);
    }
    const { response } = await call(raw, { name: 'echo', arguments: { text: 'fast' }, _meta: META });
    assert.equal(response.result.resultType, 'complete');
    assert.deepEqual(response.result._meta['io.modelcontextprotocol/serverInfo'], { name: 'mcp-gateway', version: gateway.version });
    assert.deepEqual(response.result.structuredContent.caller, { transport: 'unix', identity: 'raw-2026' });
  });

  it('sends progress to a request with a progressToken, and log messages only at the level its envelope names', async () => {
    const raw = await connection();
    const progress = await call(raw, { name: 'test_tool_with_progress', _meta: { ...META, progressToken: 'p1' } });
    assert.deepEqual(
      progress.notifications.map((n) => [n.method, n.params.progressToken, n.params.progress]),
      [0, 50, 100].map((p) => ['notifications/progress', 'p1', p]),
    );
    assert.equal(progress.response.result.content[0].text, 'Progress test completed');
    const silent = await call(raw, { name: 'test_tool_with_logging', _meta: META });
    assert.deepEqual(silent.notifications, []);
    const logged = await call(raw, { name: 'test_tool_with_logging', _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'info' } });
    assert.deepEqual(
      logged.notifications.map((n) => [n.method, n.params.level]),
      Array(3).fill(['notifications/message', 'info']),
    );
  });

  it('a cancelled call gets no response, and the connection goes on', async () => {
    const raw = await connection();
    raw.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'echo_sleep', arguments: { ms: 2_000 }, _meta: META } });
    raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'changed my mind' } });
    const { response } = await call(raw, { name: 'echo', arguments: { text: 'after' }, _meta: META });
    assert.equal(response.result.structuredContent.text, 'after');
    await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(raw.received(), []);
  });

  it('a call that asks ends with the questions and a requestState; the retry goes to the SDK and completes', async () => {
    const raw = await connection();
    const params = { name: 'test_input_required_result_elicitation', arguments: {}, _meta: META };
    const asked = (await call(raw, params)).response.result;
    assert.equal(asked.resultType, 'input_required');
    assert.equal(asked.inputRequests.user_name.method, 'elicitation/create');
    assert.equal(typeof asked.requestState, 'string');
    const retried = await call(raw, { ...params, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: asked.requestState });
    assert.equal(retried.response.result.content[0].text, 'Hello, Ada!');
  });

  it('refuses a question the request cannot answer with -32021, naming the missing capability, as the SDK does', async () => {
    const raw = await connection();
    const urlOnly = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } };
    const params = { name: 'test_input_required_result_elicitation', arguments: {}, _meta: urlOnly };
    const fast = (await call(raw, params)).response;
    assert.equal(fast.error.code, -32021);
    assert.deepEqual(fast.error.data.requiredCapabilities, { elicitation: { form: {} } });
    assert.deepEqual(comparable(fast), comparable((await call(raw, viaSdk(params))).response));
  });

  it("leaves a malformed envelope to the SDK, which answers it with its own -32602", async () => {
    const raw = await connection();
    const bad = { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: 5 } };
    // The connection is pinned to 2026-07-28 by a well-formed request first.
    await call(raw, { name: 'echo', arguments: { text: 'pin' }, _meta: META });
    const { response } = await call(raw, { name: 'echo', arguments: { text: 'x' }, _meta: bad });
    assert.equal(response.error.code, -32602);
    assert.match(response.error.message, /_meta envelope/);
  });
});

describe('which 2026-07-28 tools/call the stage takes', async () => {
  const gateway = await startGateway({ registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
  const send: Send = async () => {};
  // Deciding reads only the catalog; the rest of the host is used once a taken call runs.
  const takes = modernToolCalls({ catalog: gateway.catalog } as ModernToolCallHost, send, { name: 'mcp-gateway', version: gateway.version });
  const taken = (params: unknown) => takes({ jsonrpc: '2.0', id: 1, method: 'tools/call', params } satisfies ToolCallMessage) !== undefined;

  it('takes a plain call with a valid envelope', () => {
    assert.equal(taken({ name: 'test_simple_text', arguments: {}, _meta: META }), true);
    assert.equal(taken({ name: 'test_simple_text', _meta: { ...META, progressToken: 7, 'io.modelcontextprotocol/logLevel': 'debug' } }), true);
  });

  it('leaves to the SDK a round, a task, another revision, a malformed envelope or params', () => {
    const cases: Array<[string, unknown]> = [
      ['a retry with a requestState', { name: 'test_simple_text', _meta: META, requestState: 'v1.x.y' }],
      ['a retry with inputResponses', { name: 'test_simple_text', _meta: META, inputResponses: {} }],
      ['a tool that supports tasks', { name: 'slow_compute', arguments: { seconds: 1 }, _meta: META }],
      ['no envelope', { name: 'test_simple_text' }],
      ['another revision', { name: 'test_simple_text', _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }],
      ['no clientCapabilities', { name: 'test_simple_text', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }],
      ['a malformed clientInfo', { name: 'test_simple_text', _meta: { ...META, 'io.modelcontextprotocol/clientInfo': null } }],
      ['an unknown log level', { name: 'test_simple_text', _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'loud' } }],
      ['a name that is not a string', { name: 5, _meta: META }],
      ['params that are not an object', 'echo'],
    ];
    for (const [what, params] of cases) assert.equal(taken(params), false, what);
  });

  it('judges a long envelope every time (it is not kept) as the SDK would', () => {
    const padded = (capabilities: Record<string, unknown>) => ({ ...META, 'io.modelcontextprotocol/clientCapabilities': { ...capabilities, experimental: { pad: { text: 'x'.repeat(10_000) } } } });
    for (let i = 0; i < 2; i++) {
      assert.equal(taken({ name: 'test_simple_text', _meta: padded({}) }), true);
      assert.equal(taken({ name: 'test_simple_text', _meta: padded({ roots: 5 }) }), false);
    }
  });
});
