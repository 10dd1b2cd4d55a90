import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collabGateway } from './collab-helpers.js';

describe('collab session notes', () => {
  it('appends notes by category and lists them newest first, filtered and paged', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    const bob = await c.session('bob');
    await bob.call('collab_join', { name: 'bob' });
    const events: any[] = [];
    c.events.subscribe('collab.note.appended', (event) => events.push(event.data));

    const first = await c.call('collab_append_note', { content: 'The parser keeps its v1 errors.', category: 'decision' });
    assert.deepEqual({ ...first, id: 0, created_at: '' }, { id: 0, author: 'alice', category: 'decision', content: 'The parser keeps its v1 errors.', created_at: '' });
    assert.equal((await bob.call('collab_append_note', { content: 'Who owns the lexer?' })).category, 'note');
    await bob.call('collab_append_note', { content: 'CI is red on main.', category: 'blocker' });
    for (let i = 1; i <= 4; i++) await c.call('collab_append_note', { content: `question ${i}`, category: 'question' });
    assert.deepEqual(events[0], { id: first.id, author: 'alice', category: 'decision' });

    const all = await bob.call('collab_list_notes', {});
    assert.equal(all.count, 7);
    assert.equal(all.notes[0].content, 'question 4');
    assert.deepEqual((await bob.call('collab_list_notes', { author: 'bob' })).notes.map((n: any) => n.content), ['CI is red on main.', 'Who owns the lexer?']);
    assert.deepEqual((await bob.call('collab_list_notes', { category: 'decision' })).notes.map((n: any) => n.id), [first.id]);
    const page = await bob.call('collab_list_notes', { category: 'question', limit: 3 });
    assert.deepEqual(page.notes.map((n: any) => n.content), ['question 4', 'question 3', 'question 2']);
    const rest = await bob.call('collab_list_notes', { category: 'question', limit: 3, before_id: page.next_before_id });
    assert.deepEqual([rest.notes.map((n: any) => n.content), rest.next_before_id], [['question 1'], null]);
  });

  it('refuses a note too long, of an unknown category, or by nobody', async () => {
    const c = await collabGateway();
    assert.equal((await c.fail('collab_append_note', { content: 'x' })).code, 'COLLAB_AGENT_REQUIRED');
    await c.call('collab_join', { name: 'alice' });
    assert.equal((await c.fail('collab_append_note', { content: 'x'.repeat(10_001) })).code, 'INVALID_ARGUMENTS');
    assert.equal((await c.fail('collab_append_note', { content: 'x', category: 'rant' })).code, 'INVALID_ARGUMENTS');
    assert.equal((await c.fail('collab_append_note', { content: 'x', agent: 'bob' })).code, 'COLLAB_NOT_PERMITTED');
    assert.equal((await c.call('collab_append_note', { content: 'x'.repeat(10_000) })).content.length, 10_000);
  });
});
