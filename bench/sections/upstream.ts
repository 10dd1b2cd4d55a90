import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_BIN, spawnNode, tempDir, writeGatewayConfig } from '../lib/children.js';
import { authHeaders, startGatewayServe, stdioClient, type ServingChild } from '../lib/connect.js';
import { SMALL_TEXT as SMALL } from '../lib/fs-fixtures.js';
import { cannon, closedLoop, timedLoop, type Load } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { FS_SERVER, upstreamPlugin } from '../lib/peers.js';
import { cpuProfileFlags, summariseProfile, type ProfileSummary } from '../lib/profile.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { alternate, median } from '../lib/stats.js';

const IN_FLIGHT = 16;
/** As in the REST section, so that the two REST figures are taken under the same load. */
const CONNECTIONS = 10;
/**
 * No target in issue 6 for a hop. Below this ratio (over stdio, 16 in flight) the gateway
 * spends more CPU relaying a call than the filesystem server spends serving it: a full run then
 * profiles the gateway so that the page shows where.
 */
const PROFILE_BELOW = 0.5;
const TOOL = 'fs_read_text_file';
type Call = () => Promise<unknown>;

/** Alternating rounds of two loads; one table row with the medians and the median per-round ratios. */
async function compare(options: BenchOptions, hop: () => Promise<Load>, base: () => Promise<Load>, label: readonly string[]): Promise<{ row: string[]; ratio: number }> {
  const { rounds } = await alternate({ name: 'hop', run: hop }, { name: 'base', run: base }, options.rounds);
  const pick = (side: 0 | 1, field: keyof Load) => median(rounds.map((r) => r[side][field]));
  const ratios = rounds.map(([h, b]) => h.perSecond / b.perSecond);
  const r = median(ratios);
  const latency = (field: 'p50' | 'p99') => `${ms(pick(0, field))} / ${ms(pick(1, field))}`;
  // What the hop adds to one call, from the per-round medians (sequential calls make this the hop's own latency).
  const added = median(rounds.map(([h, b]) => h.p50 - b.p50));
  return {
    row: [...label, int(pick(0, 'perSecond')), int(pick(1, 'perSecond')), ratio(r), `${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}`, latency('p50'), latency('p99'), ms(added)],
    ratio: r,
  };
}

/** The columns after the two calls/s columns; each latency cell is "gateway / base". */
const columns = (base: string) => ['ratio (calls/s)', 'ratio range', `p50 (gateway / ${base})`, `p99 (gateway / ${base})`];

const textOf = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text ?? '';

/** A call of read_text_file (or its gateway name) that fails the run on any other answer. */
function reader(client: RawMcpClient, tool: string, path: string): Call {
  return async () => {
    if (textOf(await client.callTool(tool, { path })) !== SMALL) throw new Error(`${tool} returned something else`);
  };
}

export async function upstreamSection(options: BenchOptions): Promise<SectionResult> {
  const workspace = tempDir('mcpgw-bench-ws-');
  const file = join(workspace, 'small.txt');
  writeFileSync(file, SMALL);
  const direct = await stdioClient(spawnNode(FS_SERVER, [workspace]));
  const readDirect = reader(direct, 'read_text_file', file);
  const hopRows: string[][] = [];
  const targets: Target[] = [];
  const profiles: ProfileSummary[] = [];
  let served: ServingChild | undefined;
  try {
    // 1. The gateway over stdio with one upstream, against the same server called directly.
    const work = tempDir();
    const config = writeGatewayConfig(work, { dataDir: join(work, 'data'), workspace, logLevel: 'info', plugins: upstreamPlugin(workspace) }, 'upstream.config.yaml');
    const gateway = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]));
    let stdio16 = Number.NaN;
    try {
      const readGateway = reader(gateway, TOOL, file);
      await readGateway();
      await readDirect();
      for (const read of [readGateway, readDirect]) await closedLoop(read, IN_FLIGHT, options.warmSeconds);
      for (const inFlight of [1, IN_FLIGHT]) {
        const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
        const { row, ratio: r } = await compare(options, () => timedLoop(readGateway, inFlight, options.seconds), () => timedLoop(readDirect, inFlight, options.seconds), ['gateway `--stdio`', mode]);
        hopRows.push(row);
        targets.push({ item: `8. Upstream hop: read_text_file through the gateway over stdio / direct, ${mode}`, value: ratio(r), target: '— (reported)', met: null });
        process.stderr.write(`  upstream stdio ${mode}: ${row.slice(2).join(', ')}\n`);
        if (inFlight === IN_FLIGHT) stdio16 = r;
      }
    } finally {
      await gateway.close();
    }

    // 2. The REST bridge of `serve`, under autocannon, against the direct stdio server.
    served = await startGatewayServe(tempDir(), [], { workspace, plugins: upstreamPlugin(workspace) });
    const { key } = served;
    const url = `http://${served.rest.host}:${served.rest.port}/tools/${TOOL}`;
    const body = JSON.stringify({ path: file });
    await checkRest(url, body, key);
    const seconds = Math.max(1, options.seconds); // autocannon runs whole seconds
    await cannon(url, body, CONNECTIONS, options.warmSeconds, key);
    const rest = await compare(options, () => cannon(url, body, CONNECTIONS, seconds, key), () => timedLoop(readDirect, CONNECTIONS, seconds), ['REST `POST /tools/…` (HTTP client)', `${CONNECTIONS} in flight`]);
    hopRows.push(rest.row);
    targets.push({ item: `8. Upstream hop: REST through the gateway / direct over stdio, ${CONNECTIONS} in flight`, value: ratio(rest.ratio), target: '— (reported)', met: null });
    process.stderr.write(`  upstream REST: ${rest.row.slice(2).join(', ')}\n`);

    if (options.profile && stdio16 < PROFILE_BELOW) profiles.push(await profileHop(workspace, file, Math.max(4, options.seconds * 2)));
  } finally {
    await Promise.allSettled([direct.close(), served?.child.stop()]);
  }

  const tables: Table[] = [
    { title: 'The gateway hop against the filesystem server called directly over stdio', columns: ['gateway face', 'calls', 'gateway calls/s', 'direct calls/s', ...columns('direct'), 'added at p50'], rows: hopRows },
  ];
  return {
    id: 'upstream',
    title: '8. Upstream hop: one gateway in front of an MCP server',
    method: [
      `What putting the gateway in front of an existing MCP server costs a call. The server is \`@modelcontextprotocol/server-filesystem\` (its \`dist/index.js\` on plain node), allowed a temp folder, and every call reads the same ${SMALL.length}-byte text file with \`read_text_file\` by absolute path, the answer checked. **Direct**: the raw client (bench/lib/raw-client.ts) over the server's own stdio. **Gateway**: the real binary with the upstream plugin alone and one server, \`fs\`, which the gateway spawns and talks to over stdio, so that the tool is \`${TOOL}\`; the default config otherwise (the arguments validated against the server's schema, its breaker, the audit row, metrics). Over stdio (\`--stdio\`) the same raw client drives both, so the ratio is the hop alone: one more process, one more JSON-RPC encode/decode each way, and the gateway's own work per call. Ratio = gateway / direct (calls/s; below 1 is the hop's cost), median of ${options.rounds} alternating rounds of ${options.seconds} s after ${options.warmSeconds} s unmeasured per side; latencies are per call, median of the rounds' percentiles; "added at p50" is the median over the rounds of gateway p50 − direct p50.`,
      `The REST row compares different things on purpose: \`POST /tools/${TOOL}\` on \`serve\` under autocannon (${CONNECTIONS} connections, as in section 2, the owner key sent) against the same raw stdio client at ${CONNECTIONS} in flight. It is an HTTP hop measured with an HTTP client against a stdio client with no HTTP at all, so its ratio includes the HTTP face (parsing, the guard, the key, the rate limiter, the JSON envelope) and autocannon's own work as well as the relay; it answers "what does an HTTP caller get compared with a local stdio caller", not what the relay alone costs (the stdio rows say that). No HTTP face of the filesystem server exists to compare with.`,
      `The same hop behind the HTTP gateways a user would otherwise pick (supergateway, mcp-proxy, mcp-hub), for reads and listings, over Streamable HTTP and REST, is measured in "8. Peers" below. A full run profiles the gateway's stdio hop (16 in flight) when that ratio is below ${PROFILE_BELOW.toFixed(1)}, where relaying costs more than serving.`,
    ],
    tables,
    targets,
    profiles,
  };
}

async function checkRest(url: string, body: string, key?: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body });
  const answer = (await response.json()) as { success?: boolean; data?: unknown };
  if (response.status !== 200 || answer.success !== true || !JSON.stringify(answer.data).includes(JSON.stringify(SMALL).slice(1, -1))) {
    throw new Error(`${url}: unexpected answer ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** A CPU profile of the gateway relaying read_text_file over stdio, 16 in flight. */
async function profileHop(workspace: string, file: string, seconds: number): Promise<ProfileSummary> {
  const { nodeArgs, dir } = cpuProfileFlags();
  const work = tempDir();
  const config = writeGatewayConfig(work, { dataDir: join(work, 'data'), workspace, logLevel: 'info', plugins: upstreamPlugin(workspace) }, 'upstream.config.yaml');
  const client = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config], { nodeArgs }));
  await closedLoop(reader(client, TOOL, file), IN_FLIGHT, seconds);
  await client.close();
  return summariseProfile(dir, `Gateway relaying ${TOOL} to server-filesystem over stdio, ${IN_FLIGHT} in flight`);
}
