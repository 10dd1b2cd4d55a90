import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordNotifications, waitFor } from '../../helpers.js';
import { restCollabGateway } from './collab-helpers.js';

describe('collab over REST: who acts', async () => {
  const { c, owner, ci, other, rest } = await restCollabGateway();
  await rest(owner, 'collab_register_agent', { name: 'builder' });
  await rest(owner, 'collab_register_agent', { name: 'alice' });

  it('a caller without a session names the agent; without it the call is refused', async () => {
    const missing = await rest(owner, 'collab_send_message', { to: 'builder', body: 'x' });
    assert.deepEqual([missing.status, missing.error.code], [400, 'COLLAB_AGENT_REQUIRED']);
    const sent = await rest(owner, 'collab_send_message', { agent: 'alice', to: 'builder', body: 'Build main, please.' });
    assert.deepEqual([sent.status, sent.data.from], [200, 'alice']);
  });

  it('a key pinned to an agent acts as it without naming it, and only as it', async () => {
    const beat = await rest(ci.key, 'collab_heartbeat', { progress: 'building' });
    assert.deepEqual([beat.status, beat.data.agent.name, beat.data.agent.progress], [200, 'builder', 'building']);
    const inbox = await rest(ci.key, 'collab_read_messages', { filter: 'all' });
    assert.ok(inbox.data.messages.some((m: any) => m.body === 'Build main, please.'));
    const sent = await rest(ci.key, 'collab_send_message', { to: 'alice', body: 'Main is green.' });
    assert.equal(sent.data.from, 'builder');
    const named = await rest(ci.key, 'collab_send_message', { agent: 'builder', to: 'alice', body: 'Still green.' });
    assert.equal(named.data.from, 'builder');

    const asAlice = await rest(ci.key, 'collab_send_message', { agent: 'alice', to: 'builder', body: 'x' });
    assert.deepEqual([asAlice.status, asAlice.error.code], [403, 'COLLAB_NOT_PERMITTED']);
    const otherAsBuilder = await rest(other.key, 'collab_send_message', { agent: 'builder', to: 'alice', body: 'x' });
    assert.deepEqual([otherAsBuilder.status, otherAsBuilder.error.code], [403, 'COLLAB_NOT_PERMITTED']);
    const otherRegisters = await rest(other.key, 'collab_register_agent', { name: 'builder', project: 'mine' });
    assert.deepEqual([otherRegisters.status, otherRegisters.error.code], [403, 'COLLAB_NOT_PERMITTED']);
    const ownerAsBuilder = await rest(owner, 'collab_append_note', { agent: 'builder', content: 'The owner key may act as anyone.' });
    assert.deepEqual([ownerAsBuilder.status, ownerAsBuilder.data.author], [200, 'builder']);
    const otherAsAlice = await rest(other.key, 'collab_append_note', { agent: 'alice', content: 'An unpinned key names an unpinned agent.' });
    assert.equal(otherAsAlice.data.author, 'alice');
  });

  it('a message sent over REST reaches the MCP session bound to its recipient', async () => {
    const alice = await c.session('alice');
    await alice.call('collab_join', { name: 'alice' });
    const heard = recordNotifications(alice.client);
    const sent = await rest(ci.key, 'collab_send_message', { to: 'alice', subject: 'Build', body: 'Green again.' });
    await waitFor(() => heard.some((n) => n.method === 'notifications/claude/channel'));
    assert.equal(heard.find((n) => n.method === 'notifications/claude/channel')!.params.data.id, sent.data.id);
    assert.equal((await alice.fail('collab_read_messages', { agent: 'builder' })).code, 'COLLAB_NOT_PERMITTED');
  });
});
