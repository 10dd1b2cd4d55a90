// ctx.sessions: whether a session is open, a handler for sessions that close, and notes core
// appends to tool results; and call.caller.keyName, the one identity core has checked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, memoryClient, NOTIFY_REGISTRY, startGateway, toolCalls, waitFor } from '../../helpers.js';

const WITH_NOTIFY = { registries: [FIXTURE_REGISTRY, NOTIFY_REGISTRY], plugins: { echo: {}, notify: {} } };

describe('ctx.sessions', () => {
  it('says whether a session is open and calls onClose with the id of one that closes', async () => {
    const gateway = await startGateway(WITH_NOTIFY);
    const watcher = toolCalls(await memoryClient(gateway, 'watcher'));
    const leaving = await memoryClient(gateway, 'leaving');
    const { caller } = await toolCalls(leaving).call('notify_sessions');
    assert.equal((await watcher.call('notify_sessions', { session: caller.sessionId })).open, true);
    await leaving.close();
    await waitFor(() => gateway.sessions.get(caller.sessionId) === undefined);
    const after = await watcher.call('notify_sessions', { session: caller.sessionId });
    assert.equal(after.open, false);
    assert.deepEqual(after.closed, [caller.sessionId]);
    assert.equal((await watcher.call('notify_sessions', { session: 'no-such-session' })).open, false);
  });

  it("appends a plugin's note to every MCP tool result, any plugin's tool, as one more text block", async () => {
    const gateway = await startGateway(WITH_NOTIFY);
    const client = await memoryClient(gateway);
    await client.callTool({ name: 'notify_set_note', arguments: { note: '[notify] 1 new thing' } });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const blocks = result.content as Array<{ type: string; text: string }>;
    assert.equal(blocks.length, 2);
    assert.equal(blocks[1]!.text, '[notify] 1 new thing (after echo, memory)');
    assert.doesNotMatch(blocks[0]!.text, /notify/);
    // A failed call carries no note: its one block is the error.
    const failed = await client.callTool({ name: 'echo', arguments: { nope: 1 } });
    assert.equal(failed.isError, true);
    assert.equal((failed.content as unknown[]).length, 1);
  });

  it('a throwing note provider adds nothing and fails nothing; REST answers carry no note', async () => {
    const gateway = await startGateway(WITH_NOTIFY);
    const client = await memoryClient(gateway);
    await client.callTool({ name: 'notify_set_note', arguments: { note: 'throw' } });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.equal(result.isError, undefined);
    assert.equal((result.content as unknown[]).length, 1);
    await client.callTool({ name: 'notify_set_note', arguments: { note: 'a note' } });
    const app = await createHttpApp(gateway);
    try {
      const res = await app.inject({ method: 'POST', url: '/tools/echo', payload: { text: 'hi' } });
      assert.equal(res.statusCode, 200);
      assert.doesNotMatch(res.body, /a note/);
    } finally {
      await app.close();
    }
  });
});

describe('call.caller.keyName', () => {
  it('is the API key name over REST with a key, and absent where the identity is only what the client says', async () => {
    const ci = createApiKey();
    const gateway = await startGateway({ ...WITH_NOTIFY, auth: 'key', apiKeys: [{ name: 'ci', hash: ci.hash, scopes: ['*'] }] });
    const app = await createHttpApp(gateway);
    try {
      const res = await app.inject({ method: 'POST', url: '/tools/notify_sessions', payload: {}, headers: { authorization: `Bearer ${ci.key}` } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().data.caller, { transport: 'rest', identity: 'ci', keyName: 'ci' });
    } finally {
      await app.close();
    }
    const { caller } = await toolCalls(await memoryClient(gateway, 'says-its-name')).call('notify_sessions');
    assert.equal(caller.identity, 'says-its-name');
    assert.equal(caller.keyName, undefined);
  });
});
