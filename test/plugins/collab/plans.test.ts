import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeMatrix } from '../../support/test-stores.js';
import { collabGateway as bootOn } from './collab-helpers.js';

// Every case on SQLite and on PostgreSQL (skipped, with one line, where it is not installed).
for (const backend of storeMatrix()) {
  describe(`collab plans on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.close());
    const collabGateway = async (overrides: Record<string, unknown> = {}) => bootOn(overrides, await backend.fresh());

    it('creates a plan that becomes the only active one, and reads it by id or as the active plan', async () => {
      const c = await collabGateway();
      await c.call('collab_join', { name: 'driver' });
      const first = await c.call('collab_create_plan', { id: 'release-1', title: 'Release 1', goal: 'Ship it', context: 'The gateway' });
      assert.equal(first.active, true);
      assert.equal(first.created_by, 'driver');
      assert.deepEqual(first.items, []);
      assert.deepEqual(first.progress, { pending: 0, in_progress: 0, completed: 0, blocked: 0, cancelled: 0, total: 0 });
      const second = await c.call('collab_create_plan', { id: 'release-2', title: 'Release 2', goal: 'Ship more' });
      assert.equal(second.active, true);
      assert.equal((await c.call('collab_get_plan', { id: 'release-1' })).active, false);
      assert.equal((await c.call('collab_get_plan', {})).id, 'release-2');
      const parked = await c.call('collab_create_plan', { id: 'later', title: 'Later', goal: 'Maybe', set_active: false });
      assert.equal(parked.active, false);
      assert.equal((await c.call('collab_get_plan', {})).id, 'release-2');
      const activated = await c.call('collab_activate_plan', { id: 'release-1' });
      assert.equal(activated.active, true);
      const listed = await c.call('collab_list_plans', {});
      assert.equal(listed.count, 3);
      assert.equal(listed.plans[0].id, 'release-1');
      assert.deepEqual(
        listed.plans.filter((p: any) => p.active).map((p: any) => p.id),
        ['release-1'],
      );
    });

    it('adds items in order with dependencies, and counts progress per status', async () => {
      const c = await collabGateway();
      await c.call('collab_join', { name: 'driver' });
      await c.call('collab_register_agent', { name: 'worker' });
      await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G' });
      const schema = await c.call('collab_add_plan_item', { id: 'schema', title: 'Schema', owner: 'worker', acceptance: ['migrates on both engines'], reasoning: 'first' });
      assert.equal(schema.plan_id, 'p');
      assert.equal(schema.item.status, 'pending');
      assert.equal(schema.item.priority, 2);
      assert.equal(schema.item.owner, 'worker');
      await c.call('collab_add_plan_item', { plan_id: 'p', id: 'api', title: 'API', dependencies: ['schema'], priority: 1, constraints: ['no breaking change'] });
      await c.call('collab_add_plan_item', { id: 'docs', title: 'Docs', dependencies: ['schema', 'api'] });
      await c.call('collab_update_plan_item', { item_id: 'schema', status: 'completed' });
      await c.call('collab_update_plan_item', { item_id: 'api', status: 'in_progress' });
      const plan = await c.call('collab_get_plan', { id: 'p' });
      assert.deepEqual(plan.items.map((i: any) => i.id), ['schema', 'api', 'docs']);
      assert.deepEqual(plan.items[2].dependencies, ['schema', 'api']);
      assert.deepEqual(plan.progress, { pending: 1, in_progress: 1, completed: 1, blocked: 0, cancelled: 0, total: 3 });
      const listed = await c.call('collab_list_plans', {});
      assert.deepEqual(listed.plans[0].progress, plan.progress);
    });

    it('updates status, owner, blockers, notes (with author and time), reasoning, acceptance and constraints', async () => {
      const c = await collabGateway();
      await c.call('collab_join', { name: 'alice' });
      await c.call('collab_register_agent', { name: 'bob' });
      await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G' });
      await c.call('collab_add_plan_item', { id: 'a', title: 'A' });
      const updated = await c.call('collab_update_plan_item', {
        item_id: 'a',
        status: 'blocked',
        owner: 'bob',
        add_blocker: 'waiting for the schema review',
        add_note: 'asked bob',
        reasoning: 'because',
        acceptance: ['tests pass'],
        constraints: ['no new deps'],
      });
      assert.deepEqual(updated.changed.sort(), ['acceptance', 'blockers', 'constraints', 'notes', 'owner', 'reasoning', 'status']);
      assert.equal(updated.item.status, 'blocked');
      assert.deepEqual(updated.item.blockers, ['waiting for the schema review']);
      assert.equal(updated.item.notes[0].author, 'alice');
      assert.equal(updated.item.notes[0].text, 'asked bob');
      assert.match(updated.item.notes[0].at, /^\d{4}-\d\d-\d\dT/);
      const cleared = await c.call('collab_update_plan_item', { item_id: 'a', remove_blocker: 'waiting for the schema review', owner: null, status: 'in_progress' });
      assert.deepEqual(cleared.item.blockers, []);
      assert.equal(cleared.item.owner, null);
      const unchanged = await c.call('collab_update_plan_item', { item_id: 'a', status: 'in_progress', remove_blocker: 'never there' });
      assert.deepEqual(unchanged.changed, []);
    });

    it('keeps every note when agents add notes to one item at once (compare-and-set)', async () => {
      const c = await collabGateway();
      const agents = Array.from({ length: 8 }, (_, i) => `agent-${i}`);
      for (const name of agents) await c.call('collab_register_agent', { name });
      await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G', agent: 'agent-0' });
      await c.call('collab_add_plan_item', { id: 'shared', title: 'Shared', agent: 'agent-0' });
      const sessions = await Promise.all(agents.map(() => c.session()));
      await Promise.all(
        sessions.flatMap((s, i) => [0, 1, 2].map((n) => s.call('collab_update_plan_item', { item_id: 'shared', add_note: `note ${n} of ${agents[i]}`, agent: agents[i] }))),
      );
      const plan = await c.call('collab_get_plan', {});
      const notes = plan.items[0].notes.map((n: any) => n.text).sort();
      assert.equal(notes.length, 24);
      assert.deepEqual(notes, agents.flatMap((a) => [0, 1, 2].map((n) => `note ${n} of ${a}`)).sort());
    });

    it('publishes collab.plan.<change> for every change', async () => {
      const c = await collabGateway();
      const seen: string[] = [];
      c.events.subscribe('collab.plan.*', (event) => seen.push(`${event.channel} ${JSON.stringify(event.data)}`));
      await c.call('collab_join', { name: 'alice' });
      await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G' });
      await c.call('collab_add_plan_item', { id: 'a', title: 'A' });
      await c.call('collab_update_plan_item', { item_id: 'a', status: 'completed' });
      await c.call('collab_activate_plan', { id: 'p' });
      assert.deepEqual(seen, [
        'collab.plan.created {"plan_id":"p","by":"alice"}',
        'collab.plan.activated {"plan_id":"p","by":"alice"}',
        'collab.plan.item_added {"plan_id":"p","item_id":"a","status":"pending","owner":null,"by":"alice"}',
        'collab.plan.item_updated {"plan_id":"p","item_id":"a","status":"completed","owner":null,"by":"alice"}',
        'collab.plan.activated {"plan_id":"p","by":"alice"}',
      ]);
    });

    it('refuses bad input with stable codes', async () => {
      const c = await collabGateway();
      assert.equal((await c.fail('collab_get_plan', {})).code, 'COLLAB_PLAN_NOT_FOUND');
      assert.equal((await c.fail('collab_create_plan', { id: 'p', title: 'P', goal: 'G' })).code, 'COLLAB_AGENT_REQUIRED');
      await c.call('collab_join', { name: 'alice' });
      assert.equal((await c.fail('collab_add_plan_item', { id: 'a', title: 'A' })).code, 'COLLAB_PLAN_NOT_FOUND');
      await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G' });
      assert.equal((await c.fail('collab_create_plan', { id: 'p', title: 'P again', goal: 'G' })).code, 'COLLAB_PLAN_EXISTS');
      assert.equal((await c.fail('collab_get_plan', { id: 'nope' })).code, 'COLLAB_PLAN_NOT_FOUND');
      assert.equal((await c.fail('collab_activate_plan', { id: 'nope' })).code, 'COLLAB_PLAN_NOT_FOUND');
      assert.equal((await c.fail('collab_add_plan_item', { plan_id: 'nope', id: 'a', title: 'A' })).code, 'COLLAB_PLAN_NOT_FOUND');
      await c.call('collab_add_plan_item', { id: 'a', title: 'A' });
      assert.equal((await c.fail('collab_add_plan_item', { id: 'a', title: 'A again' })).code, 'COLLAB_PLAN_ITEM_EXISTS');
      assert.equal((await c.fail('collab_add_plan_item', { id: 'b', title: 'B', owner: 'ghost' })).code, 'COLLAB_AGENT_NOT_FOUND');
      const self = await c.fail('collab_add_plan_item', { id: 'b', title: 'B', dependencies: ['b'] });
      assert.equal(self.code, 'COLLAB_DEPENDENCY_INVALID');
      const missing = await c.fail('collab_add_plan_item', { id: 'b', title: 'B', dependencies: ['a', 'z'] });
      assert.equal(missing.code, 'COLLAB_DEPENDENCY_INVALID');
      assert.deepEqual(missing.details.missing, ['z']);
      assert.equal((await c.fail('collab_update_plan_item', { item_id: 'zz', status: 'completed' })).code, 'COLLAB_PLAN_ITEM_NOT_FOUND');
      assert.equal((await c.fail('collab_update_plan_item', { item_id: 'a', owner: 'ghost' })).code, 'COLLAB_AGENT_NOT_FOUND');
      assert.equal((await c.fail('collab_create_plan', { id: 'q', title: 'Q', goal: 'G', agent: 'bob' })).code, 'COLLAB_NOT_PERMITTED');
      const invalid: Array<[string, Record<string, unknown>]> = [
        ['collab_create_plan', { id: 'Bad Id', title: 'T', goal: 'G' }],
        ['collab_create_plan', { id: 'p2', title: '', goal: 'G' }],
        ['collab_create_plan', { id: 'p2', title: 'T' }],
        ['collab_create_plan', { id: 'p2', title: 'T', goal: 'G', extra: 1 }],
        ['collab_add_plan_item', { id: 'c', title: 'C', priority: 5 }],
        ['collab_add_plan_item', { id: 'c', title: 'C', acceptance: ['x'.repeat(1001)] }],
        ['collab_update_plan_item', { item_id: 'a', status: 'done' }],
        ['collab_list_plans', { limit: 0 }],
      ];
      for (const [tool, args] of invalid) assert.equal((await c.fail(tool, args)).code, 'INVALID_ARGUMENTS', `${tool} ${JSON.stringify(args)}`);
    });
  });
}
