// Issue 14: the knowledge plugin. Retrieval quality on a labelled set written from this
// repository's docs and code before any tuning (bench/knowledge/), for lexical, vector and
// hybrid search; rag_ingest throughput over a generated tree and rag_query latency at its
// size; and, where the work overlaps, the official memory server (create entities, search).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddingsServer } from '../../test/fixtures/embeddings-server/server.js';
import { GATEWAY_BIN, ROOT, spawnNode, tempDir, writeGatewayConfig } from '../lib/children.js';
import { readCorpus, writeCorpus } from '../knowledge/corpus.mjs';
import { stdioClient } from '../lib/connect.js';
import type { BenchOptions } from '../lib/options.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { median, percentile } from '../lib/stats.js';
import { random, skewedWord, vocabulary } from '../lib/storage-workload.js';

const LABELS = join(ROOT, 'bench', 'knowledge');
const MEMORY_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
/** Ranks looked at: recall@5 counts the first five, MRR the first ten. */
const DEPTH = 10;
const MODES = ['lexical', 'vector', 'hybrid'] as const;
/** The deterministic embedder's vector length (hashed words: a plumbing check, not a model). */
const DIMENSIONS = 256;
const SCALE_QUERIES = 200;
const SECTIONS_PER_FILE = 10;

interface RagQuestion {
  id: string;
  question: string;
  source: string;
  heading: string;
}
interface GraphNode {
  key: string;
  type: string;
  summary: string;
  content: string;
  tags: string[];
  evidence: unknown[];
}
interface GraphQuestion {
  id: string;
  question: string;
  key: string;
}

const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(LABELS, name), 'utf8')) as T;
const data = (result: { content: Array<{ text?: string }> }) => JSON.parse(result.content[0]?.text ?? 'null');

/** recall@5 and MRR over the first DEPTH ranks, from the 1-based rank of each answer (0: not found). */
function quality(ranks: readonly number[]): { recall5: number; mrr: number } {
  return {
    recall5: ranks.filter((r) => r > 0 && r <= 5).length / ranks.length,
    mrr: ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const lastHeading = (section: string) => section.split(' > ').at(-1)?.trim() ?? '';

async function gatewayClient(dir: string, plugins: Record<string, unknown>, workspace: string): Promise<RawMcpClient> {
  const config = writeGatewayConfig(dir, {
    dataDir: join(dir, 'data'),
    workspace,
    logLevel: 'warn',
    tools: { timeoutMs: 3_600_000 },
    plugins,
  });
  return stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]));
}

/** Ranks of each labelled answer, per search mode, for the graph and the collections. */
async function retrievalQuality(): Promise<{ table: Table; notes: string[]; targets: Target[]; memoryRanks: number[] }> {
  const nodes = readJson<GraphNode[]>('graph-nodes.json');
  const graphQuestions = readJson<GraphQuestion[]>('graph-questions.json');
  const ragQuestions = readJson<RagQuestion[]>('rag-questions.json');
  const server = await startEmbeddingsServer({ dimensions: DIMENSIONS });
  const rows: string[][] = [];
  const targets: Target[] = [];
  const notes: string[] = [];
  try {
    // The files the labels were written against, frozen (bench/knowledge/corpus.json), not today's.
    const corpus = writeCorpus(tempDir('mcpgw-bench-labelled-'));
    const client = await gatewayClient(tempDir(), { knowledge: {}, embeddings: { config: { provider: 'openai', url: `${server.url}/v1`, model: 'bench-hashed-words', dimensions: DIMENSIONS } } }, corpus);
    try {
      const ids = new Map<string, string>();
      for (const node of nodes) {
        const { key, ...fields } = node;
        ids.set(key, data(await client.callTool('knowledge_add', fields)).node.id);
      }
      const ingest = data(
        await client.callTool('rag_ingest', { path: '.', collection: 'bench', include: ['README.md', 'docs/*.md', 'plugins/*/README.md'], exclude: ['docs/performance.md'] }),
      );
      notes.push(
        `Seeded ${nodes.length} nodes from bench/knowledge/graph-nodes.json (each verified against the files) and ingested ${ingest.files.ingested} Markdown files of the repository as the labels knew it (${ingest.chunks.added} chunks) into one collection.`,
      );
      for (const mode of MODES) {
        const graphRanks: number[] = [];
        for (const q of graphQuestions) {
          const answer = data(await client.callTool('knowledge_recall', { query: q.question, limit: DEPTH, mode, include_content: false }));
          graphRanks.push(answer.results.findIndex((r: { id: string }) => r.id === ids.get(q.key)) + 1);
        }
        const ragRanks: number[] = [];
        for (const q of ragQuestions) {
          const answer = data(await client.callTool('rag_query', { question: q.question, collection: 'bench', top_k: DEPTH, mode }));
          ragRanks.push(answer.results.findIndex((r: { source: string; section: string }) => r.source === q.source && lastHeading(r.section) === q.heading) + 1);
        }
        for (const [what, ranks] of [['graph (knowledge_recall)', graphRanks], ['collections (rag_query)', ragRanks]] as const) {
          const { recall5, mrr } = quality(ranks);
          rows.push([what, mode, int(ranks.length), pct(recall5), mrr.toFixed(3)]);
          targets.push({ item: `9. Knowledge: ${what} recall@5, ${mode}`, value: pct(recall5), target: '— (reported)', met: null });
        }
      }
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
  }

  // The memory server on the same graph: one entity per node, the question as its search.
  const memory = await memoryClient();
  const memoryRanks: number[] = [];
  try {
    await memory.callTool('create_entities', { entities: nodes.map((n) => ({ name: n.summary, entityType: n.type, observations: [n.content] })) });
    for (const q of graphQuestions) {
      const found = data(await memory.callTool('search_nodes', { query: q.question }));
      const summary = nodes.find((n) => n.key === q.key)!.summary;
      const at = (found.entities as Array<{ name: string }>).slice(0, DEPTH).findIndex((e) => e.name === summary);
      memoryRanks.push(at + 1);
    }
    const { recall5, mrr } = quality(memoryRanks);
    rows.push(['server-memory (search_nodes)', 'substring', int(memoryRanks.length), pct(recall5), mrr.toFixed(3)]);
  } finally {
    await memory.close();
  }
  return { table: { title: 'Retrieval quality on the labelled set', columns: ['what', 'mode', 'questions', 'recall@5', 'MRR@10'], rows }, notes, targets, memoryRanks };
}

function memoryClient(): Promise<RawMcpClient> {
  const file = join(tempDir('mcpgw-bench-memory-'), 'memory.jsonl');
  return stdioClient(spawnNode(MEMORY_SERVER, [], { env: { MEMORY_FILE_PATH: file } }));
}

/** `files` Markdown files of SECTIONS_PER_FILE headed sections each (one chunk a section), words from a skewed vocabulary. */
function generateTree(root: string, files: number, words: readonly string[]): number {
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const next = random(90_000 + i);
    const text = (n: number) => Array.from({ length: n }, () => skewedWord(words, next)).join(' ');
    const body = Array.from({ length: SECTIONS_PER_FILE }, (_, s) => `## ${text(3)} ${s}\n\n${text(140)}\n`).join('\n');
    const doc = `# ${text(4)}\n\n${body}`;
    const dir = join(root, `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.md`), doc);
    bytes += Buffer.byteLength(doc);
  }
  return bytes;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await run();
  return { value, ms: performance.now() - t };
}

/** rag_ingest over a generated tree, then rag_query latency at that size (words only: no provider). */
async function scale(options: BenchOptions, words: readonly string[]): Promise<{ table: Table; targets: Target[] }> {
  const files = options.knowledgeFiles;
  const workspace = tempDir('mcpgw-bench-corpus-');
  const bytes = generateTree(join(workspace, 'corpus'), files, words);
  const client = await gatewayClient(tempDir(), { knowledge: { config: { rag: { maxFiles: files + 1 } } } }, workspace);
  try {
    const { value: ingest, ms: ingestMs } = await timed(async () => data(await client.callTool('rag_ingest', { path: 'corpus', collection: 'scale' })));
    const { ms: againMs } = await timed(() => client.callTool('rag_ingest', { path: 'corpus', collection: 'scale' }));
    const next = random(4242);
    const times: number[] = [];
    for (let i = 0; i < SCALE_QUERIES; i++) {
      const question = Array.from({ length: 2 + (i % 3) }, () => words[Math.floor(words.length * (0.05 + 0.5 * next()))]).join(' ');
      times.push((await timed(() => client.callTool('rag_query', { question, collection: 'scale', top_k: 10 }))).ms);
    }
    const chunks = ingest.chunks.added as number;
    const rows = [
      ['rag_ingest, first', int(files), int(chunks), `${(bytes / 1024 / 1024).toFixed(1)} MiB`, `${(ingestMs / 1000).toFixed(1)} s`, `${int(files / (ingestMs / 1000))} files/s`, `${(bytes / 1024 / 1024 / (ingestMs / 1000)).toFixed(1)} MiB/s`],
      ['rag_ingest, again (unchanged)', int(files), '0', '—', `${(againMs / 1000).toFixed(1)} s`, `${int(files / (againMs / 1000))} files/s`, '—'],
    ];
    const latency = [`rag_query at ${int(chunks)} chunks`, `p50 ${ms(percentile(times, 50))}`, `p99 ${ms(percentile(times, 99))}`];
    return {
      table: { title: 'Ingest and query at size (SQLite, words only)', columns: ['', 'files', 'chunks', 'size', 'time', 'files/s', 'MiB/s'], rows: [...rows, [...latency, '', '', '', '']] },
      targets: [
        { item: `9. Knowledge: rag_ingest of ${int(files)} files`, value: `${int(files / (ingestMs / 1000))} files/s`, target: '— (reported)', met: null },
        { item: `9. Knowledge: rag_query p99 at ${int(chunks)} chunks`, value: ms(percentile(times, 99)), target: '— (reported)', met: null },
      ],
    };
  } finally {
    await client.close();
  }
}

/** Where the work overlaps the memory server: one entity (node) per call, then searches for one word. */
async function versusMemory(options: BenchOptions, words: readonly string[]): Promise<{ table: Table; targets: Target[] }> {
  const count = options.quick ? 200 : 1000;
  const next = random(77);
  const text = (n: number) => Array.from({ length: n }, () => skewedWord(words, next)).join(' ');
  const items = Array.from({ length: count }, (_, i) => ({ summary: `item ${i} ${text(4)}`, content: text(200), type: 'note' }));
  const queries = Array.from({ length: 100 }, () => words[Math.floor(words.length * (0.05 + 0.5 * next()))]!);
  const gateway = await gatewayClient(tempDir(), { knowledge: {} }, tempDir());
  const memory = await memoryClient();
  try {
    const add = await timed(async () => {
      for (const item of items) await gateway.callTool('knowledge_add', item);
    });
    const create = await timed(async () => {
      for (const item of items) await memory.callTool('create_entities', { entities: [{ name: item.summary, entityType: item.type, observations: [item.content] }] });
    });
    const search = async (call: (q: string) => Promise<unknown>) => {
      const times: number[] = [];
      for (const q of queries) times.push((await timed(() => call(q))).ms);
      return { p50: percentile(times, 50), p99: percentile(times, 99), median: median(times) };
    };
    const recall = await search((q) => gateway.callTool('knowledge_recall', { query: q, limit: 10, include_content: false }));
    const found = await search((q) => memory.callTool('search_nodes', { query: q }));
    const perSecond = (t: number) => count / (t / 1000);
    return {
      table: {
        title: `Against @modelcontextprotocol/server-memory (both over stdio, ${int(count)} entities / nodes, sequential calls)`,
        columns: ['work', 'gateway (knowledge)', 'server-memory', 'gateway advantage'],
        rows: [
          ['create one entity per call', `${int(perSecond(add.ms))} /s`, `${int(perSecond(create.ms))} /s`, ratio(perSecond(add.ms) / perSecond(create.ms))],
          ['search one word, p50', ms(recall.p50), ms(found.p50), ratio(found.p50 / recall.p50)],
          ['search one word, p99', ms(recall.p99), ms(found.p99), ratio(found.p99 / recall.p99)],
        ],
      },
      targets: [{ item: '9. Knowledge: knowledge_add / server-memory create_entities (calls/s)', value: ratio(perSecond(add.ms) / perSecond(create.ms)), target: '— (reported)', met: null }],
    };
  } finally {
    await Promise.all([gateway.close(), memory.close()]);
  }
}

export async function knowledgeSection(options: BenchOptions): Promise<SectionResult> {
  const words = vocabulary(20_000);
  const q = await retrievalQuality();
  process.stderr.write(`  knowledge quality: ${q.table.rows.map((r) => `${r[0]} ${r[1]} ${r[3]}`).join('; ')}\n`);
  const s = await scale(options, words);
  process.stderr.write(`  knowledge scale: ${s.table.rows.map((r) => r.filter(Boolean).join(' ')).join('; ')}\n`);
  const m = await versusMemory(options, words);
  return {
    id: 'knowledge',
    title: '9. Knowledge: retrieval quality, ingest and query at size, the memory server',
    method: [
      `Quality: the labelled set in bench/knowledge/ (written from this repository before any tuning), against the repository's files as they were then (bench/knowledge/corpus.json, commit ${readCorpus().commit.slice(0, 7)}), so that the labels hold as the code moves on; \`node bench/knowledge/check-labels.mjs\` checks them — ` +
        `graph questions answered by one seeded node, collection questions by the chunks under one heading of one file. recall@5: the answer among the first five; MRR@10: the mean of 1/rank over the first ten (0 when absent). ` +
        `Modes are the tools' own \`mode\` argument, on one gateway with the embeddings plugin. **The vectors come from the test embedder** (test/fixtures/embeddings-server: words hashed into ${DIMENSIONS} buckets), ` +
        'so the vector and hybrid rows check the plumbing and measure shared vocabulary, not what a real embedding model would find. The memory server gets one entity per node and the question as its search (a substring filter, as it searches).',
      `Size: ${int(options.knowledgeFiles)} generated Markdown files of ${SECTIONS_PER_FILE} headed sections (words drawn with a skew from a 20,000-word vocabulary), one rag_ingest over stdio, then the same again (every file unchanged, skipped by hash), then ${SCALE_QUERIES} rag_query calls of 2-4 words (top_k 10), one after another, on the default SQLite store with no embeddings provider.`,
      'Against server-memory: both servers spawned over stdio, the same texts, one create per call; then 100 one-word searches each. The advantage is calls/s of the gateway over the memory server\'s for creates, and the memory server\'s time over the gateway\'s for searches: above 1× the gateway is faster. server-memory keeps its graph in a JSONL file it reads and writes whole on every call; the gateway writes rows and a full-text index in SQLite and verifies nothing here (no evidence given).',
      ...q.notes,
    ],
    tables: [q.table, s.table, m.table],
    targets: [...q.targets, ...s.targets, ...m.targets],
    profiles: [],
  };
}
