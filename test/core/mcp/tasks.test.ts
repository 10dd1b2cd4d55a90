import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { listenHttp } from '../../../core/http/http-server.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { CONFORMANCE_REGISTRY, memoryClient, startGateway } from '../../helpers.js';
import { conformanceWithTwoKeys, post2026 } from '../../support/mcp-2026.js';
import { RawConnection } from './socket-clients.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const meta = (capabilities: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_TASKS = meta({ elicitation: {}, extensions: { [TASKS]: {} } });

/** A 2026-07-28 request to `base` declaring the tasks extension unless `options.meta` says otherwise. */
function rpc(base: string, method: string, params: Record<string, unknown>, options: { meta?: object; key?: string } = {}) {
  return post2026(base, method, { _meta: options.meta ?? WITH_TASKS, ...params }, options.key ? { authorization: `Bearer ${options.key}` } : {});
}

/** Polls tasks/get until the task's status is one of `statuses`. */
async function until(base: string, taskId: string, statuses: string[], options: { key?: string } = {}): Promise<any> {
  for (;;) {
    const task = (await rpc(base, 'tasks/get', { taskId }, options)).body.result;
    if (statuses.includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The tasks extension of 2026-07-28: a call of a tool that declares taskSupport becomes a task
 * when it runs long, for a client that declares the extension; the conformance plugin's tools.
 */
describe('the tasks extension over /mcp', async () => {
  const gateway = await startGateway({ registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  const base = `http://127.0.0.1:${http.address.port}`;

  it('advertises the extension in server/discover, not to a 2025 session', async () => {
    const discovered = (await rpc(base, 'server/discover', {})).body.result;
    assert.deepEqual(discovered.capabilities.extensions, { [TASKS]: {} });
    const client = await memoryClient(gateway);
    assert.equal((client.getServerCapabilities() as { extensions?: unknown }).extensions, undefined);
  });

  it('answers a quick call at once, and makes a long one a task that completes with its result', async () => {
    const quick = (await rpc(base, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0 } })).body.result;
    assert.equal(quick.resultType, 'complete');
    assert.equal(quick.content[0].text, 'Computed result after 0 s.');
    const created = (await rpc(base, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.4, label: 'long' } })).body.result;
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(created.ttlMs, 3_600_000);
    assert.ok(Number.isInteger(created.pollIntervalMs));
    const done = await until(base, created.taskId, ['completed']);
    assert.equal(done.result.content[0].text, 'Computed long after 0.4 s.');
    assert.equal(done.resultType, 'complete');
  });

  it('asks through the task: input_required with the question, answered by tasks/update', async () => {
    const { taskId } = (await rpc(base, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'old.log' } })).body.result;
    const waiting = await until(base, taskId, ['input_required']);
    const [key] = Object.keys(waiting.inputRequests);
    assert.equal(waiting.inputRequests[key!].method, 'elicitation/create');
    const ack = (await rpc(base, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } }, stray: { action: 'cancel' } } })).body.result;
    assert.deepEqual(Object.keys(ack).sort(), ['_meta', 'resultType']);
    assert.equal((await until(base, taskId, ['completed'])).result.content[0].text, 'Deleted old.log.');
  });

  it('records a tool error as completed with isError, and a protocol error as failed with the JSON-RPC error', async () => {
    // failing_job requires a task and fails at once: its task is already complete, as the answer says.
    const failing = (await rpc(base, 'tools/call', { name: 'failing_job', arguments: {} })).body.result;
    assert.equal(failing.resultType, 'task');
    assert.equal(failing.status, 'completed');
    const completed = await until(base, failing.taskId, ['completed', 'failed']);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.result.isError, true);
    const broken = (await rpc(base, 'tools/call', { name: 'protocol_error_job', arguments: {} })).body.result;
    const failed = await until(base, broken.taskId, ['completed', 'failed']);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, -32603);
    assert.equal(failed.error.data.code, 'CONFORMANCE_PROTOCOL_ERROR');
  });

  it('asks the first questions of a required task as a round, then makes the task with the answers', async () => {
    const name = 'test_tool_with_task';
    const round = (await rpc(base, 'tools/call', { name, arguments: {} })).body.result;
    assert.equal(round.resultType, 'input_required');
    assert.deepEqual(Object.keys(round.inputRequests), ['user_name']);
    const answers = { user_name: { action: 'accept', content: { name: 'Ada' } } };
    const created = (await rpc(base, 'tools/call', { name, arguments: {}, inputResponses: answers, requestState: round.requestState })).body.result;
    assert.equal(created.resultType, 'task');
    assert.equal(created.requestState, undefined);
    assert.equal((await until(base, created.taskId, ['completed'])).result.content[0].text, 'Task done for Ada.');
  });

  it('cancels a running task: its call ends and the task stays cancelled', async () => {
    const { taskId } = (await rpc(base, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60 } })).body.result;
    assert.equal((await rpc(base, 'tasks/cancel', { taskId })).body.result.resultType, 'complete');
    assert.equal((await until(base, taskId, ['cancelled', 'completed', 'failed'])).status, 'cancelled');
    // The call was cancelled, not left to run its minute: nothing is in flight.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(gateway.calls.inFlight, 0);
  });

  it('refuses without the extension: -32021 for tasks/* and for a required-task tool; optional tools answer at once', async () => {
    const bare = meta({});
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { body } = await rpc(base, method, { taskId: 'nope' }, { meta: bare });
      assert.equal(body.error.code, -32021, method);
      assert.deepEqual(body.error.data.requiredCapabilities, { extensions: { [TASKS]: {} } });
    }
    assert.equal((await rpc(base, 'tools/call', { name: 'failing_job', arguments: {} }, { meta: bare })).body.error.code, -32021);
    const sync = (await rpc(base, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.4 } }, { meta: bare })).body.result;
    assert.equal(sync.resultType, 'complete');
  });

  it('answers an unknown task with -32602 TASK_NOT_FOUND, and tasks/result and tasks/list with -32601', async () => {
    const { body } = await rpc(base, 'tasks/get', { taskId: 'no-such-task' });
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.data.code, 'TASK_NOT_FOUND');
    for (const method of ['tasks/result', 'tasks/list']) assert.equal((await rpc(base, method, { taskId: 'x' })).body.error.code, -32601, method);
  });
});

describe('the tasks extension on a stream', async () => {
  const gateway = await startGateway({ registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => tcp.close());

  it('tcp: a long call becomes a task, polled on the same connection until it completes, with no log message after', async () => {
    const raw = await RawConnection.open(tcp.address);
    after(() => raw.socket.destroy());
    // The client names a log level: the call's log message would come, were it not a task by then.
    const logged = { ...WITH_TASKS, 'io.modelcontextprotocol/logLevel': 'debug' };
    raw.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: logged, name: 'slow_compute', arguments: { seconds: 0.4, label: 'streamed' } } });
    const created = (await raw.next()).result;
    assert.equal(created.resultType, 'task');
    for (let id = 2; ; id++) {
      raw.send({ jsonrpc: '2.0', id, method: 'tasks/get', params: { _meta: logged, taskId: created.taskId } });
      const message = await raw.next();
      assert.equal(message.id, id, JSON.stringify(message));
      const task = message.result;
      if (task.status === 'completed') {
        assert.equal(task.result.content[0].text, 'Computed streamed after 0.4 s.');
        break;
      }
      assert.equal(task.status, 'working');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});

describe("a task is its caller's alone", async () => {
  const { base, first, second } = await conformanceWithTwoKeys();

  it('another key gets TASK_NOT_FOUND for it, and cannot cancel it', async () => {
    const { taskId } = (await rpc(base, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1 } }, { key: first })).body.result;
    for (const method of ['tasks/get', 'tasks/cancel']) {
      assert.equal((await rpc(base, method, { taskId }, { key: second })).body.error.data.code, 'TASK_NOT_FOUND', method);
    }
    assert.equal((await until(base, taskId, ['completed'], { key: first })).status, 'completed');
  });
});
