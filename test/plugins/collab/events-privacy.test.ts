// What /events shows of collab to a key that may read the stream and nothing else: who wrote to
// whom, never what. The text of a message is its recipients', read with the tools (issue 34,
// item 5: collab.message.sent carried the subject and a body preview to every subscriber).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import { httpRequest, recordNotifications, waitFor } from '../../helpers.js';
import { collabGateway } from './collab-helpers.js';

/** Every frame /events sends to `key` on this socket, raw, once subscribed to `channels`. */
async function watchFrames(port: number, key: string, channels: string[]): Promise<string[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/events`, { headers: { authorization: `Bearer ${key}` } });
  after(() => ws.terminate());
  const frames: string[] = [];
  const subscribed = new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data) => {
      const text = data.toString();
      frames.push(text);
      if (JSON.parse(text).type === 'subscribed') resolve();
    });
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'subscribe', channels }));
  await subscribed;
  return frames;
}

describe('collab on /events: an events-only key sees no private text', async () => {
  const c = await collabGateway({ keys: [{ name: 'dashboard', scopes: ['events'] }] });
  const watcher = { key: c.keys.dashboard! };
  const port = (await c.listen({ http: true })).http!.port;
  const owner = c.ownerKey!;
  const rest = async (key: string, tool: string, args: Record<string, unknown>) => {
    const answer = await httpRequest(port, { method: 'POST', url: `/tools/${tool}`, headers: { authorization: `Bearer ${key}` }, payload: args });
    return { status: answer.statusCode, ...answer.json() };
  };

  it('the events key may not read messages with the tools', async () => {
    const refused = await rest(watcher.key, 'collab_read_messages', { agent: 'bob' });
    assert.deepEqual([refused.status, refused.error.code], [403, 'FORBIDDEN']);
  });

  it('sees that alice wrote to bob, never the subject, the body or a handoff summary; bob reads them', async () => {
    const frames = await watchFrames(port, watcher.key, ['**']);
    const alice = c;
    await alice.call('collab_join', { name: 'alice' });
    const bob = await c.session('bob-client');
    await bob.call('collab_join', { name: 'bob' });
    const carol = await c.session('carol-client');
    await carol.call('collab_join', { name: 'carol' });
    const toBob = recordNotifications(bob.client);
    const toCarol = recordNotifications(carol.client);

    const direct = await alice.call('collab_send_message', { to: 'bob', subject: 'secret-subject', body: 'secret-body: the staging password is hunter2' });
    const reply = await rest(owner, 'collab_send_message', { agent: 'bob', to: 'alice', body: 'secret-reply', reply_to: direct.id });
    assert.equal(reply.status, 200);
    const { task } = await alice.call('collab_create_task', { title: 'Rotate the keys' });
    await alice.call('collab_read_messages', {});
    assert.equal((await alice.call('collab_claim_next', {})).task.id, task.id);
    const handed = await alice.call('collab_handoff', { to: 'bob', summary: 'secret-summary', next_steps: 'secret-steps' });
    await waitFor(() => frames.filter((f) => f.includes('"collab.message.sent"')).length === 3 && frames.some((f) => f.includes('"collab.task.handed_off"')));

    const sent = frames.map((f) => JSON.parse(f)).filter((m) => m.channel === 'collab.message.sent');
    assert.deepEqual(
      sent.map((m) => m.data),
      [
        { id: direct.id, from: 'alice', to: 'bob', kind: 'message', thread_id: direct.id, task_id: null },
        { id: reply.data.id, from: 'bob', to: 'alice', kind: 'message', thread_id: direct.id, task_id: null },
        { id: handed.message_id, from: 'alice', to: 'bob', kind: 'handoff', thread_id: handed.message_id, task_id: task.id },
      ],
    );
    for (const frame of frames) assert.doesNotMatch(frame, /secret|hunter2/, `an /events frame carries private text: ${frame.slice(0, 300)}`);

    // The recipient's own sessions are told the subject and a preview, read from the store.
    await waitFor(() => toBob.filter((n) => n.method === 'notifications/claude/channel' && n.params.channel === 'collab.message').length === 2);
    const [first, handoff] = toBob.filter((n) => n.method === 'notifications/claude/channel' && n.params.channel === 'collab.message').map((n) => n.params.data);
    assert.deepEqual([first.id, first.subject, first.preview], [direct.id, 'secret-subject', 'secret-body: the staging password is hunter2']);
    assert.equal(handoff.id, handed.message_id);
    assert.match(handoff.preview, /secret-summary/);
    assert.match(toBob.find((n) => n.method === 'notifications/message')!.params.data.text, /^Message #\d+ from alice: secret-subject$/);
    assert.equal((await bob.call('collab_read_messages', {})).messages.find((m: any) => m.id === direct.id).body, 'secret-body: the staging password is hunter2');
    // Nobody else's session hears of it.
    assert.deepEqual(toCarol.filter((n) => JSON.stringify(n).includes('secret')), []);
  });
});
