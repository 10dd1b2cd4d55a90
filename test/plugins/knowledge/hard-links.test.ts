// Issue 34, item 4: a hard link in the workspace to a file outside it must not let knowledge
// read that file — through evidence (verified vs rejected would tell what it holds) or through
// rag_ingest + rag_retrieve (which would hand it back whole). Refused by core's workspace read,
// the one the files plugin uses, unless the top-level refuseHardLinks is turned off.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { memoryClient, startGateway, tempDir, toolCalls } from '../../helpers.js';

const SECRET = 'TOP SECRET: the launch code is 0000';

/** base/ws is the workspace; ws/x.txt and ws/docs/y.md are hard links to base-outside/secret.txt. */
function layout() {
  const base = tempDir();
  const outside = tempDir('mcpgw-outside-');
  const ws = join(base, 'ws');
  mkdirSync(join(ws, 'docs'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  linkSync(join(outside, 'secret.txt'), join(ws, 'x.txt'));
  linkSync(join(outside, 'secret.txt'), join(ws, 'docs', 'y.md'));
  writeFileSync(join(ws, 'docs', 'plain.md'), '# Plain\n\nA file of its own.\n');
  return { base, ws, outside };
}

async function boot(overrides: Record<string, unknown> = {}) {
  const { base, ws, outside } = layout();
  const gateway = await startGateway({ workspace: ws, dataDir: join(base, 'data'), plugins: { knowledge: {} }, ...overrides }, base);
  return { ...toolCalls(await memoryClient(gateway)), ws, outside };
}

describe('knowledge: hard links to outside files (refuseHardLinks on, the default)', async () => {
  const { call, fail, outside } = await boot();

  it('evidence citing one fails with HARD_LINK_REFUSED, whatever the snippet: nothing is learnt of the file', async () => {
    const answers = [];
    for (const snippet of [SECRET, 'something the file does not say']) {
      const refused = await fail('knowledge_add', { type: 'note', summary: 'probe', content: `probe ${snippet}`, evidence: [{ path: 'x.txt', snippet }] });
      assert.equal(refused.code, 'KNOWLEDGE_EVIDENCE_REJECTED');
      const [item] = refused.details.evidence;
      assert.equal(item.code, 'HARD_LINK_REFUSED');
      assert.equal(item.file_exists, false);
      assert.equal(item.file_hash, undefined);
      answers.push({ status: item.status, similarity: item.similarity, snippet_found: item.snippet_found, lines_match: item.lines_match });
    }
    assert.deepEqual(answers[0], answers[1], 'a right and a wrong snippet get the same answer');
    // Lines alone would also tell (the file's line count): refused the same way.
    const lines = await fail('knowledge_add', { type: 'note', summary: 'probe', content: 'probe lines', evidence: [{ path: 'x.txt', start_line: 1 }] });
    assert.equal(lines.details.evidence[0].code, 'HARD_LINK_REFUSED');
    assert.equal(lines.details.evidence[0].actual, undefined);
  });

  it('rag_ingest of the link refuses it (HARD_LINK_REFUSED); a folder ingest skips it; rag_retrieve has nothing of it', async () => {
    const single = await fail('rag_ingest', { path: 'x.txt', collection: 'probe' });
    assert.equal(single.code, 'HARD_LINK_REFUSED');
    assert.doesNotMatch(single.message, /SECRET/);

    const folder = await call('rag_ingest', { path: '.', collection: 'probe' });
    assert.equal(folder.files.ingested, 1, 'docs/plain.md only');
    const skipped = new Map(folder.files.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason]));
    for (const path of ['x.txt', 'docs/y.md']) assert.match(String(skipped.get(path)), /HARD_LINK_REFUSED/, path);
    for (const source of ['x.txt', 'docs/y.md']) assert.equal((await fail('rag_retrieve', { source, collection: 'probe' })).code, 'RAG_SOURCE_NOT_FOUND');
    const found = await call('rag_query', { question: 'launch code', collection: 'probe' });
    assert.ok(found.results.every((r: { content: string }) => !r.content.includes('SECRET')));
  });

  it('leaves the outside file as it was', () => {
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), `${SECRET}\n`);
    assert.equal(statSync(join(outside, 'secret.txt')).nlink, 3);
  });
});

describe('knowledge: hard links with refuseHardLinks: false', async () => {
  const { call } = await boot({ refuseHardLinks: false });

  it('reads them like any file, as the setting says', async () => {
    const added = await call('knowledge_add', { type: 'note', summary: 'linked', content: 'a linked file', evidence: [{ path: 'x.txt', snippet: SECRET }] });
    assert.equal(added.node.verification.items[0].status, 'verified');
    await call('rag_ingest', { path: 'x.txt', collection: 'linked' });
    const retrieved = await call('rag_retrieve', { source: 'x.txt', collection: 'linked' });
    assert.match(retrieved.chunks[0].content, /TOP SECRET/);
  });
});
