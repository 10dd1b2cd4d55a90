import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { recordNotifications, tempDir } from '../../helpers.js';
import { storeMatrix } from '../../support/test-stores.js';
import { collabGateway as bootOn, type CollabGateway } from './collab-helpers.js';
import { ago, insertLock, insertTask, lastSeen, MINUTE } from './collab-rows.js';

// Staleness is made by writing old times into the rows; the watchdog sweeps every second.
const WATCHDOG = { plugins: { collab: { config: { watchdog: { intervalSeconds: 1, stuckAfterSeconds: 600 }, presence: { staleSeconds: 60 } } } } };

/** The watchdog's part of the collab status (gateway_status, /health). */
const watchdogStatus = (gateway: CollabGateway) => (collabStatus(gateway).detail as any).watchdog;

/** What collab reports of its own state in gateway_status. */
const collabStatus = (gateway: CollabGateway) => gateway.status().plugins.find((p) => p.name === 'collab')!.status!;

/** Polls an async condition (a query) until it holds. */
async function eventually(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits for `sweeps` more sweeps of the gateway's watchdog. */
async function sweeps(gateway: CollabGateway, sweeps = 2): Promise<void> {
  const target = watchdogStatus(gateway).sweeps + sweeps;
  await eventually(async () => watchdogStatus(gateway).sweeps >= target);
}

const alerts = (gateway: CollabGateway) => gateway.store('collab').db.selectFrom('collab_messages').select(['to_agent', 'from_agent', 'kind', 'task_id', 'subject', 'body']).where('kind', '=', 'alert').orderBy('id').execute();

for (const backend of storeMatrix()) {
  describe(`collab watchdog on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.close());

    it('marks silent agents offline and releases their locks; deletes expired locks; reports what it found', async () => {
      const c = await bootOn(WATCHDOG, await backend.fresh());
      const events: string[] = [];
      c.events.subscribe('collab.**', (event) => {
        if (event.channel.startsWith('collab.agent.offline') || event.channel.startsWith('collab.lock.')) events.push(`${event.channel} ${JSON.stringify(event.data)}`);
      });
      await c.call('collab_join', { name: 'alice' });
      await c.call('collab_register_agent', { name: 'bob' });
      await lastSeen(c, 'bob', 10 * MINUTE);
      await insertLock(c, { path: 'src/held-by-bob.ts', agent: 'bob', expiresInMs: 30 * MINUTE });
      await insertLock(c, { path: 'src/expired.ts', agent: 'alice', expiresInMs: -MINUTE });
      await insertLock(c, { path: 'src/kept.ts', agent: 'alice', expiresInMs: 30 * MINUTE });

      await eventually(async () => events.length === 3);
      assert.deepEqual(events.map((e) => e.replace(/"last_seen_at":"[^"]+"/, '"last_seen_at":"…"').replace(/"expires_at":"[^"]+"/, '"expires_at":"…"')).sort(), [
        'collab.agent.offline {"name":"bob","last_seen_at":"…","locks_released":1}',
        'collab.lock.expired {"path":"src/expired.ts","agent":"alice","task_id":null,"expires_at":"…"}',
        'collab.lock.released {"path":"src/held-by-bob.ts","agent":"bob","task_id":null,"reason":"offline","by":"system"}',
      ]);
      const agents = await c.store('collab').db.selectFrom('collab_agents').select(['name', 'presence']).orderBy('name').execute();
      assert.deepEqual(agents, [{ name: 'alice', presence: 'idle' }, { name: 'bob', presence: 'offline' }]);
      const locks = await c.store('collab').db.selectFrom('collab_locks').select('path').execute();
      assert.deepEqual(locks, [{ path: 'src/kept.ts' }]);

      await sweeps(c);
      assert.equal(events.length, 3, 'each finding once');
      const status = watchdogStatus(c);
      assert.deepEqual(status.found, { agents_offline: 1, locks_released: 1, locks_expired: 1, tasks_stuck: 0 });
      assert.equal(status.interval_seconds, 1);
      assert.equal(status.last_error, null);
      assert.match(status.last_sweep_at, /^\d{4}-/);
      assert.equal(collabStatus(c).ok, true);
    });

    it('flags a task past its expected duration or without progress once, alerting its creator and assignee', async () => {
      const c = await bootOn(WATCHDOG, await backend.fresh());
      await c.call('collab_join', { name: 'driver' });
      const worker = await c.session('worker');
      const heard = recordNotifications(worker.client);
      await worker.call('collab_join', { name: 'worker' });
      const stuckEvents: any[] = [];
      c.events.subscribe('collab.task.stuck', (event) => stuckEvents.push(event.data));

      const overdue = await insertTask(c, { title: 'Overdue', assignee: 'worker', created_by: 'driver', expected_duration_s: 60, started_at: ago(5 * MINUTE), last_progress_at: ago(MINUTE) });
      const silent = await insertTask(c, { title: 'Silent', assignee: 'worker', created_by: 'driver', started_at: ago(20 * MINUTE) });
      await insertTask(c, { title: 'Fresh', assignee: 'worker', created_by: 'driver', expected_duration_s: 3600 });
      await insertTask(c, { title: 'Reporting', assignee: 'worker', created_by: 'driver', started_at: ago(20 * MINUTE), last_progress_at: ago(MINUTE) });
      await insertTask(c, { title: 'Pending', assignee: 'worker', created_by: 'driver', status: 'pending', started_at: null });
      const own = await insertTask(c, { title: 'Own', assignee: 'driver', created_by: 'driver', started_at: ago(20 * MINUTE) });

      await eventually(async () => stuckEvents.length === 3);
      assert.deepEqual(stuckEvents.map((e) => e.id).sort(), [overdue, silent, own].sort());
      assert.deepEqual(stuckEvents.find((e) => e.id === overdue), { id: overdue, title: 'Overdue', status: 'in_progress', assignee: 'worker', priority: 2, by: 'system' });
      const flagged = await c.store('collab').db.selectFrom('collab_tasks').select(['id', 'stuck_at', 'version']).where('stuck_at', 'is not', null).orderBy('id').execute();
      assert.deepEqual(flagged.map((t) => [t.id, t.version]), [[overdue, 2], [silent, 2], [own, 2]]);

      await sweeps(c);
      assert.equal(stuckEvents.length, 3, 'each task flagged once');
      const sent = await alerts(c);
      assert.equal(sent.length, 5, 'creator and assignee of the two, and the one whose creator is its assignee once');
      assert.ok(sent.every((m) => m.from_agent === 'system' && m.kind === 'alert'));
      const about = (task: number, to: string) => sent.filter((m) => m.task_id === task && m.to_agent === to);
      assert.match(about(overdue, 'driver')[0]!.body, /^Task #\d+ "Overdue" \(assignee worker\) looks stuck: in progress for 5 min, expected 1 min\./);
      assert.match(about(overdue, 'worker')[0]!.body, /^Your task #\d+ "Overdue" looks stuck: in progress for 5 min, expected 1 min\./);
      assert.match(about(silent, 'worker')[0]!.body, /looks stuck: no progress reported for 20 min\./);
      assert.equal(about(own, 'driver').length, 1);
      assert.equal(about(silent, 'driver')[0]!.subject, `Task #${silent} looks stuck`);

      // The worker's session hears of its stuck tasks (channel) and of the alerts sent to it.
      const channels = heard.filter((n) => n.method === 'notifications/claude/channel');
      assert.equal(channels.filter((n) => n.params.channel === 'collab.task' && n.params.data.change === 'stuck').length, 2);
      assert.equal(channels.filter((n) => n.params.channel === 'collab.message' && n.params.data.kind === 'alert').length, 2);
      assert.equal(watchdogStatus(c).found.tasks_stuck, 3);
    });
  });
}

// Several gateways on one PostgreSQL store sweep the same rows: each finding is made once.
for (const backend of storeMatrix().filter((b) => b.name === 'postgres')) {
  describe('collab watchdog, two gateways on one PostgreSQL store', { skip: backend.skip }, () => {
    after(() => backend.close());

    it('flags each stuck task once (one alert each) and takes an agent offline once', async () => {
      const store = await backend.fresh();
      const a = await bootOn(WATCHDOG, store);
      const b = await bootOn(WATCHDOG, { storage: store.storage, dataDir: join(tempDir(), 'data') });
      await a.call('collab_register_agent', { name: 'driver' });
      await a.call('collab_register_agent', { name: 'ghost' });
      await lastSeen(a, 'ghost', 10 * MINUTE);
      for (let i = 0; i < 4; i += 1) await insertTask(a, { title: `Stuck ${i}`, assignee: 'any', created_by: 'driver', started_at: ago(30 * MINUTE) });

      await eventually(async () => (await alerts(a)).length === 4);
      await sweeps(a);
      await sweeps(b);
      const sent = await alerts(a);
      assert.equal(sent.length, 4, 'one alert per stuck task, whichever gateway flagged it');
      assert.deepEqual(new Set(sent.map((m) => m.task_id)).size, 4);
      const stuckA = watchdogStatus(a).found.tasks_stuck;
      const stuckB = watchdogStatus(b).found.tasks_stuck;
      assert.equal(stuckA + stuckB, 4);
      assert.equal(watchdogStatus(a).found.agents_offline + watchdogStatus(b).found.agents_offline, 1);
      const ghost = await a.store('collab').db.selectFrom('collab_agents').select('presence').where('name', '=', 'ghost').executeTakeFirstOrThrow();
      assert.equal(ghost.presence, 'offline');
    });
  });
}
