import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { storeBackends } from '../../support/store-backends.js';
import { knowledgeGateway as bootOn } from './knowledge-helpers.js';

const errorsDecision = {
  type: 'decision',
  summary: 'One error table serves every transport',
  content: 'Error codes live in one table with their HTTP status, so REST and MCP agree.',
  tags: ['errors', 'api'],
  confidence: 0.6,
  evidence: [{ path: 'src/errors.ts', start_line: 2, end_line: 4, snippet: "export const ERRORS = {\n  NOT_FOUND: { status: 404, message: 'no such thing' }," }],
};

// Every case on SQLite and on PostgreSQL (skipped, with one line, where it is not installed).
for (const backend of storeBackends()) {
  describe(`knowledge graph on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());
    const knowledgeGateway = async (overrides: Record<string, unknown> = {}) => bootOn(overrides, await backend.fresh());

    it('adds a node whose evidence holds, raising its confidence, and reads it back', async () => {
      const k = await knowledgeGateway();
      const added = await k.call('knowledge_add', errorsDecision);
      assert.match(added.node.id, /^n-[0-9a-f]{12}$/);
      assert.equal(added.node.verification_status, 'verified');
      assert.equal(added.node.confidence, 0.7);
      assert.equal(added.node.verification.items[0].lines_match, true);
      assert.equal(added.node.agent, 'test-client');
      assert.deepEqual(added.vectors, { stored: false, reason: 'the embeddings plugin is not enabled: stored without vectors: found by its words until vectors work again' });
      const got = await k.call('knowledge_get', { id: added.node.id });
      assert.equal(got.node.content, errorsDecision.content);
      assert.deepEqual(got.edges, []);
    });

    it('grades evidence: snippet at other lines is partial, a missing file fails, none holding is refused with reasons', async () => {
      const k = await knowledgeGateway();
      const partial = await k.call('knowledge_add', {
        type: 'pattern',
        summary: 'Retries back off',
        content: 'Calls to flaky services are retried with backoff.',
        evidence: [{ path: 'src/retry.ts', start_line: 5, snippet: 'Retries with exponential backoff and jitter.' }],
      });
      assert.equal(partial.node.verification_status, 'partial');
      assert.equal(partial.node.confidence, 0.5);
      assert.match(partial.node.verification.items[0].reason, /not at the cited lines/);

      const mixed = await k.call('knowledge_add', {
        type: 'note',
        summary: 'Mixed evidence',
        content: 'One item holds, one does not.',
        evidence: [{ path: 'src/retry.ts', snippet: 'export async function retry' }, { path: 'src/gone.ts' }],
      });
      assert.equal(mixed.node.verification_status, 'partial');
      assert.equal(mixed.node.confidence, 0.4);

      const refused = await k.fail('knowledge_add', {
        type: 'feature',
        summary: 'Invented',
        content: 'A claim about code nobody wrote.',
        evidence: [{ path: 'src/errors.ts', snippet: 'function neverWritten() { return 42; }' }, { path: '../outside.txt' }, { path: '/etc/passwd' }],
      });
      assert.equal(refused.code, 'KNOWLEDGE_EVIDENCE_REJECTED');
      assert.match(refused.message, /#0 src\/errors\.ts: snippet not found/);
      assert.match(refused.message, /#1 \.\.\/outside\.txt: .*outside/i);
      assert.equal(refused.details.evidence.length, 3);
      assert.equal((await k.call('knowledge_list')).total, 2, 'nothing of the refused node was stored');
    });

    it('refuses duplicates, self links, unknown ids and oversized input with stable codes', async () => {
      const k = await knowledgeGateway({ plugins: { knowledge: { config: { graph: { maxContentChars: 200 } } } } });
      const first = await k.call('knowledge_add', errorsDecision);
      const dup = await k.fail('knowledge_add', { ...errorsDecision, content: `  ${errorsDecision.content.toUpperCase()}  `, evidence: [] });
      assert.equal(dup.code, 'KNOWLEDGE_DUPLICATE');
      assert.equal(dup.details.id, first.node.id);
      assert.equal((await k.fail('knowledge_link', { from: first.node.id, to: first.node.id, relation: 'depends_on' })).code, 'KNOWLEDGE_LINK_INVALID');
      assert.equal((await k.fail('knowledge_get', { id: 'n-0123456789ab' })).code, 'KNOWLEDGE_NODE_NOT_FOUND');
      assert.equal((await k.fail('knowledge_link', { from: first.node.id, to: 'n-0123456789ab', relation: 'depends_on' })).code, 'KNOWLEDGE_NODE_NOT_FOUND');
      const long = await k.fail('knowledge_add', { ...errorsDecision, content: 'x'.repeat(201) });
      assert.equal(long.code, 'KNOWLEDGE_NODE_TOO_LARGE');
      assert.deepEqual(long.details, { field: 'content', limit: 200, length: 201 });
      const huge = await k.fail('knowledge_add', { ...errorsDecision, content: 'a huge snippet', evidence: [{ path: 'src/errors.ts', snippet: 'y'.repeat(5000) }] });
      assert.equal(huge.code, 'KNOWLEDGE_NODE_TOO_LARGE');
      assert.deepEqual(huge.details, { field: 'evidence[0].snippet', limit: 4000, length: 5000 });
      assert.match(huge.message, /plugins\.knowledge\.config\.graph\.maxSnippetChars/);
      // The limits of the config are in the descriptions clients read; the schema the gateway checks holds the config's largest.
      const add = (await k.client.listTools()).tools.find((t) => t.name === 'knowledge_add')!;
      assert.match((add.inputSchema.properties as any).content.description, /at most 200 characters\./);
      assert.equal((k.gateway.catalog.get('knowledge_add')!.definition.inputSchema.properties as any).content.maxLength, 1_000_000);
      assert.equal((await k.fail('knowledge_get', { id: '../../etc' })).code, 'INVALID_ARGUMENTS');
    });

    it('links nodes citing the same files, follows strong edges in recall, and cascades on forget', async () => {
      const k = await knowledgeGateway();
      const a = (await k.call('knowledge_add', errorsDecision)).node;
      const b = (
        await k.call('knowledge_add', {
          type: 'constraint',
          summary: 'Unknown codes answer 500',
          content: 'statusOf falls back to 500 for a code missing from the table.',
          evidence: [{ path: 'src/errors.ts', snippet: 'return ERRORS[code]?.status ?? 500;' }],
        })
      ).node;
      const c = (await k.call('knowledge_add', { type: 'risk', summary: 'Rollback window', content: 'The previous release stays warm only ten minutes.', evidence: [{ path: 'docs/deploy.md', snippet: 'stays warm for ten minutes' }] })).node;
      const edges = (await k.call('knowledge_get', { id: b.id })).edges;
      assert.equal(edges.length, 1);
      assert.equal(edges[0].relation, 'shares_evidence');
      assert.equal(edges[0].confidence, 0.7);
      assert.deepEqual(edges[0].properties.shared_files, ['src/errors.ts']);

      const linked = await k.call('knowledge_link', { from: c.id, to: a.id, relation: 'affects', confidence: 0.8 });
      assert.deepEqual([linked.from, linked.to, linked.relation, linked.confidence], [c.id, a.id, 'affects', 0.8]);

      const noVectors = await k.call('knowledge_recall', { query: 'rollback deploy release', mode: 'vector' });
      assert.equal(noVectors.mode, 'lexical');
      assert.match(noVectors.degraded, /not enabled/);
      const found = await k.call('knowledge_recall', { query: 'rollback deploy release', limit: 5 });
      assert.equal(found.mode, 'lexical');
      assert.match(found.degraded, /not enabled/);
      assert.equal(found.results[0].id, c.id);
      const expanded = found.results.find((r: any) => r.id === a.id);
      assert.deepEqual(expanded?.expanded_from, { id: c.id, relation: 'affects' });

      const forgotten = await k.call('knowledge_forget', { id: a.id });
      assert.deepEqual(forgotten, { id: a.id, edges_removed: 2 });
      assert.deepEqual((await k.call('knowledge_get', { id: b.id })).edges, []);
      assert.equal((await k.call('knowledge_recall', { query: 'error table transports' })).results.some((r: any) => r.id === a.id), false);
      assert.deepEqual(await k.call('knowledge_unlink', { from: c.id, to: b.id }), { removed: 0 });
    });

    it('keeps one node when two agents add the same claim at once', async () => {
      const k = await knowledgeGateway();
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => k.client.callTool({ name: 'knowledge_add', arguments: { type: 'note', summary: 'same', content: 'The same claim, made eight times.' } })),
      );
      assert.equal(outcomes.filter((o) => !o.isError).length, 1);
      for (const o of outcomes.filter((o) => o.isError)) assert.match(JSON.stringify(o.content), /KNOWLEDGE_DUPLICATE/);
      assert.equal((await k.call('knowledge_list')).total, 1);
    });

    it('keeps concurrent changes of one node and of links whole: no lost update, no edge to a forgotten node', async () => {
      const k = await knowledgeGateway();
      const [a, b] = await Promise.all(['first claim', 'second claim'].map(async (content) => (await k.call('knowledge_add', { type: 'note', summary: content, content })).node));
      // Two writers, two fields: both changes are kept.
      await Promise.all([k.call('knowledge_update', { id: a.id, tags: ['tagged'] }), k.call('knowledge_update', { id: a.id, summary: 'renamed' })]);
      const both = (await k.call('knowledge_get', { id: a.id })).node;
      assert.deepEqual([both.summary, both.tags, both.version], ['renamed', ['tagged'], 2]);
      // Several writers giving one content to different nodes: one wins, the rest are told which node has it.
      const others = await Promise.all(Array.from({ length: 4 }, (_, i) => k.call('knowledge_add', { type: 'note', summary: `n${i}`, content: `content ${i}` })));
      const racing = await Promise.all(others.map((o) => k.client.callTool({ name: 'knowledge_update', arguments: { id: o.node.id, content: 'one content for all' } })));
      assert.equal(racing.filter((r) => !r.isError).length, 1);
      for (const r of racing.filter((r) => r.isError)) assert.match(JSON.stringify(r.content), /KNOWLEDGE_DUPLICATE/);
      // Links made while the node they point at is forgotten leave no edge behind.
      await Promise.all([k.client.callTool({ name: 'knowledge_forget', arguments: { id: b.id } }), ...Array.from({ length: 5 }, () => k.client.callTool({ name: 'knowledge_link', arguments: { from: a.id, to: b.id, relation: 'depends_on' } }))]);
      assert.deepEqual((await k.call('knowledge_get', { id: a.id })).edges, []);
      assert.equal((await k.fail('knowledge_link', { from: a.id, to: b.id, relation: 'depends_on' })).code, 'KNOWLEDGE_NODE_NOT_FOUND');
    });

    it('answers over REST with the table status, and validates arguments there too', async () => {
      const k = await knowledgeGateway();
      const app = await createHttpApp(k.gateway);
      try {
        const added = await app.inject({ method: 'POST', url: '/tools/knowledge_add', payload: errorsDecision });
        assert.equal(added.statusCode, 200, added.body);
        assert.equal(added.json().data.node.verification_status, 'verified');
        const missing = await app.inject({ method: 'POST', url: '/tools/knowledge_get', payload: { id: 'n-0123456789ab' } });
        assert.equal(missing.statusCode, 404);
        assert.equal(missing.json().error.code, 'KNOWLEDGE_NODE_NOT_FOUND');
        const rejected = await app.inject({ method: 'POST', url: '/tools/knowledge_add', payload: { ...errorsDecision, content: 'other', evidence: [{ path: 'nope.ts' }] } });
        assert.equal(rejected.statusCode, 422);
        assert.equal(rejected.json().error.details.evidence[0].reason, 'file does not exist');
        const bad = await app.inject({ method: 'POST', url: '/tools/knowledge_add', payload: { type: 'rumour', summary: 's', content: 'c' } });
        assert.equal(bad.statusCode, 400);
        const found = await app.inject({ method: 'POST', url: '/tools/knowledge_recall', payload: { query: 'error codes table' } });
        assert.equal(found.json().data.results[0].summary, errorsDecision.summary);
      } finally {
        await app.close();
      }
    });

    it('summarises by type, lists with filters and pages', async () => {
      const k = await knowledgeGateway();
      for (let i = 0; i < 5; i++) await k.call('knowledge_add', { type: i < 3 ? 'note' : 'risk', summary: `item ${i}`, content: `content number ${i}`, tags: i === 0 ? ['first'] : [] });
      const summary = await k.call('knowledge_summary');
      assert.equal(summary.total, 5);
      assert.equal(summary.types.note.count, 3);
      assert.equal(summary.types.risk.recent.length, 2);
      assert.equal(summary.statuses.unverified, 5);
      assert.equal(summary.vectors.available, false);
      assert.deepEqual((await k.call('knowledge_recall')).summary.types.note.count, 3);
      const page = await k.call('knowledge_list', { type: 'note', limit: 2 });
      assert.equal(page.total, 3);
      assert.equal(page.next_offset, 2);
      assert.equal((await k.call('knowledge_list', { type: 'note', limit: 2, offset: 2 })).next_offset, null);
      assert.deepEqual((await k.call('knowledge_list', { tag: 'first' })).nodes.map((n: any) => n.summary), ['item 0']);
      assert.equal((await k.call('knowledge_list', { tag: 'firs' })).total, 0);
    });

    it('re-verifies the nodes citing changed files and marks what no longer holds stale', async () => {
      const k = await knowledgeGateway();
      const a = (await k.call('knowledge_add', errorsDecision)).node;
      const r = (await k.call('knowledge_add', { type: 'pattern', summary: 'Retries', content: 'Retry loop.', evidence: [{ path: 'src/retry.ts', snippet: 'export async function retry(fn, attempts = 3) {' }] })).node;
      let check = await k.call('knowledge_verify', { changed: true });
      assert.deepEqual(check, { checked: 0, stale: 0, omitted: 0, changed_files: [], results: [] });

      writeFileSync(join(k.workspace, 'src/errors.ts'), 'export const CODES = new Map();\n');
      appendFileSync(join(k.workspace, 'src/retry.ts'), '\n// a comment\n');
      check = await k.call('knowledge_verify', { changed: true });
      assert.deepEqual(check.changed_files, ['src/errors.ts', 'src/retry.ts']);
      assert.equal(check.stale, 1);
      const stale = check.results.find((x: any) => x.id === a.id);
      assert.deepEqual([stale.before, stale.after], ['verified', 'stale']);
      assert.equal(stale.problems[0].status, 'failed');
      assert.match(stale.problems[0].reason, /snippet not found/);
      assert.equal(check.results.find((x: any) => x.id === r.id).after, 'verified');
      assert.deepEqual((await k.call('knowledge_list', { status: 'stale' })).nodes.map((n: any) => n.id), [a.id]);
      // Checked again with nothing changed since: nothing to do.
      assert.equal((await k.call('knowledge_verify', { changed: true })).checked, 0);
      assert.equal((await k.call('knowledge_verify', { ids: [a.id] })).results[0].after, 'stale');
      // A change that does not touch the evidence keeps the status; everything still reads.
      const tagged = await k.call('knowledge_update', { id: a.id, tags: ['errors', 'stale-now'] });
      assert.equal(tagged.node.verification_status, 'stale');
      assert.equal((await k.call('knowledge_get', { id: a.id })).node.verification_status, 'stale');
      assert.equal((await k.call('knowledge_list')).total, 2);
    });

    it('serves a Markdown resource per node type and tells subscribers when it changes', async () => {
      const k = await knowledgeGateway();
      const listed = (await k.client.listResources()).resources.map((r) => r.uri).filter((u) => u.startsWith('knowledge://'));
      assert.equal(listed.length, 7);
      await k.client.subscribeResource({ uri: 'knowledge://nodes/decision' });
      const updated = new Promise<string>((resolve) => {
        k.client.fallbackNotificationHandler = async (n) => {
          if (n.method === 'notifications/resources/updated') resolve((n.params as { uri: string }).uri);
        };
      });
      await k.call('knowledge_add', errorsDecision);
      assert.equal(await updated, 'knowledge://nodes/decision');
      const read = await k.client.readResource({ uri: 'knowledge://nodes/decision' });
      const text = (read.contents[0] as { text: string }).text;
      assert.match(text, /^# Knowledge: decision \(1\)/);
      assert.match(text, /## One error table serves every transport/);
      assert.match(text, /`src\/errors\.ts:2-4`/);
    });
  });
}
