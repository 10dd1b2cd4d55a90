import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { recordNotifications, waitFor } from '../../helpers.js';
import { brainGateway } from './brain-helpers.js';

describe('brain events', () => {
  it('publishes each completed call on the bus and as a channel message to the caller', async () => {
    const b = await brainGateway();
    const seen: GatewayEvent[] = [];
    b.gateway.events.subscribe('brain.**', (event) => void seen.push(event));
    const received = recordNotifications(b.client);
    const stored = await b.call('brain_remember', { content: 'Channels carry no content.', type: 'convention', tags: ['events'], org: 'acme' });
    await b.call('brain_recall', { query: 'channels' });
    await b.call('brain_list', {});
    await b.call('brain_forget', { id: stored.memory.id, reason: 'done' });
    assert.deepEqual(
      seen.map((e) => e.channel),
      ['brain.remember.complete', 'brain.recall.complete', 'brain.list.complete', 'brain.forget.complete'],
    );
    assert.deepEqual(seen[0]!.data, { id: stored.memory.id, type: 'convention', org: 'acme', project: null, tags: ['events'], duplicate: false, queued: false, agent_id: 'test-client', backend: 'local' });
    assert.deepEqual(seen[1]!.data, { count: 1, ids: [stored.memory.id], mode: 'lexical', agent_id: 'test-client', backend: 'local' });
    assert.deepEqual(seen[3]!.data, { id: stored.memory.id, forgotten: true, reason: 'done', agent_id: 'test-client', backend: 'local' });
    await waitFor(() => received.filter((n) => n.method === 'notifications/claude/channel').length === 4);
    const channels = received.filter((n) => n.method === 'notifications/claude/channel').map((n) => n.params.channel);
    assert.deepEqual(channels, ['brain.remember.complete', 'brain.recall.complete', 'brain.list.complete', 'brain.forget.complete']);
    assert.ok(!JSON.stringify([received, seen]).includes('Channels carry no content.'), 'no event carries the content');
    assert.ok(!JSON.stringify(seen).includes('"channels"'), 'nor the query');
  });
});

describe('brain_import', () => {
  it('moves a brain: ids, agents, times and tombstones kept, run twice without harm', async () => {
    const from = await brainGateway({}, undefined, 'alice');
    const kept = await from.call('brain_remember', { content: 'Use pnpm in the web repo.', type: 'convention', tags: ['web'], expires_in: 3600 });
    const old = await from.call('brain_remember', { content: 'The web repo uses yarn.', type: 'fact' });
    const newer = await from.call('brain_remember', { content: 'The web repo moved to pnpm.', type: 'fact', supersedes: old.memory.id });
    const gone = await from.call('brain_remember', { content: 'A secret that should not travel.', type: 'fact' });
    await from.call('brain_forget', { id: gone.memory.id, reason: 'leaked' });
    const everything = (await from.call('brain_list', { include_forgotten: true, include_superseded: true, include_expired: true })).memories;
    assert.equal(everything.length, 4);

    const to = await brainGateway({}, undefined, 'importer');
    const first = await to.call('brain_import', { memories: everything });
    assert.deepEqual(first, { imported: 4, skipped: 0, forgotten: 0 });
    assert.deepEqual(await to.call('brain_import', { memories: everything }), { imported: 0, skipped: 4, forgotten: 0 });
    const copied = (await to.call('brain_list', { include_forgotten: true, include_superseded: true, include_expired: true })).memories;
    assert.deepEqual(copied, everything);
    const recalled = await to.call('brain_recall', { query: 'web repo pnpm' });
    assert.deepEqual(recalled.memories.map((m: any) => [m.id, m.agent_id]).sort(), [[kept.memory.id, 'alice'], [newer.memory.id, 'alice']].sort());
    assert.equal((await to.call('brain_recall', { query: 'secret travel' })).count, 0);

    // A forget made after the copy travels too.
    await from.call('brain_forget', { id: kept.memory.id, reason: 'pnpm is everywhere now' });
    const tombstone = (await from.call('brain_list', { include_forgotten: true, include_expired: true })).memories.find((m: any) => m.id === kept.memory.id);
    assert.deepEqual(await to.call('brain_import', { memories: [tombstone] }), { imported: 0, skipped: 0, forgotten: 1 });
    assert.deepEqual((await to.call('brain_recall', { query: 'web repo pnpm' })).memories.map((m: any) => m.id), [newer.memory.id]);
  });

  it('refuses a memory over the content cap or malformed, storing none of the batch', async () => {
    const b = await brainGateway({ plugins: { brain: { config: { maxContentBytes: 10 } } } });
    const memory = {
      id: randomUUID(),
      agent_id: 'x',
      type: 'fact',
      content: 'far too long for ten bytes',
      tags: [],
      org: null,
      project: null,
      confidence: 0.5,
      supersedes_id: null,
      superseded_by: null,
      expires_at: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      forgotten_at: null,
      forget_reason: null,
    };
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'short' }, memory] })).code, 'BRAIN_CONTENT_TOO_LARGE');
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'ok', created_at: 'yesterday' }] })).code, 'INVALID_ARGUMENTS');
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'ok', extra: 1 }] })).code, 'INVALID_ARGUMENTS');
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'ok', tags: ['a', 'a'] }] })).code, 'INVALID_ARGUMENTS');
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'ok', agent_id: 'x'.repeat(129) }] })).code, 'INVALID_ARGUMENTS');
    assert.equal((await b.fail('brain_import', { memories: [{ ...memory, content: 'ok', org: 'o'.repeat(129) }] })).code, 'INVALID_ARGUMENTS');
    assert.equal((await b.call('brain_list', { include_forgotten: true, include_expired: true })).count, 0);
  });

  it('keeps times in UTC with milliseconds, whatever offset the file wrote', async () => {
    const b = await brainGateway();
    const base = (await b.call('brain_remember', { content: 'Shape of a memory.', type: 'fact' })).memory;
    const imported = { ...base, id: randomUUID(), content: 'Written at five in the morning, UTC+5.', created_at: '2026-01-01T05:00:00+05:00', updated_at: '2026-01-01T05:00:00+05:00', expires_at: '2099-01-01T00:00:00Z' };
    assert.equal((await b.call('brain_import', { memories: [imported] })).imported, 1);
    const stored = (await b.call('brain_list', {})).memories.find((m: any) => m.id === imported.id);
    assert.deepEqual([stored.created_at, stored.updated_at, stored.expires_at], ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z']);
  });
});
