import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collabGateway } from './collab-helpers.js';

describe('collab agents: join and register', () => {
  it('join registers the agent and binds the session; joining again as another is refused', async () => {
    const c = await collabGateway();
    const joined = await c.call('collab_join', { name: 'alice', display_name: 'Alice', capabilities: ['go'] });
    assert.equal(joined.created, true);
    assert.equal(joined.session_bound, true);
    assert.equal(joined.agent.presence, 'idle');
    assert.deepEqual(joined.agent.capabilities, ['go']);
    const again = await c.call('collab_join', { name: 'alice', project: 'gateway' });
    assert.equal(again.created, false);
    assert.equal(again.agent.display_name, 'Alice');
    assert.equal(again.agent.project, 'gateway');
    assert.equal((await c.fail('collab_join', { name: 'bob' })).code, 'COLLAB_ALREADY_JOINED');
  });

  it('refuses reserved and malformed names', async () => {
    const c = await collabGateway();
    for (const name of ['all', 'any', 'system']) assert.equal((await c.fail('collab_register_agent', { name })).code, 'COLLAB_AGENT_NAME_RESERVED');
    for (const name of ['Alice', '1abc', 'a b', '', 'x'.repeat(65)]) assert.equal((await c.fail('collab_register_agent', { name })).code, 'INVALID_ARGUMENTS');
  });

  it('a joined driver registers its workers without binding to them', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'driver' });
    const worker = await c.call('collab_register_agent', { name: 'worker-1', capabilities: ['tests'] });
    assert.equal(worker.created, true);
    assert.equal(worker.agent.kind, 'agent');
  });
});
