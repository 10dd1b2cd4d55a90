// Issue 34, item 3: every text field knowledge stores from a caller is capped, with
// KNOWLEDGE_NODE_TOO_LARGE ({field, limit, length}) for the configured caps and the schema's
// INVALID_ARGUMENTS for the fixed ones; and the replies whose lists grow with the graph or the
// collections are paged or bounded.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_VERIFY_LISTED } from '../../../plugins/knowledge/tools/graph-tools.js';
import { memoryClient, toolCalls } from '../../helpers.js';
import { knowledgeGateway, writeFiles } from './knowledge-helpers.js';

const node = (extra: Record<string, unknown> = {}) => ({ type: 'note', summary: 'A note', content: 'Something known.', ...extra });

describe('knowledge: caps on stored caller text', async () => {
  const k = await knowledgeGateway({ plugins: { knowledge: { config: { graph: { maxContentChars: 100, maxEvidence: 2, maxSnippetChars: 50 } } } } });
  const cite = (snippet = 'ERRORS') => ({ path: 'src/errors.ts', snippet });

  const configured: Array<[string, Record<string, unknown>, { field: string; limit: number; length: number }]> = [
    ['content', { content: 'c'.repeat(101) }, { field: 'content', limit: 100, length: 101 }],
    ['content counted in characters, not UTF-16 units', { content: '😀'.repeat(101) }, { field: 'content', limit: 100, length: 101 }],
    ['evidence items', { evidence: [cite(), cite(), cite()] }, { field: 'evidence', limit: 2, length: 3 }],
    ['a snippet', { evidence: [cite(), cite('s'.repeat(51))] }, { field: 'evidence[1].snippet', limit: 50, length: 51 }],
  ];
  for (const [label, extra, details] of configured) {
    it(`refuses ${label} over the configured cap: KNOWLEDGE_NODE_TOO_LARGE (413), storing nothing`, async () => {
      const refused = await k.fail('knowledge_add', node(extra));
      assert.equal(refused.code, 'KNOWLEDGE_NODE_TOO_LARGE');
      assert.equal(k.gateway.errors.get('KNOWLEDGE_NODE_TOO_LARGE')?.status, 413);
      assert.deepEqual(refused.details, details);
      assert.match(refused.message, /plugins\.knowledge\.config\.graph\.max/);
      assert.equal((await k.call('knowledge_list')).total, 0);
    });
  }

  it('refuses the same on knowledge_update, leaving the node as it was', async () => {
    const { id, content } = (await k.call('knowledge_add', node({ content: 'Kept as it is.' }))).node;
    const refused = await k.fail('knowledge_update', { id, content: 'c'.repeat(101) });
    assert.equal(refused.code, 'KNOWLEDGE_NODE_TOO_LARGE');
    assert.equal((await k.call('knowledge_get', { id })).node.content, content);
    await k.call('knowledge_forget', { id });
  });

  const fixed: Array<[string, Record<string, unknown>]> = [
    ['a summary over 500 characters', { summary: 's'.repeat(501) }],
    ['a tag over 64 characters', { tags: ['t'.repeat(65)] }],
    ['more than 32 tags', { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }],
    ['an evidence path over 4096 characters', { evidence: [{ path: 'p'.repeat(4097) }] }],
    ['a grep_pattern over 1000 characters', { evidence: [{ path: 'src/errors.ts', grep_pattern: 'g'.repeat(1001) }] }],
    ['content over the largest cap the config allows', { content: 'c'.repeat(1_000_001) }],
  ];
  for (const [label, extra] of fixed) {
    it(`refuses ${label} with the schema's INVALID_ARGUMENTS`, async () => {
      assert.equal((await k.fail('knowledge_add', node(extra))).code, 'INVALID_ARGUMENTS');
    });
  }
});

describe('knowledge: the agent stored with a node', async () => {
  const k = await knowledgeGateway();

  it('is the first 256 characters of a long client name, and knowledge_list finds it by them', async () => {
    const client = toolCalls(await memoryClient(k.gateway, `agent-${'n'.repeat(10_000)}`));
    const added = (await client.call('knowledge_add', node())).node;
    assert.equal(added.agent, `agent-${'n'.repeat(250)}`);
    assert.equal((await k.call('knowledge_list', { agent: added.agent })).total, 1);
  });
});

describe('knowledge: lists that grow are paged or bounded', async () => {
  const k = await knowledgeGateway();

  it('knowledge_get pages the edges of a node (every node citing a file is linked to every other)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await k.call('knowledge_add', node({ summary: `Cites errors ${i}`, content: `Claim ${i}.`, evidence: [{ path: 'src/errors.ts', snippet: 'ERRORS' }] }))).node.id);
    const first = await k.call('knowledge_get', { id: ids[0], edge_limit: 3 });
    assert.equal(first.edges_total, 4);
    assert.equal(first.edges.length, 3);
    assert.equal(first.next_edge_offset, 3);
    const second = await k.call('knowledge_get', { id: ids[0], edge_limit: 3, edge_offset: 3 });
    assert.equal(second.edges.length, 1);
    assert.equal(second.next_edge_offset, null);
    const others = [...first.edges, ...second.edges].map((e: { other: { id: string } }) => e.other.id).sort();
    assert.deepEqual(others, ids.slice(1).sort(), 'each edge once');
    const bare = await k.call('knowledge_get', { id: ids[0], edge_limit: 0 });
    assert.deepEqual([bare.edges, bare.edges_total, bare.next_edge_offset], [[], 4, null]);
    assert.equal((await k.call('knowledge_get', { id: ids[0] })).edges.length, 4, 'default: a page of 100');
  });

  it(`knowledge_verify lists at most ${MAX_VERIFY_LISTED} nodes, those whose status changed first, and counts the rest`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_VERIFY_LISTED; i++) files[`many/f${i}.txt`] = `fact number ${i}\n`;
    writeFiles(k.workspace, files);
    for (let i = 0; i <= MAX_VERIFY_LISTED; i++) {
      await k.call('knowledge_add', node({ summary: `Fact ${i}`, content: `Fact ${i} holds.`, evidence: [{ path: `many/f${i}.txt`, snippet: `fact number ${i}` }] }));
    }
    writeFileSync(join(k.workspace, 'many', `f${MAX_VERIFY_LISTED}.txt`), 'changed\n');
    const verified = await k.call('knowledge_verify', {});
    assert.equal(verified.checked, MAX_VERIFY_LISTED + 6, 'every node citing evidence, the five above too');
    assert.equal(verified.results.length, MAX_VERIFY_LISTED);
    assert.equal(verified.omitted, 6);
    assert.equal(verified.stale, 1);
    assert.deepEqual([verified.results[0].summary, verified.results[0].after], [`Fact ${MAX_VERIFY_LISTED}`, 'stale'], 'the changed one first');
  });
});

describe('rag: lists that grow are paged', async () => {
  const k = await knowledgeGateway({ plugins: { knowledge: { config: { rag: { chunkChars: 200, overlapChars: 0 } } } } });

  it('rag_collections pages the collections by name', async () => {
    for (const name of ['c-one', 'c-three', 'c-two']) await k.call('rag_ingest', { path: 'docs/deploy.md', collection: name });
    const first = await k.call('rag_collections', { limit: 2 });
    assert.deepEqual(first.collections.map((c: { name: string }) => c.name), ['c-one', 'c-three']);
    assert.deepEqual([first.total, first.next_offset], [3, 2]);
    assert.equal(first.collections[0].sources, 1);
    const second = await k.call('rag_collections', { limit: 2, offset: 2 });
    assert.deepEqual(second.collections.map((c: { name: string }) => c.name), ['c-two']);
    assert.equal(second.next_offset, null);
    assert.equal((await k.call('rag_collections', { offset: 10 })).collections.length, 0);
  });

  it('rag_retrieve pages the chunks of a source, in order, each once', async () => {
    writeFiles(k.workspace, { 'long.txt': Array.from({ length: 60 }, (_, i) => `line ${i} of a long text`).join('\n') });
    await k.call('rag_ingest', { path: 'long.txt', collection: 'long' });
    const seen: number[] = [];
    let offset: number | null = 0;
    let total = 0;
    while (offset !== null) {
      const page: any = await k.call('rag_retrieve', { source: 'long.txt', collection: 'long', limit: 2, offset });
      seen.push(...page.chunks.map((c: { chunk_index: number }) => c.chunk_index));
      total = page.total;
      offset = page.next_offset;
    }
    assert.ok(total > 4, `${total} chunks`);
    assert.deepEqual(seen, Array.from({ length: total }, (_, i) => i));
  });
});
