// The brain plugin: against the memory server a user would otherwise pick (remember, search),
// and what a shared brain costs — a call relayed by one gateway to another's REST bridge,
// against the same call made on that gateway directly and on a gateway with its own store.
import { join } from 'node:path';
import { createApiKey } from '../../core/auth/api-keys.js';
import { GATEWAY_BIN, ROOT, spawnNode, tempDir, writeGatewayConfig, type Child } from '../lib/children.js';
import { stdioClient } from '../lib/connect.js';
import type { BenchOptions } from '../lib/options.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { percentile } from '../lib/stats.js';
import { random, skewedWord, vocabulary } from '../lib/storage-workload.js';

const MEMORY_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const SEARCHES = 100;
/** Calls of each side before the hop is measured: connections opened, hot paths compiled. */
const WARM_CALLS = 20;
const TOP_K = 10;
/** The variable gateway B reads its key for A from (`remote.apiKeyEnv`). */
const KEY_ENV = 'BENCH_BRAIN_KEY';

type Call = () => Promise<unknown>;
const data = (result: { content: Array<{ text?: string }> }) => JSON.parse(result.content[0]?.text ?? 'null');

interface Workload {
  /** The memories both sides of part 1 store, and gateway A holds for part 2. */
  readonly texts: readonly string[];
  /** One or two words each. */
  readonly queries: readonly string[];
  /** Texts remembered during the hop: the first half directly on A, the second through B. */
  readonly more: readonly string[];
}

/** Texts of 20 to 60 words drawn with a skew from a 20,000-word vocabulary; queries from its middle. */
function workload(count: number): Workload {
  const words = vocabulary(20_000);
  const next = random(1010);
  const text = () => Array.from({ length: 20 + Math.floor(next() * 41) }, () => skewedWord(words, next)).join(' ');
  const word = () => words[Math.floor(words.length * (0.05 + 0.5 * next()))]!;
  return {
    texts: Array.from({ length: count }, text),
    queries: Array.from({ length: SEARCHES }, (_, i) => (i % 2 === 0 ? word() : `${word()} ${word()}`)),
    more: Array.from({ length: 2 * SEARCHES }, text),
  };
}

/** Sequential calls of several sides, each side's i-th call next to the others', the order rotating every call. */
async function interleaved(sides: readonly ((i: number) => Promise<unknown>)[], count: number): Promise<number[][]> {
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < sides.length; k++) {
      const s = (i + k) % sides.length;
      const t = performance.now();
      await sides[s]!(i);
      times[s]!.push(performance.now() - t);
    }
  }
  return times;
}

const p = (times: readonly number[], q: number) => percentile(times, q);
const sum = (times: readonly number[]) => times.reduce((a, b) => a + b, 0);

async function localGateway(): Promise<RawMcpClient> {
  const dir = tempDir();
  const config = writeGatewayConfig(dir, { dataDir: join(dir, 'data'), workspace: dir, logLevel: 'warn', plugins: { brain: {} } });
  return stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]));
}

/** 1. brain_remember and brain_recall against create_entities and search_nodes, over stdio, same texts. */
async function versusMemory(local: RawMcpClient, w: Workload): Promise<{ table: Table; targets: Target[] }> {
  const memory = await stdioClient(spawnNode(MEMORY_SERVER, [], { env: { MEMORY_FILE_PATH: join(tempDir('mcpgw-bench-memory-'), 'memory.jsonl') } }));
  try {
    const [remember, create] = await interleaved(
      [
        (i) => local.callTool('brain_remember', { content: w.texts[i]!, type: 'fact' }),
        (i) => memory.callTool('create_entities', { entities: [{ name: `memory ${i}`, entityType: 'fact', observations: [w.texts[i]!] }] }),
      ],
      w.texts.length,
    );
    const [recall, search] = await interleaved(
      [(i) => local.callTool('brain_recall', { query: w.queries[i]!, top_k: TOP_K }), (i) => memory.callTool('search_nodes', { query: w.queries[i]! })],
      w.queries.length,
    );
    const perSecond = (times: number[]) => times.length / (sum(times) / 1000);
    const advantage = perSecond(remember!) / perSecond(create!);
    const row = (q: number) => [`search one or two words, p${q}`, ms(p(recall!, q)), ms(p(search!, q)), ratio(p(search!, q) / p(recall!, q))];
    return {
      table: {
        title: `Against @modelcontextprotocol/server-memory (both over stdio, ${int(w.texts.length)} memories / entities, sequential calls)`,
        columns: ['work', 'gateway (brain)', 'server-memory', 'gateway advantage'],
        rows: [
          ['remember one per call', `${int(perSecond(remember!))} /s`, `${int(perSecond(create!))} /s`, ratio(advantage)],
          ['remember one per call, p50', ms(p(remember!, 50)), ms(p(create!, 50)), ratio(p(create!, 50) / p(remember!, 50))],
          row(50),
          row(99),
        ],
      },
      targets: [
        { item: '10. Brain: brain_remember / server-memory create_entities (calls/s)', value: ratio(advantage), target: '— (reported)', met: null },
        { item: '10. Brain: search_nodes p50 / brain_recall p50', value: ratio(p(search!, 50) / p(recall!, 50)), target: '— (reported)', met: null },
      ],
    };
  } finally {
    await memory.close();
  }
}

/** Gateway A: `serve` over HTTP on loopback, keys required, one key for the brain tools. */
async function startA(key: { hash: string }): Promise<{ child: Child; url: string }> {
  const dir = tempDir();
  const config = writeGatewayConfig(dir, {
    dataDir: join(dir, 'data'),
    workspace: dir,
    logLevel: 'info',
    auth: 'key',
    apiKeys: [{ name: 'bench-b', hash: key.hash, scopes: ['brain_*'] }],
    plugins: { brain: {} },
    // The default limit (1,200 requests a minute) would be measured as 429s; it still runs.
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { host: '127.0.0.1', port: 0, rateLimit: { max: 1_000_000_000 } } },
  });
  const child = spawnNode(GATEWAY_BIN, ['serve', '--config', config]);
  child.process.stdin?.end();
  const [address] = await child.listening(1);
  if (address?.kind !== 'http') throw new Error(`gateway A: expected an HTTP listener, got ${JSON.stringify(address)}`);
  return { child, url: `http://${address.host}:${address.port}` };
}

/** Gateway B over stdio: `backend: remote`, relaying every brain_* call to A's REST bridge. */
async function startB(url: string, key: string): Promise<RawMcpClient> {
  const dir = tempDir();
  const config = writeGatewayConfig(dir, { dataDir: join(dir, 'data'), workspace: dir, logLevel: 'warn', plugins: { brain: { config: { backend: 'remote', remote: { url, apiKeyEnv: KEY_ENV } } } } });
  return stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config], { env: { [KEY_ENV]: key } }));
}

/** A brain tool on A's REST bridge, with B's own key; fetch keeps the connection alive. */
function restTool(url: string, key: string): (tool: string, args: Record<string, unknown>) => Promise<any> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return async (tool, args) => {
    const response = await fetch(`${url}/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args) });
    const body = (await response.json()) as { success?: boolean; data?: unknown };
    if (!response.ok || body.success !== true) throw new Error(`A: ${tool} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
}

/** 2. The shared-brain hop: A called directly over REST, through B over stdio, and a local gateway as the reference. */
async function hop(local: RawMcpClient, w: Workload): Promise<{ table: Table; targets: Target[]; notes: string[] }> {
  const key = createApiKey();
  const a = await startA(key);
  const onA = restTool(a.url, key.key);
  let b: RawMcpClient | undefined;
  try {
    // Seeding is not measured: four at a time, while B starts (it sends nothing to A at boot).
    const seeded = performance.now();
    let next = 0;
    const seed = async () => {
      while (next < w.texts.length) await onA('brain_remember', { content: w.texts[next++]!, type: 'fact' });
    };
    [b] = await Promise.all([startB(a.url, key.key), ...Array.from({ length: 4 }, seed)]);
    process.stderr.write(`  brain: gateway A seeded with ${int(w.texts.length)} memories over REST, B started, in ${ms(performance.now() - seeded)}\n`);
    const relayed = b;
    const recallArgs = (i: number) => ({ query: w.queries[i % w.queries.length]!, top_k: TOP_K });
    const recallSides: Call[] = [() => onA('brain_recall', recallArgs(0)), () => relayed.callTool('brain_recall', recallArgs(0)), () => local.callTool('brain_recall', recallArgs(0))];

    // B must be relaying, not answering from elsewhere: the same ids as A for the same query.
    const direct = (await onA('brain_recall', recallArgs(0))) as { memories: Array<{ id: string }> };
    const through = data(await relayed.callTool('brain_recall', recallArgs(0))) as { memories: Array<{ id: string }>; partial?: string };
    if (through.partial !== undefined || JSON.stringify(through.memories.map((m) => m.id)) !== JSON.stringify(direct.memories.map((m) => m.id))) {
      throw new Error(`gateway B's recall differs from A's: ${JSON.stringify(through).slice(0, 300)}`);
    }
    for (let i = 0; i < WARM_CALLS; i++) for (const side of recallSides) await side();

    const [recallA, recallB, recallLocal] = await interleaved(
      [(i) => onA('brain_recall', recallArgs(i)), (i) => relayed.callTool('brain_recall', recallArgs(i)), (i) => local.callTool('brain_recall', recallArgs(i))],
      w.queries.length,
    );
    const half = Math.floor(w.more.length / 2);
    const [rememberA, rememberB] = await interleaved(
      [(i) => onA('brain_remember', { content: w.more[i]!, type: 'observation' }), (i) => relayed.callTool('brain_remember', { content: w.more[half + i]!, type: 'observation' })],
      half,
    );
    const sent = data(await relayed.callTool('brain_remember', { content: 'One more memory, remembered through gateway B.', type: 'observation' }));
    if (sent.queued !== false || sent.memory?.agent_id !== 'bench-b') throw new Error(`gateway B did not store on A: ${JSON.stringify(sent).slice(0, 300)}`);

    const row = (what: string, times: number[], base: number[] | undefined) => [
      what,
      ms(p(times, 50)),
      ms(p(times, 99)),
      base ? ratio(p(base, 50) / p(times, 50)) : '—',
      base ? ms(p(times, 50) - p(base, 50)) : '—',
    ];
    const recallHop = p(recallA!, 50) / p(recallB!, 50);
    const rememberHop = p(rememberA!, 50) / p(rememberB!, 50);
    return {
      table: {
        title: `The shared-brain hop (A holds ${int(w.texts.length)} memories; sequential calls, sides interleaved)`,
        columns: ['call', 'p50', 'p99', 'direct / this (p50)', 'this − direct (p50)'],
        rows: [
          row('brain_recall on A, REST (direct)', recallA!, undefined),
          row('brain_recall on B, stdio → A REST (relayed)', recallB!, recallA),
          row('brain_recall, local back end, stdio (no sharing)', recallLocal!, recallA),
          row('brain_remember on A, REST (direct)', rememberA!, undefined),
          row('brain_remember on B, stdio → A REST (relayed)', rememberB!, rememberA),
        ],
      },
      targets: [
        { item: '10. Brain: brain_recall direct on A / relayed through B (p50)', value: ratio(recallHop), target: '— (reported)', met: null },
        { item: '10. Brain: brain_remember direct on A / relayed through B (p50)', value: ratio(rememberHop), target: '— (reported)', met: null },
        { item: '10. Brain: brain_recall p50, relayed / local back end', value: ratio(p(recallB!, 50) / p(recallLocal!, 50)), target: '— (reported)', met: null },
      ],
      notes: [`Checked: B's recall answers the ids A answers, and B's remember is stored on A (not queued) as the key's name, \`bench-b\`. ${half} remembers a side, each of its own text.`],
    };
  } finally {
    await b?.close();
    await a.child.stop();
  }
}

export async function brainSection(options: BenchOptions): Promise<SectionResult> {
  const w = workload(options.quick ? 200 : 1000);
  const local = await localGateway();
  try {
    const m = await versusMemory(local, w);
    process.stderr.write(`  brain vs server-memory: ${m.table.rows.map((r) => `${r[0]} ${r[1]} / ${r[2]} (${r[3]})`).join('; ')}\n`);
    const h = await hop(local, w);
    return {
      id: 'brain',
      title: '10. Brain: against the memory server, and the shared-brain hop',
      method: [
        `Against server-memory: the gateway with the brain plugin (local back end, default SQLite store, no embeddings) and \`@modelcontextprotocol/server-memory\`, both spawned over stdio, get the same ${int(w.texts.length)} texts (20-60 words from a skewed 20,000-word vocabulary), one per call — \`brain_remember\` against \`create_entities\` with one entity whose one observation is the text — then the same ${SEARCHES} searches of one or two words, \`brain_recall\` (top_k ${TOP_K}) against \`search_nodes\`. The two servers' calls are interleaved one by one, the order swapped every call. ` +
          'The advantage is calls/s of the gateway over the memory server\'s for remembers, and the memory server\'s time over the gateway\'s for searches: above 1× the gateway is faster. ' +
          'They do different work: server-memory reads and rewrites its whole JSONL file on every create and answers a search by reading the file and keeping every entity whose name, type or an observation contains the query as a substring (all of them, no ranking, so a two-word query finds only that exact phrase); the gateway inserts a row and its full-text entries in SQLite and answers the best ten by rank.',
        'The shared-brain hop: gateway A (`mcp-gateway serve`, HTTP on loopback, `auth: key`, one API key with the scope `brain_*`) holds the same texts; gateway B runs over stdio with `backend: remote` pointing at A and that key. ' +
          `Each call is made directly on A's REST bridge (\`POST /tools/brain_*\`, fetch with keep-alive, from the bench process) and on B over stdio, which relays it to the same bridge; \`brain_recall\` also on the local gateway of the first part (its own store, the same texts), the "no sharing" reference. ` +
          `After ${WARM_CALLS} unmeasured calls of each, ${SEARCHES} recalls (the queries above) and then the remembers, the sides interleaved call by call. "direct / this" is A's p50 over the row's: below 1× the row is slower than calling A directly; "this − direct" is the difference of the p50s, for the relayed rows what the hop costs a call. B also keeps a copy of every memory it writes (\`remote.keepWritten\`, for answers while A is down), part of what a relayed remember costs.`,
        ...h.notes,
      ],
      tables: [m.table, h.table],
      targets: [...m.targets, ...h.targets],
      profiles: [],
    };
  } finally {
    await local.close();
  }
}
