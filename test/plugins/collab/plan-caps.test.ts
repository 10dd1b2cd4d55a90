// How big a plan may grow and how it is read: items per plan, notes and blockers per item, and
// items a page at a time (issue 34, item 3: a caller built a 2,500-item plan, 275 MB, and one
// collab_get_plan stalled the gateway for 7 s at 2.26 GiB).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collabDb, insertPlanItems } from './collab-rows.js';
import { collabGateway } from './collab-helpers.js';

const text = (result: { contents: unknown[] }) => (result.contents[0] as { text: string }).text;

async function planner(config: Record<string, unknown> = {}) {
  const c = await collabGateway({ plugins: { collab: { config } } });
  await c.call('collab_join', { name: 'lead' });
  return c;
}

describe('collab plans: bounded', () => {
  it('refuses the item past plans.maxItems (200 by default), and collab_get_plan answers 50 items a page', async () => {
    const c = await planner();
    await c.call('collab_create_plan', { id: 'big', title: 'Big', goal: 'Everything' });
    await insertPlanItems(c, 'big', 200);
    const refused = await c.fail('collab_add_plan_item', { plan_id: 'big', id: 'one-more', title: 'One more' });
    assert.equal(refused.code, 'COLLAB_PLAN_TOO_LARGE');
    assert.deepEqual(refused.details, { field: 'items', limit: 200, length: 201 });
    assert.match(refused.message, /plugins\.collab\.config\.plans\.maxItems/);

    const page = await c.call('collab_get_plan', { id: 'big' });
    assert.equal(page.items.length, 50);
    assert.deepEqual([page.items[0].id, page.items[49].id, page.next_offset, page.progress.total, page.progress.pending], ['item-1', 'item-50', 50, 200, 200]);
    const last = await c.call('collab_get_plan', { id: 'big', offset: 150, limit: 200 });
    assert.deepEqual([last.items.length, last.items[49].id, last.next_offset], [50, 'item-200', null]);
    // Within the default cap the Markdown view is whole.
    const markdown = text(await c.client.readResource({ uri: 'collab://plans/big' }));
    assert.match(markdown, /### Item 200 \(`item-200`\)/);
    assert.doesNotMatch(markdown, /Showing the first/);
  });

  it('maxItems holds for adds at the same moment', async () => {
    const c = await planner({ plans: { maxItems: 3 } });
    await c.call('collab_create_plan', { id: 'small', title: 'Small', goal: 'A little' });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => c.client.callTool({ name: 'collab_add_plan_item', arguments: { plan_id: 'small', id: `i${n}`, title: `I${n}` } })),
    );
    const codes = answers.map((a) => (a.isError ? JSON.parse((a.content as Array<{ text: string }>)[0]!.text).code : 'ok'));
    assert.deepEqual(codes.filter((code) => code === 'ok').length, 3);
    assert.deepEqual(codes.filter((code) => code !== 'ok'), ['COLLAB_PLAN_TOO_LARGE', 'COLLAB_PLAN_TOO_LARGE', 'COLLAB_PLAN_TOO_LARGE']);
    assert.equal((await c.call('collab_get_plan', { id: 'small' })).progress.total, 3);
  });

  it('pages through the items with offset and limit, in the order they were added', async () => {
    const c = await planner();
    await c.call('collab_create_plan', { id: 'paged', title: 'Paged', goal: 'Pages' });
    for (let n = 1; n <= 7; n++) await c.call('collab_add_plan_item', { plan_id: 'paged', id: `i${n}`, title: `I${n}` });
    const pages: string[][] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: any = await c.call('collab_get_plan', { id: 'paged', offset, limit: 3 });
      assert.equal(page.progress.total, 7, 'progress counts every item, whatever the page');
      pages.push(page.items.map((item: any) => item.id));
      offset = page.next_offset;
    }
    assert.deepEqual(pages, [['i1', 'i2', 'i3'], ['i4', 'i5', 'i6'], ['i7']]);
    const past = await c.call('collab_get_plan', { id: 'paged', offset: 10 });
    assert.deepEqual([past.items, past.next_offset], [[], null]);
    assert.equal((await c.fail('collab_get_plan', { id: 'paged', limit: 201 })).code, 'INVALID_ARGUMENTS');
  });

  it('the Markdown view of a plan past 200 items shows the first 200 and says where the rest is', async () => {
    const c = await planner({ plans: { maxItems: 300 } });
    await c.call('collab_create_plan', { id: 'huge', title: 'Huge', goal: 'More' });
    await insertPlanItems(c, 'huge', 205);
    const { task } = await c.call('collab_create_task', { title: 'Linked to a late item', plan_id: 'huge', plan_item_id: 'item-203' });
    const markdown = text(await c.client.readResource({ uri: 'collab://plans/huge' }));
    assert.match(markdown, /Showing the first 200 of 205 items; collab_get_plan with offset 200 reads the rest\./);
    assert.match(markdown, /`item-200`/);
    assert.doesNotMatch(markdown, /`item-201`/);
    assert.doesNotMatch(markdown, new RegExp(`#${task.id} Linked`), "a task of an item past the page is not one of the plan's loose tasks");
  });

  it('an item keeps its newest plans.maxNotesPerItem notes, and at most 50 blockers', async () => {
    const c = await planner({ plans: { maxNotesPerItem: 3 } });
    await c.call('collab_create_plan', { id: 'notes', title: 'Notes', goal: 'Notes' });
    await c.call('collab_add_plan_item', { id: 'item', title: 'Item' });
    for (let n = 1; n <= 5; n++) await c.call('collab_update_plan_item', { item_id: 'item', add_note: `note ${n}` });
    const item = (await c.call('collab_get_plan', {})).items[0];
    assert.deepEqual(item.notes.map((note: any) => note.text), ['note 3', 'note 4', 'note 5']);

    const fifty = Array.from({ length: 50 }, (_, i) => `blocker ${i + 1}`);
    await collabDb(c).updateTable('collab_plan_items').set({ blockers: JSON.stringify(fifty) }).where('plan_id', '=', 'notes').execute();
    const refused = await c.fail('collab_update_plan_item', { item_id: 'item', add_blocker: 'one more' });
    assert.deepEqual([refused.code, refused.details], ['COLLAB_PLAN_TOO_LARGE', { field: 'blockers', limit: 50, length: 51 }]);
    assert.deepEqual((await c.call('collab_update_plan_item', { item_id: 'item', add_blocker: 'blocker 1' })).changed, [], 'one it has already is no new blocker');
    await c.call('collab_update_plan_item', { item_id: 'item', remove_blocker: 'blocker 1' });
    assert.deepEqual((await c.call('collab_update_plan_item', { item_id: 'item', add_blocker: 'one more' })).changed, ['blockers']);
  });

  it("an agent's instructions list its first 20 open items of the active plan, never the whole plan", async () => {
    const c = await planner();
    await c.call('collab_create_plan', { id: 'mine', title: 'Mine', goal: 'Lots' });
    await insertPlanItems(c, 'mine', 30);
    await collabDb(c).updateTable('collab_plan_items').set({ owner: 'lead' }).where('plan_id', '=', 'mine').execute();
    const markdown = text(await c.client.readResource({ uri: 'collab://agents/lead/instructions' }));
    assert.match(markdown, /0\/30 items completed/);
    assert.match(markdown, /- `item-20` Item 20 \(pending\)/);
    assert.doesNotMatch(markdown, /`item-21`/);
    assert.match(markdown, /- … more: collab_get_plan pages through all of them\./);
  });
});
