import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collabGateway } from './collab-helpers.js';
import { insertMessage } from './collab-rows.js';

const texts = (result: { messages: Array<{ content: unknown }> }) => result.messages.map((m) => (m.content as { text: string }).text);

describe('collab prompts', () => {
  it('lists the three prompts with their arguments', async () => {
    const c = await collabGateway();
    const { prompts } = await c.client.listPrompts();
    const collab = Object.fromEntries(prompts.filter((p) => p.name.startsWith('collab_')).map((p) => [p.name, p.arguments?.map((a) => `${a.name}${a.required ? '*' : ''}`)]));
    assert.deepEqual(collab, {
      collab_pair: ['partner*', 'agent'],
      collab_code_review: ['files*', 'focus', 'reviewer'],
      collab_plan_feature: ['feature*', 'constraints', 'plan_id'],
    });
  });

  it('collab_pair quotes the unread messages from the partner, for the joined agent', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    await c.call('collab_register_agent', { name: 'bob' });
    await c.call('collab_register_agent', { name: 'carol' });
    await c.call('collab_register_agent', { name: 'driver' });
    const id = await insertMessage(c, 'bob', 'alice', 'Can you check the parser?', 'parser');
    await insertMessage(c, 'carol', 'alice', 'Not from the partner.');
    const [steps, quoted] = texts(await c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'bob' } }));
    assert.match(steps!, /pairing with bob through the collab tools, as alice/);
    assert.match(steps!, /collab_read_messages/);
    assert.match(steps!, /collab_send_message \(to: "bob", reply_to/);
    assert.match(quoted!, new RegExp(`^Unread from bob \\(not yet marked read\\):\\n\\n#${id} \\(parser\\), .+:\\nCan you check the parser\\?$`));
    assert.doesNotMatch(quoted!, /Not from the partner/);

    const fromCarol = texts(await c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'carol', agent: 'alice' } }));
    assert.match(fromCarol[1]!, /^Unread from carol[^]*\nNot from the partner\.$/);
    const none = texts(await c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'driver' } }));
    assert.equal(none[1], 'No unread messages from driver right now.');
    const other = await c.session('other');
    const generic = texts(await other.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'bob' } }));
    assert.equal(generic.length, 1);
    await assert.rejects(c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'bob', agent: 'bob' } }), (err: any) => err.data?.code === 'COLLAB_NOT_PERMITTED');
    await assert.rejects(c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'zed' } }), (err: any) => err.data?.code === 'COLLAB_AGENT_NOT_FOUND');
    await assert.rejects(c.client.getPrompt({ name: 'collab_pair', arguments: {} }), (err: any) => err.data?.code === 'PROMPT_ARGUMENTS_INVALID');
    await assert.rejects(c.client.getPrompt({ name: 'collab_pair', arguments: { partner: 'Not A Name' } }), (err: any) => err.data?.code === 'PROMPT_ARGUMENTS_INVALID');

    const completion = await c.client.complete({ ref: { type: 'ref/prompt', name: 'collab_pair' }, argument: { name: 'partner', value: 'b' } });
    assert.deepEqual(completion.completion.values, ['bob']);
  });

  it('collab_code_review asks a reviewer, or reviews', async () => {
    const c = await collabGateway();
    const [asked] = texts(await c.client.getPrompt({ name: 'collab_code_review', arguments: { files: 'core/a.ts, core/b.ts\nplugins/c.ts', focus: 'error handling', reviewer: 'bob' } }));
    assert.match(asked!, /^Ask bob to review these files:\n- core\/a\.ts\n- core\/b\.ts\n- plugins\/c\.ts\n\nFocus: error handling\./);
    assert.match(asked!, /collab_request_review with to: "bob", files: \["core\/a\.ts","core\/b\.ts","plugins\/c\.ts"\]/);
    const [self] = texts(await c.client.getPrompt({ name: 'collab_code_review', arguments: { files: 'core/a.ts' } }));
    assert.match(self!, /^Review these files:\n- core\/a\.ts\n\nLook at correctness first/);
    assert.match(self!, /collab_update_task, status completed/);
  });

  it('collab_plan_feature lays out plan, items and tasks, and names the agents here', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    await c.call('collab_register_agent', { name: 'tester', capabilities: ['tests'] });
    const [fresh] = texts(await c.client.getPrompt({ name: 'collab_plan_feature', arguments: { feature: 'Export plans as JSON', constraints: 'No new dependency', plan_id: 'export' } }));
    assert.match(fresh!, /^Plan this feature:\n\nExport plans as JSON\n\nConstraints:\nNo new dependency\n/);
    assert.match(fresh!, /1\. collab_create_plan with id "export"/);
    assert.match(fresh!, /collab_add_plan_item/);
    assert.match(fresh!, /collab_create_task with plan_id and plan_item_id/);
    assert.match(fresh!, /depends_on/);
    assert.match(fresh!, /Agents here:\n- driver \(idle\)\n- tester: tests \(idle\)/);
    await c.call('collab_create_plan', { id: 'export', title: 'Export', goal: 'JSON' });
    const [existing] = texts(await c.client.getPrompt({ name: 'collab_plan_feature', arguments: { feature: 'More export', plan_id: 'export' } }));
    assert.match(existing!, /1\. The plan `export` exists: read it \(collab_get_plan\) and add to it\./);
    const completion = await c.client.complete({ ref: { type: 'ref/prompt', name: 'collab_plan_feature' }, argument: { name: 'plan_id', value: 'ex' } });
    assert.deepEqual(completion.completion.values, ['export']);
  });
});
