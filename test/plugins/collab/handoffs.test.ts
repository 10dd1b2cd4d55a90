import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayEvent } from '../../../core/index.js';
import { recordNotifications, waitFor } from '../../helpers.js';
import { aliceAndBob, collabGateway } from './collab-helpers.js';

describe('collab handoffs and reviews', () => {
  it('a handoff gives the task in progress to another agent as pending, releases its locks, and sends the message', async () => {
    const { c, alice, bob } = await aliceAndBob();
    const events: GatewayEvent[] = [];
    c.events.subscribe('collab.**', (event) => void events.push(event));
    const toBob = recordNotifications(bob.client);
    const { task } = await alice.call('collab_create_task', { title: 'Parser', relevant_files: ['src/parser.ts'] });
    assert.equal((await alice.call('collab_claim_next', {})).task.id, task.id);
    await alice.call('collab_lock_file', { path: 'src/lexer.ts' });
    await alice.call('collab_lock_file', { path: 'notes.md', task_id: task.id });

    const handed = await alice.call('collab_handoff', { to: 'bob', summary: 'Lexer done.', next_steps: 'Write the parser.' });
    assert.equal(handed.task.status, 'pending');
    assert.equal(handed.task.assignee, 'bob');
    assert.deepEqual(handed.released_locks, ['notes.md', 'src/lexer.ts', 'src/parser.ts'], 'every lock alice took for the task, by claim or by hand');
    assert.equal((await alice.call('collab_list_locks', {})).count, 0);
    assert.equal((await alice.call('collab_join', { name: 'alice' })).agent.current_task_id, null);
    const handoffEvent = events.find((e) => e.channel === 'collab.task.handed_off')!;
    assert.deepEqual(handoffEvent.data, { id: task.id, title: 'Parser', status: 'pending', assignee: 'bob', priority: 3, by: 'alice', previous_status: 'in_progress', previous_assignee: 'alice' });
    const sent = events.find((e) => e.channel === 'collab.message.sent')!.data as any;
    assert.equal(sent.id, handed.message_id);
    assert.equal(sent.kind, 'handoff');
    assert.equal(sent.task_id, task.id);
    assert.equal(sent.preview, undefined, 'the event names the message; its text is for bob');
    await waitFor(() => toBob.filter((n) => n.method === 'notifications/claude/channel').length >= 2);
    assert.deepEqual(toBob.filter((n) => n.method === 'notifications/claude/channel').map((n) => n.params.channel).sort(), ['collab.message', 'collab.task']);
    const toldBob = toBob.find((n) => n.method === 'notifications/claude/channel' && n.params.channel === 'collab.message')!;
    assert.match(toldBob.params.data.preview, /Lexer done/);
    assert.equal((await bob.call('collab_get_work_context', { task_id: task.id })).notes[0].value, 'Lexer done.\n\nNext steps: Write the parser.');
  });

  it('refuses a handoff without a task, of a finished task, to a reserved or unknown agent — changing nothing', async () => {
    const { alice } = await aliceAndBob();
    assert.equal((await alice.fail('collab_handoff', { to: 'bob', summary: 's', next_steps: 'n' })).code, 'COLLAB_TASK_NOT_FOUND');
    const { task } = await alice.call('collab_create_task', { title: 'Done soon' });
    assert.equal((await alice.fail('collab_handoff', { to: 'any', summary: 's', next_steps: 'n', task_id: task.id })).code, 'COLLAB_AGENT_NAME_RESERVED');
    assert.equal((await alice.fail('collab_handoff', { to: 'nobody', summary: 's', next_steps: 'n', task_id: task.id })).code, 'COLLAB_AGENT_NOT_FOUND');
    assert.equal((await alice.fail('collab_handoff', { to: 'bob', summary: 's', next_steps: 'n', task_id: 999 })).code, 'COLLAB_TASK_NOT_FOUND');
    assert.equal((await alice.call('collab_get_task', { id: task.id })).task.assignee, 'any');
    await alice.call('collab_update_task', { id: task.id, status: 'cancelled' });
    const finished = await alice.fail('collab_handoff', { to: 'bob', summary: 's', next_steps: 'n', task_id: task.id });
    assert.equal(finished.code, 'COLLAB_TRANSITION_INVALID');
    assert.equal(finished.details.from, 'cancelled');
  });

  it('a handoff whose message is too large moves nothing (one transaction)', async () => {
    const c = await collabGateway({ plugins: { collab: { config: { messages: { maxBodyChars: 100 } } } } });
    await c.call('collab_join', { name: 'alice' });
    await c.call('collab_register_agent', { name: 'bob' });
    const { task } = await c.call('collab_create_task', { title: 'Big' });
    await c.call('collab_claim_next', {});
    assert.equal((await c.fail('collab_handoff', { to: 'bob', summary: 'x'.repeat(200), next_steps: 'n' })).code, 'COLLAB_MESSAGE_TOO_LARGE');
    const after = (await c.call('collab_get_task', { id: task.id })).task;
    assert.equal(after.status, 'in_progress');
    assert.equal(after.assignee, 'alice');
  });

  it('a review request creates a review task (priority 2) for the reviewer, with the files, and a review message', async () => {
    const { c, alice, bob } = await aliceAndBob();
    const events: GatewayEvent[] = [];
    c.events.subscribe('collab.**', (event) => void events.push(event));
    const review = await alice.call('collab_request_review', { to: 'bob', description: 'The lock purge\nCheck it runs first.', files: ['src/locks.ts'] });
    assert.equal(review.task.kind, 'review');
    assert.equal(review.task.priority, 2);
    assert.equal(review.task.assignee, 'bob');
    assert.equal(review.task.title, 'Review: The lock purge');
    assert.deepEqual(review.task.relevant_files, ['src/locks.ts']);
    assert.deepEqual(
      events.map((e) => e.channel),
      ['collab.message.sent', 'collab.task.review_requested'],
    );
    assert.equal((events[0]!.data as any).kind, 'review');
    assert.equal((events[0]!.data as any).id, review.message_id);
    assert.equal((await bob.call('collab_list_tasks', { kind: 'review' })).count, 1);
    assert.equal((await alice.fail('collab_request_review', { to: 'nobody', description: 'x' })).code, 'COLLAB_AGENT_NOT_FOUND');
    assert.equal((await alice.fail('collab_request_review', { to: 'bob', description: 'x', files: ['../x'] })).code, 'OUTSIDE_WORKSPACE');
  });
});
