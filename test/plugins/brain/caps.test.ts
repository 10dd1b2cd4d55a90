// Issue 34, item 3: every field the brain stores from a caller is bounded. The content by
// maxContentBytes (BRAIN_CONTENT_TOO_LARGE with {field, limit, length}), tags, org, project and
// reasons by the schemas, and the agent id, which comes from the caller's identity (an MCP
// client names itself, with a name of any length), by the schemas' 128 characters.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { brainGateway } from './brain-helpers.js';

describe('brain: caps on stored caller text', () => {
  it('refuses content over maxContentBytes with field, limit and length (bytes), for remember and import', async () => {
    const b = await brainGateway({ plugins: { brain: { config: { maxContentBytes: 100 } } } });
    const big = await b.fail('brain_remember', { content: 'é'.repeat(51), type: 'fact' });
    assert.equal(big.code, 'BRAIN_CONTENT_TOO_LARGE');
    assert.deepEqual(big.details, { field: 'content', limit: 100, length: 102 });
    const memory = { ...(await b.call('brain_remember', { content: 'small', type: 'fact' })).memory, id: randomUUID(), content: 'x'.repeat(101) };
    const imported = await b.fail('brain_import', { memories: [memory] });
    assert.equal(imported.code, 'BRAIN_CONTENT_TOO_LARGE');
    assert.deepEqual(imported.details, { field: 'memories[0].content', limit: 100, length: 101 });
  });

  const schemaCaps: Array<[string, Record<string, unknown>]> = [
    ['a tag over 64 characters', { tags: ['t'.repeat(65)] }],
    ['more than 32 tags', { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }],
    ['an org over 128 characters', { org: 'o'.repeat(129) }],
    ['a project over 128 characters', { project: 'p'.repeat(129) }],
  ];
  for (const [label, extra] of schemaCaps) {
    it(`refuses ${label} (INVALID_ARGUMENTS), storing nothing`, async () => {
      const b = await brainGateway();
      assert.equal((await b.fail('brain_remember', { content: 'x', type: 'fact', ...extra })).code, 'INVALID_ARGUMENTS');
      assert.equal((await b.call('brain_list', {})).count, 0);
    });
  }

  it('refuses a forget reason over 1000 characters', async () => {
    const b = await brainGateway();
    const { id } = (await b.call('brain_remember', { content: 'to forget', type: 'fact' })).memory;
    assert.equal((await b.fail('brain_forget', { id, reason: 'r'.repeat(1001) })).code, 'INVALID_ARGUMENTS');
  });

  it('keeps at most 128 characters of a long client name as the agent id, which brain_import then takes back', async () => {
    const b = await brainGateway({}, undefined, `agent-${'n'.repeat(10_000)}`);
    const { memory } = await b.call('brain_remember', { content: 'written by a long name', type: 'fact' });
    assert.equal(memory.agent_id, `agent-${'n'.repeat(122)}`);
    assert.equal((await b.call('brain_list', { agent_id: memory.agent_id })).count, 1, 'the filter finds it by the id it was given');
    const copy = await brainGateway();
    assert.equal((await copy.call('brain_import', { memories: [memory] })).imported, 1);
  });
});
