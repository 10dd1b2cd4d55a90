import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '../../helpers.js';
import { collabGateway } from './collab-helpers.js';
import { insertMessage, insertTask } from './collab-rows.js';

const text = (result: { contents: unknown[] }) => (result.contents[0] as { text: string }).text;

describe('collab resources', () => {
  it('serves each plan as Markdown, listed in resources/list and by the template, with completions', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    await c.call('collab_register_agent', { name: 'worker' });
    await c.call('collab_create_plan', { id: 'release', title: 'Release 1', goal: 'Ship the gateway', context: 'Node 20, SQLite and PostgreSQL.' });
    await c.call('collab_add_plan_item', { id: 'schema', title: 'Schema', owner: 'worker', priority: 1, acceptance: ['migrates on both engines'], constraints: ['append-only'] });
    await c.call('collab_add_plan_item', { id: 'docs', title: 'Docs', dependencies: ['schema'] });
    await c.call('collab_update_plan_item', { item_id: 'schema', status: 'in_progress', add_blocker: 'review pending', add_note: 'started\nsecond line' });
    await insertTask(c, { title: 'Write the migration', assignee: 'worker', created_by: 'driver', plan_id: 'release', plan_item_id: 'schema' });

    const { resources } = await c.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'collab://plans/release' && r.mimeType === 'text/markdown' && r.title === 'Plan: Release 1'));
    const { resourceTemplates } = await c.client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.filter((t) => t.uriTemplate.startsWith('collab://')).map((t) => t.uriTemplate).sort(),
      ['collab://agents/{name}/instructions', 'collab://plans/{id}'],
    );

    const markdown = text(await c.client.readResource({ uri: 'collab://plans/release' }));
    assert.match(markdown, /^# Release 1\n/);
    assert.match(markdown, /Plan `release` \(active\), by driver/);
    assert.match(markdown, /\*\*Goal:\*\* Ship the gateway/);
    assert.match(markdown, /## Context\n\nNode 20, SQLite and PostgreSQL\./);
    assert.match(markdown, /0\/2 completed · 1 in progress · 0 blocked · 1 pending · 0 cancelled/);
    assert.ok(markdown.indexOf('## In progress (1)') < markdown.indexOf('## Pending (1)'));
    assert.match(markdown, /### Schema \(`schema`\)\n\nOwner: worker · priority 1/);
    assert.match(markdown, /Acceptance:\n\n- migrates on both engines/);
    assert.match(markdown, /Constraints:\n\n- append-only/);
    assert.match(markdown, /Blockers:\n\n- review pending/);
    assert.match(markdown, /Z driver: started\n {2}second line/);
    assert.match(markdown, /- #1 Write the migration \(in_progress, worker\)/);
    assert.match(markdown, /### Docs \(`docs`\)\n\nOwner: none · priority 2\n\nDepends on: `schema`/);

    const completion = await c.client.complete({ ref: { type: 'ref/resource', uri: 'collab://plans/{id}' }, argument: { name: 'id', value: 're' } });
    assert.deepEqual(completion.completion.values, ['release']);
    const names = await c.client.complete({ ref: { type: 'ref/resource', uri: 'collab://agents/{name}/instructions' }, argument: { name: 'name', value: 'w' } });
    assert.deepEqual(names.completion.values, ['worker']);
    await assert.rejects(c.client.readResource({ uri: 'collab://plans/nope' }), (err: any) => err.data?.code === 'COLLAB_PLAN_NOT_FOUND');
    await assert.rejects(c.client.readResource({ uri: 'collab://plans/Bad%20Id' }), (err: any) => err.data?.code === 'RESOURCE_VARIABLES_INVALID');
  });

  it('lists a new plan at once and tells subscribers of a plan when it changes', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    await c.call('collab_create_plan', { id: 'p', title: 'P', goal: 'G' });
    const watcher = await c.session('watcher');
    const updated: string[] = [];
    let listChanged = 0;
    watcher.client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    watcher.client.setNotificationHandler('notifications/resources/list_changed', () => void (listChanged += 1));
    await watcher.client.subscribeResource({ uri: 'collab://plans/p' });
    await c.call('collab_add_plan_item', { id: 'a', title: 'A' });
    await waitFor(() => updated.length === 1);
    await c.call('collab_update_plan_item', { item_id: 'a', add_note: 'hello' });
    await waitFor(() => updated.length === 2);
    assert.deepEqual(updated, ['collab://plans/p', 'collab://plans/p']);
    await c.call('collab_create_plan', { id: 'q', title: 'Q', goal: 'G' });
    await waitFor(() => listChanged > 0);
    const { resources } = await watcher.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'collab://plans/q'));
    // Creating q deactivated p: its subscribers hear of that too.
    await waitFor(() => updated.length === 3);
  });

  it("gives an agent its instructions: who it is, the protocol, its tasks, unread messages, the active plan", async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    await c.call('collab_register_agent', { name: 'worker', display_name: 'Worker One', capabilities: ['tests', 'docs'] });
    await c.call('collab_create_plan', { id: 'release', title: 'Release 1', goal: 'Ship it' });
    await c.call('collab_add_plan_item', { id: 'tests', title: 'More tests', owner: 'worker' });
    await insertTask(c, { title: 'Fix the flaky test', assignee: 'worker', created_by: 'driver', priority: 1, progress_percent: 40 });
    await insertTask(c, { title: 'Anyone may take this', assignee: 'any', created_by: 'driver', status: 'pending', started_at: null });
    await insertMessage(c, 'driver', 'worker', 'Please look at the flaky test.');

    const markdown = text(await c.client.readResource({ uri: 'collab://agents/worker/instructions' }));
    assert.match(markdown, /^# Instructions for worker\n/);
    assert.match(markdown, /You are \*\*worker\*\* \(Worker One\)/);
    assert.match(markdown, /capabilities: tests, docs/);
    for (const tool of ['collab_join', 'collab_claim_next', 'collab_lock_file', 'collab_report_progress', 'collab_update_task', 'collab_handoff']) assert.ok(markdown.includes(tool), tool);
    assert.match(markdown, /- #1 Fix the flaky test \(in_progress, priority 1, 40%\)/);
    assert.match(markdown, /1 pending task open to anyone/);
    assert.match(markdown, /1 unread message: read them first/);
    assert.match(markdown, /\*\*Release 1\*\* \(`release`\): Ship it/);
    assert.match(markdown, /- `tests` More tests \(pending\)/);

    const driver = text(await c.client.readResource({ uri: 'collab://agents/driver/instructions' }));
    assert.match(driver, /None assigned to you by name\./);
    assert.match(driver, /No unread messages\./);
    await assert.rejects(c.client.readResource({ uri: 'collab://agents/ghost/instructions' }), (err: any) => err.data?.code === 'COLLAB_AGENT_NOT_FOUND');
  });

  it("tells an agent's instruction subscribers when a message reaches it", async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'worker' });
    const updated: string[] = [];
    c.client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await c.client.subscribeResource({ uri: 'collab://agents/worker/instructions' });
    c.events.publish('collab', 'collab.message.sent', { id: 1, from: 'driver', to: 'worker', subject: null, kind: 'message', thread_id: 1, task_id: null, preview: 'hi' });
    await waitFor(() => updated.length === 1);
    assert.deepEqual(updated, ['collab://agents/worker/instructions']);
  });

  it('serves the workflow guide and a quick reference naming every collab tool', async () => {
    const c = await collabGateway();
    const workflow = text(await c.client.readResource({ uri: 'collab://guides/workflow' }));
    assert.match(workflow, /## The driver/);
    assert.match(workflow, /## A worker/);
    const reference = text(await c.client.readResource({ uri: 'collab://guides/quick-reference' }));
    const tools = c.tools().filter((t) => t.plugin === 'collab').map((t) => t.name);
    assert.ok(tools.length >= 8);
    for (const tool of tools) assert.match(reference, new RegExp(`\\| \`${tool}\` \\| [A-Z]`), tool);
    assert.match(reference, /\| `collab_create_plan` \| Creates a plan for a goal; add its items with collab_add_plan_item\. \|/);
  });
});
