import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { createNotifier } from '../../../core/sessions/notifier.js';
import { SessionRegistry } from '../../../core/sessions/sessions.js';
import { FIXTURE_REGISTRY, memoryClient, NOTIFY_REGISTRY, recordNotifications, resultJson, startGateway, waitFor, type Received } from '../../helpers.js';

const CHANNEL = 'notifications/claude/channel';

describe('ctx.notify over real SDK clients (in-memory)', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, NOTIFY_REGISTRY], plugins: { echo: {}, notify: {} } });
  const names = ['alice', 'alice', 'bob'] as const;
  const clients: Client[] = [];
  const inboxes: Received[][] = [];
  for (const name of names) {
    const client = await memoryClient(gateway, name);
    clients.push(client);
    inboxes.push(recordNotifications(client));
  }
  const [alice1, alice2, bob] = clients as [Client, Client, Client];
  const sessionOf = async (client: Client) => (await client.callTool({ name: 'echo', arguments: { text: 'who' } })).structuredContent as any;
  const send = async (from: Client, args: Record<string, unknown>) => {
    const result = await from.callTool({ name: 'notify_send', arguments: args });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    return (result.structuredContent as { sent: number }).sent;
  };
  let markers = 0;
  /**
   * What each client received up to a marker sent to all afterwards: a session's notifications
   * arrive in order, so once the marker is in, anything addressed to it before is in too.
   */
  const delivered = async (): Promise<Received[][]> => {
    const marker = `marker-${++markers}`;
    await send(alice1, { target: 'all', kind: 'channel', data: marker });
    await waitFor(() => inboxes.every((inbox) => inbox.some((n) => n.params?.data === marker)));
    return inboxes.map((inbox) => {
      const upTo = inbox.splice(0, inbox.findIndex((n) => n.params?.data === marker) + 1);
      return upTo.slice(0, -1);
    });
  };

  it('announces the claude/channel capability with the declared channels, and tools.listChanged', () => {
    const capabilities = alice1.getServerCapabilities()!;
    assert.deepEqual(capabilities.experimental?.['claude/channel'], { channels: ['notify.messages', 'notify.replies'] });
    assert.deepEqual(capabilities.tools, { listChanged: true });
    assert.deepEqual(capabilities.logging, {});
  });

  it('gives each session its identity: the MCP client name over the in-memory transport', async () => {
    const [a1, a2, b] = await Promise.all(clients.map(sessionOf));
    assert.equal(a1.caller.identity, 'alice');
    assert.equal(a2.caller.identity, 'alice');
    assert.equal(b.caller.identity, 'bob');
    assert.notEqual(a1.caller.sessionId, a2.caller.sessionId);
    assert.equal(gateway.sessions.get(a1.caller.sessionId)?.identity, 'alice');
  });

  it('sends a channel message to the sessions of one identity, and to no other', async () => {
    assert.equal(await send(bob, { target: { identity: 'alice' }, kind: 'channel', data: { hello: 'alice' } }), 2);
    const [a1, a2, b] = await delivered();
    const expected = [{ method: CHANNEL, params: { channel: 'notify.messages', data: { hello: 'alice' } } }];
    assert.deepEqual(a1, expected);
    assert.deepEqual(a2, expected);
    assert.deepEqual(b, []);
  });

  it('sends to one session by id, and to all', async () => {
    const bobSession = (await sessionOf(bob)).caller.sessionId;
    assert.equal(await send(alice1, { target: { session: bobSession }, kind: 'channel', data: 'just bob' }), 1);
    assert.deepEqual((await delivered()).map((inbox) => inbox.map((n) => n.params.data)), [[], [], ['just bob']]);
    assert.equal(await send(alice2, { target: 'all', kind: 'channel', channel: 'notify.replies', data: 1 }), 3);
    assert.deepEqual((await delivered()).map((inbox) => inbox.map((n) => n.params)), [[{ channel: 'notify.replies', data: 1 }], [{ channel: 'notify.replies', data: 1 }], [{ channel: 'notify.replies', data: 1 }]]);
  });

  it('reaches nobody for an unknown session or identity (0, not an error)', async () => {
    assert.equal(await send(alice1, { target: { session: 'no-such-session' }, kind: 'channel', data: 'x' }), 0);
    assert.equal(await send(alice1, { target: { identity: 'carol' }, kind: 'log', data: 'x' }), 0);
    assert.deepEqual(await delivered(), [[], [], []]);
  });

  it('lets a tool answer on its own session through caller.sessionId', async () => {
    const result = await alice2.callTool({ name: 'notify_self', arguments: { text: 'for me' } });
    assert.equal((result.structuredContent as any).sent, 1);
    const [a1, a2, b] = await delivered();
    assert.deepEqual(a2, [{ method: CHANNEL, params: { channel: 'notify.replies', data: { text: 'for me' } } }]);
    assert.deepEqual([a1, b], [[], []]);
  });

  it('sends MCP log messages, every level until a session sets one, then that level and above', async () => {
    assert.equal(await send(alice1, { target: 'all', kind: 'log', level: 'debug', data: { step: 1 } }), 3);
    for (const inbox of await delivered()) {
      assert.deepEqual(inbox, [{ method: 'notifications/message', params: { level: 'debug', logger: 'notify', data: { step: 1 } } }]);
    }
    await bob.setLoggingLevel('warning');
    assert.equal(await send(alice1, { target: 'all', kind: 'log', level: 'info', data: 'info' }), 2);
    assert.equal(await send(alice1, { target: 'all', kind: 'log', level: 'error', logger: 'custom', data: 'error' }), 3);
    const [a1, , b] = await delivered();
    assert.deepEqual(a1.map((n) => n.params.data), ['info', 'error']);
    assert.deepEqual(b, [{ method: 'notifications/message', params: { level: 'error', logger: 'custom', data: 'error' } }]);
    assert.equal(gateway.sessions.get((await sessionOf(bob)).caller.sessionId)?.logLevel, 'warning');
  });

  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a target that is not one of the three forms', { target: 'everyone', kind: 'channel' }, /target must be 'all', \{ session: <id> \} or \{ identity: <name> \}/],
    ['a session id that is not a string', { target: { session: 5 }, kind: 'log' }, /target must be/],
    ['an unknown log level', { target: 'all', kind: 'log', level: 'loud' }, /log level "loud" is not one of debug, info/],
    ['a channel the plugin object does not declare', { target: 'all', kind: 'channel', channel: 'notify.secret' }, /channel "notify.secret" is not declared in the plugin object's channels \(declared: notify.messages, notify.replies\)/],
    ["another plugin's channel", { target: 'all', kind: 'channel', channel: 'echo.said' }, /not declared/],
  ];
  for (const [label, args, message] of refusals) {
    it(`refuses ${label} with NOTIFICATION_INVALID, sending nothing`, async () => {
      const result = await alice1.callTool({ name: 'notify_send', arguments: args });
      assert.equal(result.isError, true);
      const error = resultJson(result);
      assert.equal(error.code, 'NOTIFICATION_INVALID');
      assert.match(error.message, message);
      assert.deepEqual(await delivered(), [[], [], []]);
    });
  }
});

describe('the notifier on its own', () => {
  const sessions = new SessionRegistry();
  const sent: Array<{ session: string; method: string }> = [];
  const open = (identity: string, ready: boolean) => {
    const session = sessions.open('memory', 'memory');
    Object.assign(session, { identity, ready, notify: (n: { method: string }) => sent.push({ session: session.id, method: n.method }) });
    return session;
  };
  const notify = createNotifier(sessions, 'p', ['p.one']);

  it('skips sessions that have not finished initialize', () => {
    open('x', false);
    const ready = open('x', true);
    assert.equal(notify.channel({ identity: 'x' }, 'p.one', {}), 1);
    assert.equal(notify.log('all', 'info', 'hi'), 1);
    assert.deepEqual(sent.map((s) => s.session), [ready.id, ready.id]);
  });

  it('refuses data JSON cannot express, before sending anything', () => {
    sent.splice(0);
    for (const data of [10n, undefined, () => 1]) {
      assert.throws(() => notify.channel('all', 'p.one', data), (err: any) => err.code === 'NOTIFICATION_INVALID' && /not JSON/.test(err.message));
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => notify.log('all', 'info', cycle), (err: any) => err.code === 'NOTIFICATION_INVALID');
    assert.deepEqual(sent, []);
  });
});
