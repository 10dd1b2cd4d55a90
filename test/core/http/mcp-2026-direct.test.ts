import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { listenHttp } from '../../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, lastOutcome, startGateway, waitFor } from '../../helpers.js';
import { post2026 } from '../../support/mcp-2026.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};

/** What the SDK's entry answers with: a plain JSON type. The gateway's own answers name the charset. */
const SDK_JSON = 'application/json';
const DIRECT_JSON = 'application/json; charset=utf-8';

/**
 * A plain 2026-07-28 tools/call on /mcp is answered before the SDK's HTTP entry
 * (mcp-modern-direct.ts). A params key the gateway does not take (`extra`, which the SDK lets
 * through) sends the same call through the entry: the two answers must be the same.
 */
describe('/mcp: a 2026-07-28 tools/call answered before the SDK entry', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY], plugins: { echo: {}, conformance: {} } });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const base = `http://127.0.0.1:${http.address.port}`;

  const post = (params: Record<string, unknown>, headers: Record<string, string> = {}, signal?: AbortSignal) => post2026(base, 'tools/call', params, headers, signal);

  it('answers as the entry does: results, tool errors, protocol errors, questions, and -32021 with 400', async () => {
    const urlOnly = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } };
    for (const params of [
      { name: 'echo', arguments: { text: 'direct' }, _meta: META },
      { name: 'test_error_handling', arguments: {}, _meta: META },
      { name: 'no_such_tool', _meta: META },
      { name: 'echo', arguments: { text: 5 }, _meta: META },
      { name: 'test_input_required_result_elicitation', arguments: {}, _meta: urlOnly },
    ]) {
      const direct = await post(params);
      const sdk = await post({ ...params, extra: true });
      assert.equal(direct.type, DIRECT_JSON, `${params.name}: answered before the entry`);
      assert.equal(sdk.type, SDK_JSON, `${params.name}: answered by the entry`);
      assert.equal(direct.status, sdk.status, `${params.name}: status`);
      assert.deepEqual(direct.body, sdk.body, `${params.name}: the two paths differ`);
    }
    const echoed = (await post({ name: 'echo', arguments: { text: 'direct' }, _meta: META })).body.result;
    assert.equal(echoed.resultType, 'complete');
    assert.deepEqual(echoed._meta['io.modelcontextprotocol/serverInfo'], { name: 'mcp-gateway', version: gateway.version });
    assert.deepEqual(echoed.structuredContent.caller, { transport: 'http', identity: 'raw-2026' });
  });

  it('a round: the questions come back directly, and the retry (with its state) goes to the entry', async () => {
    const params = { name: 'test_input_required_result_elicitation', arguments: {}, _meta: META };
    const asked = await post(params);
    assert.equal(asked.type, DIRECT_JSON);
    assert.equal(asked.body.result.resultType, 'input_required');
    const retried = await post({ ...params, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: asked.body.result.requestState });
    assert.equal(retried.type, SDK_JSON);
    assert.equal(retried.body.result.content[0].text, 'Hello, Ada!');
  });

  it('leaves to the entry what it must check or stream: headers that disagree or are missing, progress, log messages', async () => {
    const params = { name: 'echo', arguments: { text: 'x' }, _meta: META };
    const wrongName = await post(params, { 'mcp-name': 'other' });
    assert.equal(wrongName.status, 400);
    assert.equal(wrongName.type, SDK_JSON);
    const noMethod = await post(params, { 'mcp-method': '' });
    assert.equal(noMethod.status, 400);
    const progress = await post({ name: 'test_tool_with_progress', _meta: { ...META, progressToken: 'p' } });
    assert.equal(progress.type, 'text/event-stream');
    assert.deepEqual(progress.messages.map((m) => m.method ?? 'result'), ['notifications/progress', 'notifications/progress', 'notifications/progress', 'result']);
    const logged = await post({ name: 'test_logging_tool', _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'info' } });
    assert.deepEqual(logged.messages.map((m) => m.method ?? 'result'), ['notifications/message', 'result']);
  });

  it('a client that goes away cancels the call', async () => {
    const gone = new AbortController();
    const pending = post({ name: 'echo_sleep', arguments: { ms: 3_000 }, _meta: META }, {}, gone.signal).catch((err: Error) => err);
    await new Promise((resolve) => setTimeout(resolve, 200));
    gone.abort();
    assert.equal(((await pending) as Error).name, 'AbortError');
    await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
  });
});
