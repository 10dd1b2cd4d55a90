import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../../helpers.js';
import { storeBackends, type BackendUnderTest } from '../../support/store-backends.js';
import { bootRag, GUIDE_MD, writeTree } from './rag-helpers.js';

// The vector path of the rag_ tools with the real embeddings plugin and the deterministic
// embeddings server (its vectors are hashed words: a plumbing check, not a model).
const landed = existsSync(join(ROOT, 'plugins', 'embeddings', 'index.ts'));
const skipAll = landed ? false : 'the embeddings plugin has not landed on this branch yet';

/** The part of the test server's interface used here (its .d.ts comes with the embeddings plugin). */
interface EmbeddingsServer {
  readonly url: string;
  readonly requests: readonly unknown[];
  mode: string;
  close(): Promise<void>;
}

// Imported by a computed name so that this file type-checks before server.d.ts has landed.
const SERVER_MODULE = '../../fixtures/embeddings-server/server.js';
async function startEmbeddingsServer(options: { dimensions: number }): Promise<EmbeddingsServer> {
  const module = (await import(SERVER_MODULE)) as { startEmbeddingsServer(o: { dimensions: number }): Promise<EmbeddingsServer> };
  return module.startEmbeddingsServer(options);
}

/** Breakers that never open: a provider that is down fails each call by itself. */
const PATIENT_BREAKERS = { breakers: { volumeThreshold: 10_000 } };

for (const backend of storeBackends()) {
  describe(`rag with vectors on ${backend.name}`, { skip: skipAll || backend.skip }, () => {
    let server: EmbeddingsServer;
    before(async () => {
      await backend.start();
      server = await startEmbeddingsServer({ dimensions: 64 });
    });
    after(async () => {
      await server.close();
      await backend.stop();
    });
    const embeddings = () => ({ embeddings: { config: { provider: 'openai', url: `${server.url}/v1`, model: 'test', dimensions: 64, apiKeyEnv: '' } } });
    vectorCases(backend, () => server, embeddings);
  });
}

function seed(root: string): void {
  writeTree(root, {
    'docs/guide.md': GUIDE_MD,
    'docs/deploy.md': '# Deploy\n\n## Rollback\n\nTo roll back a release, redeploy the previous tag.\n\n## Canary\n\nShip to one host first.\n',
  });
}

function vectorCases(backend: BackendUnderTest, server: () => EmbeddingsServer, embeddings: () => Record<string, unknown>): void {
  it('ingests with vectors and answers hybrid, in a vector space of its own', async (t) => {
    server().mode = 'ok';
    const rag = await bootRag(t, await backend.fresh(), { plugins: embeddings() });
    seed(rag.workspace);
    const out = await rag.call('rag_ingest', { path: 'docs' });
    assert.equal(out.vectors.stored, true, JSON.stringify(out.vectors));
    const answer = await rag.call('rag_query', { question: 'roll back a release' });
    assert.equal(answer.mode, 'hybrid');
    assert.equal(answer.degraded, undefined);
    assert.equal(answer.results[0].section, 'Deploy > Rollback');
    const words = await rag.call('rag_query', { question: 'roll back a release', mode: 'lexical' });
    assert.deepEqual([words.mode, words.degraded], ['lexical', undefined]);
    const meaning = await rag.call('rag_query', { question: 'roll back a release', mode: 'vector' });
    assert.equal(meaning.mode, 'vector');
    assert.equal(meaning.results[0].section, 'Deploy > Rollback');
    const [stats] = (await rag.call('rag_collections', {})).collections;
    assert.match(stats.vector_space, /^[a-z0-9_]{1,24}$/);
    const rest = await rag.rest('rag_query', { question: 'roll back a release' });
    assert.deepEqual(rest.body.data, answer);
  });

  it('stores chunks without vectors while the provider is down, says so, and fills them in when it is back', async (t) => {
    server().mode = 'down';
    const rag = await bootRag(t, await backend.fresh(), { plugins: embeddings(), extra: PATIENT_BREAKERS, knowledge: { rag: { batchSize: 2 } } });
    seed(rag.workspace);
    const out = await rag.call('rag_ingest', { path: 'docs' });
    assert.equal(out.files.ingested, 2);
    assert.equal(out.vectors.stored, false);
    assert.match(out.vectors.reason, /stored without vectors: found by its words until vectors work again/);
    const lexical = await rag.call('rag_query', { question: 'roll back a release' });
    assert.equal(lexical.mode, 'lexical');
    assert.match(lexical.degraded, /lexical/);
    assert.equal(lexical.results[0].section, 'Deploy > Rollback');

    server().mode = 'ok';
    // A query gives one batch (2) of the six chunks their vectors, and says how many still lack one.
    const partly = await rag.call('rag_query', { question: 'roll back a release' });
    assert.equal(partly.mode, 'hybrid');
    assert.match(partly.degraded, /^4 chunk\(s\) of the collection have no vector yet/);
    // The next ingest fills in the rest, though no file changed.
    const again = await rag.call('rag_ingest', { path: 'docs' });
    assert.deepEqual([again.files.unchanged, again.vectors.filled, again.vectors.stored], [2, 4, true]);
    const full = await rag.call('rag_query', { question: 'roll back a release' });
    assert.equal(full.degraded, undefined);
    assert.equal(full.results[0].section, 'Deploy > Rollback');
  });

  it('falls back to words when the breaker is open, with the reason', async (t) => {
    server().mode = 'ok';
    const rag = await bootRag(t, await backend.fresh(), { plugins: embeddings(), extra: { breakers: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 } } });
    seed(rag.workspace);
    await rag.call('rag_ingest', { path: 'docs' });
    server().mode = 'down';
    let answer: any;
    for (let i = 0; i < 4; i++) answer = await rag.call('rag_query', { question: `roll back ${i}` });
    assert.equal(answer.mode, 'lexical');
    assert.match(answer.degraded, /breaker/i);
    assert.ok(answer.results.length > 0);
  });

  it('refuses an ingest whose vectors have the wrong length, storing nothing of the file', async (t) => {
    server().mode = 'wrong-dimensions';
    const rag = await bootRag(t, await backend.fresh(), { plugins: embeddings(), extra: PATIENT_BREAKERS });
    seed(rag.workspace);
    const out = await rag.call('rag_ingest', { path: 'docs/deploy.md' });
    assert.equal(out.code, 'EMBEDDINGS_DIMENSION_MISMATCH', JSON.stringify(out));
    const [stats] = (await rag.call('rag_collections', {})).collections;
    assert.deepEqual([stats.sources, stats.chunks], [0, 0]);
    const rows = await rag.gateway.store.db.selectFrom('knowledge_rag_chunks').select('id').execute();
    assert.deepEqual(rows, []);
    const answer = await rag.call('rag_query', { question: 'rollback' });
    assert.equal(answer.mode, 'lexical');
    assert.match(answer.degraded, /EMBEDDINGS_DIMENSION_MISMATCH/);
    server().mode = 'ok';
  });

  it('answers a query by words, with the reason, when the provider answers the wrong length and chunks still lack vectors', async (t) => {
    server().mode = 'down';
    const rag = await bootRag(t, await backend.fresh(), { plugins: embeddings(), extra: PATIENT_BREAKERS });
    seed(rag.workspace);
    const out = await rag.call('rag_ingest', { path: 'docs' });
    assert.equal(out.vectors.stored, false);
    server().mode = 'wrong-dimensions';
    // The query's sync tries to give the chunks their vectors and gets the wrong length.
    const answer = await rag.call('rag_query', { question: 'roll back a release' });
    assert.equal(answer.isError, undefined, JSON.stringify(answer));
    assert.equal(answer.mode, 'lexical');
    assert.match(answer.degraded, /^embeddings failed \(EMBEDDINGS_DIMENSION_MISMATCH: .*\): search is lexical$/);
    assert.equal(answer.results[0].section, 'Deploy > Rollback');
    const rows = await rag.gateway.store.db.selectFrom('knowledge_rag_chunks').select('embedded').where('embedded', '=', 1).execute();
    assert.deepEqual(rows, [], 'no vector of the wrong length stored');
    server().mode = 'ok';
  });

  it('fails an ingest whose collection was deleted meanwhile with RAG_COLLECTION_NOT_FOUND, storing nothing', async (t) => {
    server().mode = 'hang';
    // The provider hangs until the timeout; meanwhile the collection goes. The ingest then stores words only, and finds it gone.
    const slow = { embeddings: { config: { provider: 'openai', url: `${server().url}/v1`, model: 'test', dimensions: 64, apiKeyEnv: '', timeoutMs: 1500 } } };
    const rag = await bootRag(t, await backend.fresh(), { plugins: slow, extra: PATIENT_BREAKERS });
    seed(rag.workspace);
    const before = server().requests.length;
    const running = rag.call('rag_ingest', { path: 'docs/deploy.md', collection: 'race' });
    while (server().requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(await rag.call('rag_delete', { collection: 'race' }), { collection: 'race', deleted: { sources: 0, chunks: 0 } });
    const out = await running;
    server().mode = 'ok';
    assert.equal(out.code, 'RAG_COLLECTION_NOT_FOUND', JSON.stringify(out));
    assert.match(out.message, /"race" was deleted while this ingest ran/);
    assert.deepEqual((await rag.call('rag_collections', {})).collections, []);
    assert.deepEqual(await rag.gateway.store.db.selectFrom('knowledge_rag_chunks').select('id').execute(), []);
    // Its chunks left the search index too: a new collection of the same file finds each chunk once.
    await rag.call('rag_ingest', { path: 'docs/deploy.md', collection: 'race' });
    const hits = (await rag.call('rag_query', { question: 'roll back canary deploy', collection: 'race', top_k: 50, mode: 'lexical' })).results;
    assert.deepEqual(hits.map((h: any) => h.chunk_index).sort(), [0, 1, 2]);
  });

  it('moves a collection ingested without embeddings to the vector index when they are enabled', async (t) => {
    server().mode = 'ok';
    const target = await backend.fresh();
    const workspace = join(target.dataDir, '..', 'shared-ws');
    const plain = await bootRag(t, target, { workspace });
    seed(plain.workspace);
    await plain.call('rag_ingest', { path: 'docs' });
    assert.equal((await plain.call('rag_collections', {})).collections[0].vector_space, null);
    await plain.gateway.close();

    const rag = await bootRag(t, target, { workspace, plugins: embeddings() });
    const answer = await rag.call('rag_query', { question: 'roll back a release', top_k: 10 });
    assert.equal(answer.results[0].section, 'Deploy > Rollback', 'every chunk found in the new index');
    const [stats] = (await rag.call('rag_collections', {})).collections;
    assert.notEqual(stats.vector_space, null);
    const again = await rag.call('rag_ingest', { path: 'docs' });
    assert.equal(again.vectors.stored, true);
    assert.equal((await rag.call('rag_query', { question: 'roll back a release' })).degraded, undefined);
  });
}
