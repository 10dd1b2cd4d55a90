import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resultJson, waitFor } from '../../helpers.js';
import { bannerOf } from './banner-helpers.js';
import { restCollabGateway } from './collab-helpers.js';

/**
 * Issue 35, item 3: a 2026-07-28 client has no session to bind, so collab_join gives it a signed
 * agent handle that it passes as `agent`; the handle is good for the caller it was made for.
 */
describe('collab agent handles: who acts without a session', async () => {
  const { c, owner, ci, other, rest, base } = await restCollabGateway();
  await rest(owner, 'collab_register_agent', { name: 'alice' });
  await rest(owner, 'collab_register_agent', { name: 'builder' });
  const modern = async (key: string) => {
    const client = new Client({ name: 'modern-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    after(() => client.close());
    return client;
  };
  const ada = await modern(other.key);
  const call = async (name: string, args: Record<string, unknown>) => ada.callTool({ name, arguments: args });
  const joined = (await call('collab_join', { name: 'ada' })).structuredContent as { session_bound: boolean; agent_handle: string; handle_expires_at: string };
  const handle = joined.agent_handle;

  it('collab_join gives a 2026 client a handle, which later calls pass as agent', async () => {
    assert.equal(joined.session_bound, false);
    assert.match(handle, /^ada\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    assert.ok(Date.parse(joined.handle_expires_at) > Date.now() + 23 * 3600_000, 'a day by default');
    const sent = await call('collab_send_message', { agent: handle, to: 'alice', body: 'Ada is here.' });
    assert.equal((sent.structuredContent as { from: string }).from, 'ada');
    const unnamed = await call('collab_heartbeat', {});
    assert.equal(unnamed.isError, true);
    assert.equal(resultJson(unnamed).code, 'COLLAB_AGENT_REQUIRED');
  });

  it('the handle is good for the key it was made for, on any face, and for no other key', async () => {
    const sameKey = await rest(other.key, 'collab_append_note', { agent: handle, content: 'Same key over REST.' });
    assert.deepEqual([sameKey.status, sameKey.data.author], [200, 'ada']);
    const ownerKey = await rest(owner, 'collab_append_note', { agent: handle, content: 'x' });
    assert.deepEqual([ownerKey.status, ownerKey.error.code, ownerKey.error.details.reason], [403, 'COLLAB_HANDLE_INVALID', 'signature']);
    const renamed = await rest(other.key, 'collab_append_note', { agent: handle.replace(/^ada/, 'alice'), content: 'x' });
    assert.deepEqual([renamed.status, renamed.error.code], [403, 'COLLAB_HANDLE_INVALID']);
    // The signature's last character carries two spare bits: any other spelling of it is refused too.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${handle.slice(0, -1)}${alphabet[alphabet.indexOf(handle.at(-1)!) ^ 1]}`;
    const spare = await rest(other.key, 'collab_append_note', { agent: respelled, content: 'x' });
    assert.deepEqual([spare.status, spare.error.code], [403, 'COLLAB_HANDLE_INVALID']);
    const malformed = await rest(other.key, 'collab_append_note', { agent: 'ada.not a handle', content: 'x' });
    assert.deepEqual([malformed.status, malformed.error.code], [400, 'INVALID_ARGUMENTS']);
  });

  it('an expired handle is refused with when it expired', async () => {
    // Signed with the gateway's own key, exactly as agent-handles.ts signs, an hour ago.
    const key = readFileSync(join(c.dataDir, 'collab.agent-handles.key'), 'utf8').trim();
    const stamp = (Math.floor(Date.now() / 1000) - 3600).toString(36);
    const signature = createHmac('sha256', key).update(`collab agent handle\nada\n${stamp}\nkey:other`).digest('base64url');
    const expired = await rest(other.key, 'collab_append_note', { agent: `ada.${stamp}.${signature}`, content: 'x' });
    assert.deepEqual([expired.status, expired.error.code, expired.error.details.reason], [403, 'COLLAB_HANDLE_INVALID', 'expired']);
  });

  it('a key pinned to an agent needs no handle, and a handle cannot take its agent', async () => {
    const beat = await rest(ci.key, 'collab_heartbeat', {});
    assert.equal(beat.data.agent.name, 'builder');
    const asAda = await rest(ci.key, 'collab_heartbeat', { agent: handle });
    assert.deepEqual([asAda.status, asAda.error.code], [403, 'COLLAB_HANDLE_INVALID']);
  });

  it("news for the agent reaches the handle's caller as the banner of its next collab call", async () => {
    await rest(ci.key, 'collab_send_message', { to: 'ada', body: 'Build is green.' });
    // The banner is worked out a moment after the message is sent: the first calls may come before it.
    let banner: string | undefined;
    for (let i = 0; i < 100 && banner === undefined; i++) {
      banner = bannerOf(await call('collab_heartbeat', { agent: handle }));
      if (banner === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.match(banner!, /^\[collab\] ada: 1 unread message/);
  });

  it("a 2026 client hears its instructions change on subscriptions/listen when a message reaches it", async () => {
    const updated: string[] = [];
    ada.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    const subscription = await ada.listen({ resourceSubscriptions: ['collab://agents/ada/instructions'] });
    after(() => subscription.close());
    await rest(ci.key, 'collab_send_message', { to: 'ada', body: 'Another one.' });
    await waitFor(() => updated.includes('collab://agents/ada/instructions'));
    const read = await ada.readResource({ uri: 'collab://agents/ada/instructions' });
    assert.match((read.contents[0] as { text: string }).text, /## Messages\n\n\d unread messages/);
  });

  it("a key pinned to one agent cannot read another agent's instructions", async () => {
    const builder = await modern(ci.key);
    await assert.rejects(builder.readResource({ uri: 'collab://agents/ada/instructions' }), (err: any) => err.data?.code === 'COLLAB_NOT_PERMITTED');
    assert.ok((await builder.readResource({ uri: 'collab://agents/builder/instructions' })).contents.length > 0);
  });
});
