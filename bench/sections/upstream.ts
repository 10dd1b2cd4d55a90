import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { GATEWAY_BIN, ROOT, spawnNode, tempDir, writeGatewayConfig, type Child } from '../lib/children.js';
import { authHeaders, httpClient, startGatewayServe, stdioClient, type ServingChild } from '../lib/connect.js';
import { closedLoop } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { cpuProfileFlags, summariseProfile, type ProfileSummary } from '../lib/profile.js';
import { httpChannel, RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { alternate, median, percentile } from '../lib/stats.js';

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
const FS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** One sample: throughput and per-call latency percentiles (ms). */
interface Load {
  perSecond: number;
  p50: number;
  p99: number;
}
type Call = () => Promise<unknown>;

/** A closed loop that also times every call: latency at a given concurrency, not 1/throughput. */
async function measure(call: Call, inFlight: number, seconds: number): Promise<Load> {
  const times: number[] = [];
  const timed = async () => {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  };
  const { perSecond } = await closedLoop(timed, inFlight, seconds);
  return { perSecond, p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** autocannon against the REST route; latencies from its per-response event, as in sections/rest.ts. */
async function cannon(url: string, body: string, seconds: number, key?: string): Promise<Load> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body, connections: CONNECTIONS, duration: seconds },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => void times.push(responseTime));
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers, ${result.timeouts} timeouts`);
  }
  return { perSecond: result.requests.total / (result.duration || seconds), p50: percentile(times, 50), p99: percentile(times, 99) };
}

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

function upstreamPlugins(workspace: string): Record<string, unknown> {
  return { upstream: { config: { servers: [{ name: 'fs', command: process.execPath, args: [FS_SERVER, workspace] }] } } };
}

/** A 1 KiB text file: 16 lines of 64 bytes. */
const SMALL = Array.from({ length: 16 }, (_, i) => `line ${String(i + 1).padStart(2, '0')} of the upstream benchmark file: ${'x'.repeat(23)}\n`).join('');

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
  const peerRows: string[][] = [];
  const notes: string[] = [];
  const targets: Target[] = [];
  const profiles: ProfileSummary[] = [];
  let served: ServingChild | undefined;
  try {
    // 1. The gateway over stdio with one upstream, against the same server called directly.
    const work = tempDir();
    const config = writeGatewayConfig(work, { dataDir: join(work, 'data'), workspace, logLevel: 'info', plugins: upstreamPlugins(workspace) }, 'upstream.config.yaml');
    const gateway = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]));
    let stdio16 = Number.NaN;
    try {
      const readGateway = reader(gateway, TOOL, file);
      await readGateway();
      await readDirect();
      for (const read of [readGateway, readDirect]) await closedLoop(read, IN_FLIGHT, options.warmSeconds);
      for (const inFlight of [1, IN_FLIGHT]) {
        const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
        const { row, ratio: r } = await compare(options, () => measure(readGateway, inFlight, options.seconds), () => measure(readDirect, inFlight, options.seconds), ['gateway `--stdio`', mode]);
        hopRows.push(row);
        targets.push({ item: `8. Upstream hop: read_text_file through the gateway over stdio / direct, ${mode}`, value: ratio(r), target: '— (reported)', met: null });
        process.stderr.write(`  upstream stdio ${mode}: ${row.slice(2).join(', ')}\n`);
        if (inFlight === IN_FLIGHT) stdio16 = r;
      }
    } finally {
      await gateway.close();
    }

    // 2. The REST bridge of `serve`, under autocannon, against the direct stdio server.
    served = await startGatewayServe(tempDir(), [], { workspace, plugins: upstreamPlugins(workspace) });
    const { key } = served;
    const url = `http://${served.rest.host}:${served.rest.port}/tools/${TOOL}`;
    const body = JSON.stringify({ path: file });
    await checkRest(url, body, key);
    const seconds = Math.max(1, options.seconds); // autocannon runs whole seconds
    await cannon(url, body, options.warmSeconds, key);
    const rest = await compare(options, () => cannon(url, body, seconds, key), () => measure(readDirect, CONNECTIONS, seconds), ['REST `POST /tools/…` (HTTP client)', `${CONNECTIONS} in flight`]);
    hopRows.push(rest.row);
    targets.push({ item: `8. Upstream hop: REST through the gateway / direct over stdio, ${CONNECTIONS} in flight`, value: ratio(rest.ratio), target: '— (reported)', met: null });
    process.stderr.write(`  upstream REST: ${rest.row.slice(2).join(', ')}\n`);

    // 3. Peers doing the same hop, stdio server behind Streamable HTTP, against our /mcp.
    const ours = await httpClient(served.http, key);
    try {
      const readOurs = reader(ours, TOOL, file);
      await readOurs();
      await closedLoop(readOurs, IN_FLIGHT, options.warmSeconds);
      // A peer that cannot start or fails a call is reported in one line; it does not fail the bench.
      const didNotRun = (peer: Peer, err: unknown) => {
        const why = String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 200);
        notes.push(`**${peer.name}** could not be measured here: ${why}`);
        process.stderr.write(`  upstream ${peer.name}: could not be measured: ${why}\n`);
      };
      for (const peer of PEERS) {
        const started = await startPeer(peer, workspace).catch((err: Error) => err);
        if (started instanceof Error) {
          didNotRun(peer, started);
          continue;
        }
        try {
          const readPeer = reader(started.client, 'read_text_file', file);
          await readPeer();
          await closedLoop(readPeer, IN_FLIGHT, options.warmSeconds);
          for (const inFlight of [1, IN_FLIGHT]) {
            const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
            const { row, ratio: r } = await compare(options, () => measure(readOurs, inFlight, options.seconds), () => measure(readPeer, inFlight, options.seconds), [peer.label, mode]);
            peerRows.push(row);
            targets.push({ item: `8. Upstream hop over Streamable HTTP: gateway /mcp / ${peer.name}, ${mode}`, value: ratio(r), target: '— (reported)', met: null });
            process.stderr.write(`  upstream /mcp vs ${peer.name} ${mode}: ${row.slice(2).join(', ')}\n`);
          }
        } catch (err) {
          didNotRun(peer, err);
        } finally {
          await started.stop();
        }
      }
    } finally {
      await ours.close();
    }

    if (options.profile && stdio16 < PROFILE_BELOW) profiles.push(await profileHop(workspace, file, Math.max(4, options.seconds * 2)));
  } finally {
    await Promise.allSettled([direct.close(), served?.child.stop()]);
  }

  const tables: Table[] = [
    { title: 'The gateway hop against the filesystem server called directly over stdio', columns: ['gateway face', 'calls', 'gateway calls/s', 'direct calls/s', ...columns('direct'), 'added at p50'], rows: hopRows },
  ];
  if (peerRows.length > 0) tables.push({ title: 'The same hop over Streamable HTTP: the gateway\'s /mcp against peers', columns: ['peer', 'calls', 'gateway /mcp calls/s', 'peer calls/s', ...columns('peer'), 'gateway − peer at p50'], rows: peerRows });
  return {
    id: 'upstream',
    title: '8. Upstream hop: one gateway in front of an MCP server',
    method: [
      `What putting the gateway in front of an existing MCP server costs a call. The server is \`@modelcontextprotocol/server-filesystem\` (its \`dist/index.js\` on plain node), allowed a temp folder, and every call reads the same ${SMALL.length}-byte text file with \`read_text_file\` by absolute path, the answer checked. **Direct**: the raw client (bench/lib/raw-client.ts) over the server's own stdio. **Gateway**: the real binary with the upstream plugin alone and one server, \`fs\`, which the gateway spawns and talks to over stdio, so that the tool is \`${TOOL}\`; the default config otherwise (the arguments validated against the server's schema, its breaker, the audit row, metrics). Over stdio (\`--stdio\`) the same raw client drives both, so the ratio is the hop alone: one more process, one more JSON-RPC encode/decode each way, and the gateway's own work per call. Ratio = gateway / direct (calls/s; below 1 is the hop's cost), median of ${options.rounds} alternating rounds of ${options.seconds} s after ${options.warmSeconds} s unmeasured per side; latencies are per call, median of the rounds' percentiles; "added at p50" is the median over the rounds of gateway p50 − direct p50.`,
      `The REST row compares different things on purpose: \`POST /tools/${TOOL}\` on \`serve\` under autocannon (${CONNECTIONS} connections, as in section 2, the owner key sent) against the same raw stdio client at ${CONNECTIONS} in flight. It is an HTTP hop measured with an HTTP client against a stdio client with no HTTP at all, so its ratio includes the HTTP face (parsing, the guard, the key, the rate limiter, the JSON envelope) and autocannon's own work as well as the relay; it answers "what does an HTTP caller get compared with a local stdio caller", not what the relay alone costs (the stdio rows say that). No HTTP face of the filesystem server exists to compare with.`,
      `Peers: \`supergateway\` (\`--outputTransport streamableHttp --stateful\`: its stateless mode spawns the server for every request) and \`mcp-proxy\` (punkpeye's, \`--server stream\`, its defaults otherwise), devDependencies run from node_modules on the same node, each in front of its own copy of the same server over stdio, against the gateway's \`/mcp\` on \`serve\` with the same upstream (the owner key sent). Each is driven by the same raw Streamable HTTP client (one session, keep-alive), ${options.warmSeconds} s unmeasured first. Ratio = gateway / peer (above 1: the gateway's hop is the cheaper). supergateway has no host option and listens on every interface, on a free port for the length of its run. A full run profiles the gateway's stdio hop (16 in flight) when that ratio is below ${PROFILE_BELOW.toFixed(1)}, where relaying costs more than serving.`,
      ...notes,
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

interface Peer {
  name: string;
  label: string;
  script: string;
  args(port: number, workspace: string): string[];
}

const PEERS: Peer[] = [
  {
    name: 'supergateway',
    label: 'supergateway (Streamable HTTP, stateful)',
    script: join(ROOT, 'node_modules', 'supergateway', 'dist', 'index.js'),
    // --stdio takes one shell command line.
    args: (port, workspace) => ['--stdio', [process.execPath, FS_SERVER, workspace].map(shellQuote).join(' '), '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
  },
  {
    name: 'mcp-proxy',
    label: 'mcp-proxy (Streamable HTTP)',
    script: join(ROOT, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs'),
    args: (port, workspace) => ['--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', process.execPath, FS_SERVER, workspace],
  },
];

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A port free on loopback now; the peers take a number, not 0. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a peer and returns a client with its session open. The peers print no address we can
 * wait for, so initialize is tried until it is answered. Throws with a one-line reason.
 */
async function startPeer(peer: Peer, workspace: string): Promise<{ client: RawMcpClient; stop(): Promise<void> }> {
  if (!existsSync(peer.script)) throw new Error(`not installed (${peer.script.slice(ROOT.length)} is missing; \`npm ci\` installs it as a devDependency)`);
  const port = await freePort();
  // stdin stays open: supergateway exits when its stdin ends.
  const child: Child = spawnNode(peer.script, peer.args(port, workspace));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new RawMcpClient(httpChannel(`http://127.0.0.1:${port}/mcp`, 32));
    try {
      await client.initialize();
      return {
        client,
        stop: async () => {
          await client.close();
          await child.stop();
        },
      };
    } catch (err) {
      await client.close();
      const exited = child.process.exitCode !== null || child.process.signalCode !== null;
      if (exited || Date.now() > deadline) {
        await child.stop();
        const last = child.stderrTail.filter((l) => l.trim()).at(-1) ?? (err as Error).message;
        throw new Error(`${exited ? `exited (${child.process.exitCode ?? child.process.signalCode})` : 'no answer to initialize in 30 s'}: ${last.slice(0, 200)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A CPU profile of the gateway relaying read_text_file over stdio, 16 in flight. */
async function profileHop(workspace: string, file: string, seconds: number): Promise<ProfileSummary> {
  const { nodeArgs, dir } = cpuProfileFlags();
  const work = tempDir();
  const config = writeGatewayConfig(work, { dataDir: join(work, 'data'), workspace, logLevel: 'info', plugins: upstreamPlugins(workspace) }, 'upstream.config.yaml');
  const client = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config], { nodeArgs }));
  await closedLoop(reader(client, TOOL, file), IN_FLIGHT, seconds);
  await client.close();
  return summariseProfile(dir, `Gateway relaying ${TOOL} to server-filesystem over stdio, ${IN_FLIGHT} in flight`);
}
