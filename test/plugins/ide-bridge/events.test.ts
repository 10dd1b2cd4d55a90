import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { channelMessages, ideBackend, ideGateway, waitFor } from './ide-helpers.js';

describe('ide-bridge events: every push told again', async () => {
  const backend = await ideBackend();
  const ide = await ideGateway(backend.url);
  const events: GatewayEvent[] = [];
  ide.gateway.events.subscribe('**', (event) => void events.push(event));
  await ide.connected();

  it('publishes a push as ide.<type> and as a claude/channel message of its kind', async () => {
    const deployed = { type: 'deploy', message: 'demo/app deployed', timestamp: new Date().toISOString() };
    backend.state.activity.push(deployed);
    backend.push({ type: 'activity', data: deployed });
    await waitFor(() => events.some((e) => e.channel === 'ide.activity'));
    const event = events.find((e) => e.channel === 'ide.activity')!;
    assert.equal(event.source, 'ide-bridge');
    assert.equal((event.data as any).data.message, 'demo/app deployed');
    await waitFor(() => channelMessages(ide.received, 'ide-bridge.activity').length === 1);
    assert.equal((await ide.call('ide_dashboard_activity', { limit: 1 })).events[0].message, 'demo/app deployed');
  });

  it('maps build states to build.start, build.complete and build.failed, once per change', async () => {
    await backend.runBuild({ id: 'build-ok', outcome: 'success', lines: ['a', 'b'] });
    await backend.runBuild({ id: 'build-bad', outcome: 'failed', lines: ['c'] });
    backend.push({ type: 'build.updated', data: { build: { ...backend.state.builds.get('build-bad') } } });
    await waitFor(() => events.filter((e) => e.channel === 'build.failed').length === 1 && events.filter((e) => e.channel === 'ide.build.updated').length === 5);
    const builds = (channel: string) => events.filter((e) => e.channel === channel).map((e) => (e.data as any).build.id);
    assert.deepEqual(builds('build.start'), ['build-ok', 'build-bad']);
    assert.deepEqual(builds('build.complete'), ['build-ok']);
    assert.deepEqual(builds('build.failed'), ['build-bad'], 'the repeated failed state is not announced twice');
    await waitFor(() => channelMessages(ide.received, 'ide-bridge.build.failed').length === 1);
    assert.equal(channelMessages(ide.received, 'ide-bridge.build.start').length, 2);
    assert.equal(channelMessages(ide.received, 'ide-bridge.build.complete')[0].build.status, 'success');
    // The pushed log lines and states are in the cache.
    assert.deepEqual((await ide.call('ide_build_logs', { buildId: 'build-ok' })).lines, ['a', 'b']);
    assert.equal((await ide.call('ide_build_status', { buildId: 'build-bad' })).build.status, 'failed');
  });

  it('publishes chat, session, plan and dashboard pushes on their channels', async () => {
    const timestamp = new Date().toISOString();
    backend.push({ type: 'plan.updated', sessionId: 'sess-demo', data: { status: 'done', steps: [{ name: 'Write the fix', status: 'done' }] } });
    backend.push({ type: 'session.updated', data: { session: { id: 'sess-pushed', name: 'Pushed', status: 'active', createdAt: timestamp } } });
    backend.push({ type: 'chat.message', sessionId: 'sess-pushed', channel: 'chat:sess-pushed', data: { role: 'assistant', content: 'hello', timestamp } });
    backend.push({ type: 'dashboard.state', data: { state: { pushed: true }, updatedAt: timestamp } });
    await waitFor(() => ['ide.plan.updated', 'ide.session.updated', 'ide.chat.message', 'ide.dashboard.state'].every((c) => events.some((e) => e.channel === c)));
    const chat = events.find((e) => e.channel === 'ide.chat.message')!.data as any;
    assert.deepEqual([chat.sessionId, chat.channel, chat.data.content], ['sess-pushed', 'chat:sess-pushed', 'hello']);
    for (const channel of ['ide-bridge.plan', 'ide-bridge.session', 'ide-bridge.chat', 'ide-bridge.dashboard']) {
      await waitFor(() => channelMessages(ide.received, channel).length > 0);
    }
    assert.equal((await ide.call('ide_plan_status', { sessionId: 'sess-demo' })).status, 'done');
    assert.deepEqual((await ide.call('ide_dashboard_state')).state, { pushed: true });
  });

  it('announces the bridge going down and coming back', async () => {
    backend.dropConnections();
    await waitFor(() => events.some((e) => e.channel === 'ide.bridge.disconnected'));
    await waitFor(() => events.filter((e) => e.channel === 'ide.bridge.connected').length >= 2);
    assert.ok(channelMessages(ide.received, 'ide-bridge.bridge').some((m) => m.state === 'disconnected'));
  });
});
