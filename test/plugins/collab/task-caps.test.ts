// How big a task may grow: its lists that calls add to one entry at a time — relevant files,
// constraints, dependencies, shared notes — are capped like what a single call may carry
// (issue 34, item 3: a sweep of every collab tool that stores caller text).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertTask } from './collab-rows.js';
import { collabGateway } from './collab-helpers.js';

async function lead(config: Record<string, unknown> = {}) {
  const c = await collabGateway({ plugins: { collab: { config } } });
  await c.call('collab_join', { name: 'lead' });
  return c;
}

describe('collab tasks: bounded lists', () => {
  it('the work context keeps at most 100 files and 50 constraints, whatever the calls add', async () => {
    const c = await lead();
    const files = Array.from({ length: 100 }, (_, i) => `src/f${i}.ts`);
    const constraints = Array.from({ length: 50 }, (_, i) => `rule ${i}`);
    const { task } = await c.call('collab_create_task', { title: 'Wide', relevant_files: files, constraints });
    const moreFiles = await c.fail('collab_update_work_context', { task_id: task.id, add_files: ['src/one-more.ts'] });
    assert.deepEqual([moreFiles.code, moreFiles.details], ['COLLAB_TASK_TOO_LARGE', { field: 'relevant_files', limit: 100, length: 101 }]);
    const moreRules = await c.fail('collab_update_work_context', { task_id: task.id, add_constraints: ['one more rule'] });
    assert.deepEqual([moreRules.code, moreRules.details], ['COLLAB_TASK_TOO_LARGE', { field: 'constraints', limit: 50, length: 51 }]);
    // Nothing of a refused call is kept, not even the note that came with it.
    assert.equal((await c.fail('collab_update_work_context', { task_id: task.id, add_files: ['src/x.ts'], key: 'k', value: 'v' })).code, 'COLLAB_TASK_TOO_LARGE');
    const context = await c.call('collab_get_work_context', { task_id: task.id });
    assert.deepEqual([context.relevant_files.length, context.constraints.length, context.notes], [100, 50, []]);
    // What it has already adds nothing, and passes.
    assert.equal((await c.call('collab_update_work_context', { task_id: task.id, add_files: ['src/f0.ts'], add_constraints: ['rule 0'] })).relevant_files.length, 100);
  });

  it('a task keeps tasks.maxNotesPerTask shared notes; an existing key is still replaced', async () => {
    const c = await lead({ tasks: { maxNotesPerTask: 2 } });
    const { task } = await c.call('collab_create_task', { title: 'Noted' });
    await c.call('collab_update_work_context', { task_id: task.id, key: 'a', value: '1' });
    await c.call('collab_update_work_context', { task_id: task.id, key: 'b', value: '2' });
    const refused = await c.fail('collab_update_work_context', { task_id: task.id, key: 'c', value: '3' });
    assert.deepEqual([refused.code, refused.details], ['COLLAB_TASK_TOO_LARGE', { field: 'notes', limit: 2, length: 3 }]);
    assert.match(refused.message, /plugins\.collab\.config\.tasks\.maxNotesPerTask/);
    const replaced = await c.call('collab_update_work_context', { task_id: task.id, key: 'a', value: '1 again' });
    assert.deepEqual(replaced.notes.map((n: any) => [n.key, n.value]), [['a', '1 again'], ['b', '2']]);
  });

  it('a task depends on at most 50 others, however they were added', async () => {
    const c = await lead();
    const ids: number[] = [];
    for (let n = 0; n < 51; n++) ids.push(await insertTask(c, { title: `dep ${n}`, assignee: 'any', status: 'pending' }));
    const { task } = await c.call('collab_create_task', { title: 'Waits', depends_on: ids.slice(0, 50) });
    const refused = await c.fail('collab_update_task', { id: task.id, add_dependency: ids[50] });
    assert.deepEqual([refused.code, refused.details], ['COLLAB_TASK_TOO_LARGE', { field: 'depends_on', limit: 50, length: 51 }]);
    assert.equal((await c.call('collab_get_task', { id: task.id })).task.depends_on.length, 50);
    // One it has already, or one in place of another, passes.
    assert.equal((await c.call('collab_update_task', { id: task.id, add_dependency: ids[0] })).task.depends_on.length, 50);
    const swapped = await c.call('collab_update_task', { id: task.id, remove_dependency: ids[0], add_dependency: ids[50] });
    assert.deepEqual([swapped.task.depends_on.length, swapped.task.depends_on.includes(ids[50])], [50, true]);
  });
});
