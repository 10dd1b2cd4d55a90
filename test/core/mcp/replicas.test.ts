import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway } from '../../../core/gateway/gateway.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, FIXTURE_REGISTRY, tempDir, testConfigObject } from '../../helpers.js';
import { postgresSkipReason, startTestPostgres } from '../../support/postgres.js';
import { post2026 } from '../../support/mcp-2026.js';

/**
 * A plain round-robin HTTP proxy (no stickiness, no session affinity) in front of `backends`:
 * each request goes to the next one in turn. `served` lists, per request, the index of the
 * backend that answered it.
 */
async function roundRobin(backends: readonly number[]): Promise<{ port: number; served: number[] }> {
  const served: number[] = [];
  let next = 0;
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % backends.length;
    served.push(index);
    const upstream = request({ host: '127.0.0.1', port: backends[index], path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  after(() => new Promise((resolve) => proxy.close(resolve)));
  return { port: (proxy.address() as { port: number }).port, served };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/**
 * Issue 35, item 2: a 2026-07-28 client behind a round-robin proxy in front of three gateways
 * on one PostgreSQL gets the same answers from any of them: consecutive requests land on
 * different gateways, the rounds of one call, the polls of one task and collab's agent handle too.
 */
describe('three gateways behind a round-robin proxy, one PostgreSQL', { skip: postgresSkipReason }, async () => {
  const server = await startTestPostgres();
  after(() => server.stop());
  const url = await server.createDatabase();
  const dir = tempDir();
  const ports: number[] = [];
  for (const name of ['a', 'b', 'c']) {
    const raw = testConfigObject(dir, {
      dataDir: join(dir, `data-${name}`),
      storage: { shared: { postgres: { url } } },
      registries: [FIXTURE_REGISTRY, CONFORMANCE_REGISTRY],
      plugins: { echo: {}, conformance: {}, process: {}, collab: {} },
    });
    const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }) });
    after(() => gateway.close());
    const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
    after(() => http.close());
    ports.push(http.address.port);
  }
  const proxy = await roundRobin(ports);
  const base = `http://127.0.0.1:${proxy.port}`;

  it("SDK v2's client, pinned to 2026-07-28, lists, calls and answers rounds of questions across the three", async () => {
    const client = new Client({ name: 'behind-a-proxy', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', (request) => {
      const field = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
      return { action: 'accept', content: { [field]: field === 'name' ? 'Ada' : 'green' } } as never;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    after(() => client.close());
    const before = proxy.served.length;
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'echo'));
    for (let i = 0; i < 3; i++) assert.equal((await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } })).isError, undefined);
    // Three rounds of one call (two questions, then the result), each on the next gateway: the signed state is all they share.
    const multi = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    assert.equal((multi.content as Array<{ text: string }>)[0]!.text, 'Ada likes green.');
    assert.deepEqual(new Set(proxy.served.slice(before)), new Set([0, 1, 2]));
  });

  it("collab: join on one gateway, then claim and complete on the others with the agent's handle", async () => {
    const connect = async (name: string) => {
      const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      after(() => client.close());
      return async (tool: string, args: Record<string, unknown>) => (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; structuredContent?: any; content: Array<{ text: string }> };
    };
    const ada = await connect('ada-client');
    const first = proxy.served.length;
    const { agent_handle: handle } = (await ada('collab_join', { name: 'ada' })).structuredContent;
    const { id } = (await ada('collab_create_task', { agent: handle, title: 'Replicated work', assignee: 'any' })).structuredContent.task;
    const claimed = (await ada('collab_claim_next', { agent: handle })).structuredContent;
    assert.deepEqual([claimed.action, claimed.task.id, claimed.task.assignee], ['claimed', id, 'ada']);
    const done = (await ada('collab_update_task', { agent: handle, id, status: 'completed' })).structuredContent;
    assert.equal(done.task.status, 'completed');
    assert.deepEqual(new Set(proxy.served.slice(first)), new Set([0, 1, 2]));
    // Another client, on whichever gateway, cannot use the handle: it was signed for ada-client.
    const other = await connect('other-client');
    const stolen = await other('collab_heartbeat', { agent: handle });
    assert.equal(stolen.isError, true);
    assert.equal(JSON.parse(stolen.content[0]!.text).code, 'COLLAB_HANDLE_INVALID');
  });

  it('a task begun on one is polled, answered and finished through the others', async () => {
    const call = (method: string, params: Record<string, unknown>) => post2026(base, method, { _meta: META, ...params });
    const first = proxy.served.length;
    const { taskId } = (await call('tools/call', { name: 'confirm_delete', arguments: { filename: 'replicated.txt' } })).body.result;
    const poll = async () => {
      await new Promise((resolve) => setTimeout(resolve, 25));
      return (await call('tasks/get', { taskId })).body.result;
    };
    let task;
    do task = await poll();
    while (task.status !== 'input_required');
    const [key] = Object.keys(task.inputRequests);
    assert.equal((await call('tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } })).body.result.resultType, 'complete');
    do task = await poll();
    while (task.status === 'input_required' || task.status === 'working');
    assert.equal(task.status, 'completed');
    assert.equal(task.result.content[0].text, 'Deleted replicated.txt.');
    // The call ran on one gateway; the polls and the answer reached it through the others.
    assert.deepEqual(new Set(proxy.served.slice(first)), new Set([0, 1, 2]));
  });
});
