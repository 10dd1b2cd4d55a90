import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ideBackend, ideGateway, waitFor } from './ide-helpers.js';

describe('ide-bridge while the backend is down', () => {
  it('queue mode: messages sent meanwhile are delivered once each, in order, after reconnect', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url);
    await ide.connected();
    await ide.call('ide_dashboard_state');
    await backend.stop();
    await ide.until((s) => !s.connected);

    const sent = [];
    for (const message of ['one', 'two', 'three']) sent.push(await ide.call('ide_chat_send', { sessionId: 'sess-demo', message }));
    const created = await ide.call('ide_session_create', { name: 'Made while down' });
    const updated = await ide.call('ide_dashboard_update', { state: { mode: 'offline' } });
    assert.ok([...sent, created, updated].every((r) => r.queued === true));
    assert.equal(sent[0].sent, false);
    assert.equal(created.session.status, 'creating');
    assert.deepEqual(updated.state, { theme: 'dark', mode: 'offline' }, 'merged into the state last heard');
    assert.equal((await ide.status()).queueLength, 5);

    await backend.start();
    await ide.connected();
    await ide.until((s) => s.queueLength === 0);
    const ids = [...sent.map((r) => r.messageId)];
    const delivered = backend.received.filter((e) => ['chat.send', 'session.create', 'dashboard.update'].includes(e.type));
    assert.deepEqual(
      delivered.map((e) => [e.type, e.data?.message ?? e.data?.name ?? e.data?.state?.mode]),
      [['chat.send', 'one'], ['chat.send', 'two'], ['chat.send', 'three'], ['session.create', 'Made while down'], ['dashboard.update', 'offline']],
    );
    assert.deepEqual(delivered.slice(0, 3).map((e) => e.id), ids);
    assert.equal(delivered.find((e) => e.type === 'session.create')!.data!.id, created.session.id, 'the session has the id given while queued');
    await waitFor(() => backend.state.chats.get('sess-demo').filter((m: any) => m.content.startsWith('Echo: ')).length === 3);
    assert.equal(backend.state.sessions.get(created.session.id).name, 'Made while down');
  });

  it('queue mode: a queued message whose answer was lost is sent again with its id, and carried out once', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { requestTimeoutMs: 1500 });
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    const first = await ide.call('ide_chat_send', { sessionId: 'sess-demo', message: 'first' });
    await ide.call('ide_chat_send', { sessionId: 'sess-demo', message: 'second' });
    backend.answersLost = 1;
    await backend.start();
    await ide.until((s) => s.connected && s.queueLength === 0);
    const sends = backend.received.filter((e) => e.type === 'chat.send');
    assert.deepEqual(sends.map((e) => e.data!.message), ['first', 'first', 'second']);
    assert.equal(sends[0]!.id, first.messageId);
    assert.equal(sends[1]!.id, first.messageId, 'the repeat has the same id');
    await waitFor(() => backend.state.chats.get('sess-demo').some((m: any) => m.content === 'Echo: second'));
    const said = backend.state.chats.get('sess-demo').filter((m: any) => m.role === 'user').map((m: any) => m.content);
    assert.deepEqual(said.slice(-2), ['first', 'second'], 'first carried out once, before second');
  });

  it('queue mode: IDE_QUEUE_FULL beyond queueLimit, nothing lost of what was queued', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { queueLimit: 2 });
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    await ide.call('ide_chat_send', { sessionId: 'sess-demo', message: 'a' });
    await ide.call('ide_chat_send', { sessionId: 'sess-demo', message: 'b' });
    const full = await ide.fail('ide_chat_send', { sessionId: 'sess-demo', message: 'c' });
    assert.equal(full.code, 'IDE_QUEUE_FULL');
    await backend.start();
    await ide.until((s) => s.connected && s.queueLength === 0);
    assert.deepEqual(backend.received.filter((e) => e.type === 'chat.send').map((e) => e.data!.message), ['a', 'b']);
  });

  it('fail mode: refused at once with IDE_BRIDGE_UNAVAILABLE, and nothing is sent later', async () => {
    const backend = await ideBackend();
    const ide = await ideGateway(backend.url, { whenDown: 'fail' });
    await ide.connected();
    await backend.stop();
    await ide.until((s) => !s.connected);
    for (const [name, args] of [
      ['ide_chat_send', { sessionId: 'sess-demo', message: 'lost' }],
      ['ide_session_create', { name: 'never' }],
      ['ide_dashboard_update', { state: { a: 1 } }],
    ] as const) {
      assert.equal((await ide.fail(name, args)).code, 'IDE_BRIDGE_UNAVAILABLE', name);
    }
    // Reads still answer, from the cache.
    assert.equal((await ide.call('ide_session_list')).stale, true);
    await backend.start();
    await ide.connected();
    await ide.call('ide_session_list');
    assert.deepEqual(backend.received.filter((e) => e.type !== 'session.list'), []);
  });
});
