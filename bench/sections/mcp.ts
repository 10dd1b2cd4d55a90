import { InMemoryTransport } from '@modelcontextprotocol/client';
import { resolveConfig } from '../../dist/core/config/config.js';
import { createGateway } from '../../dist/core/gateway/gateway.js';
import { mcpFace } from '../../dist/core/mcp/mcp-face.js';
import { createLogger } from '../../dist/core/lib/logger.js';
import { BARE_SERVER, GATEWAY_BIN, spawnNode, tempDir, writeGatewayConfig } from '../lib/children.js';
import { benchGatewayConfig, checkEcho, httpClient, modernHttpClient, socketClient, startGatewayServe, stdioClient, type ServingChild } from '../lib/connect.js';
import { closedLoop } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { cpuProfileFlags, summariseProfile, type ProfileSummary } from '../lib/profile.js';
import { memoryChannel, RawMcpClient } from '../lib/raw-client.js';
import { int, met, ratio, us, type SectionResult, type Target } from '../lib/report.js';
import { alternate } from '../lib/stats.js';
import { summariseCosted, withServerCpu } from '../lib/process-cpu.js';
import { createBareServer } from '../servers/bare-mcp.js';

const TARGET = 0.9;
const IN_FLIGHT = 16;
const ARGS = { text: 'hello, gateway' };

type TransportName = 'memory' | 'stdio' | 'stdio-2026' | 'tcp' | 'unix' | 'http' | 'http-2026';
const TRANSPORTS: Array<{ name: TransportName; label: string }> = [
  { name: 'memory', label: 'in-memory pair' },
  { name: 'stdio', label: 'stdio' },
  { name: 'stdio-2026', label: 'stdio, 2026-07-28' },
  { name: 'tcp', label: 'TCP' },
  { name: 'unix', label: 'unix socket' },
  { name: 'http', label: 'Streamable HTTP' },
  { name: 'http-2026', label: 'Streamable HTTP, 2026-07-28' },
];

interface Pair {
  gateway: RawMcpClient;
  bare: RawMcpClient;
  /** The serving processes, whose CPU per call is measured; none for the in-memory pair (the bench's own process). */
  pids?: { gateway: number; bare: number };
  close(): Promise<void>;
}

async function openPair(name: TransportName, servers: { gateway: ServingChild; bare: ServingChild }): Promise<Pair> {
  switch (name) {
    case 'memory': {
      // Both servers in this process, each with its own in-memory pair and the same raw client.
      const dir = tempDir();
      const config = resolveConfig(benchGatewayConfig(dir, { logLevel: 'warn' }), { env: process.env, cwd: dir });
      const gw = await createGateway({ config, log: createLogger(config.logLevel) });
      const [gwClientSide, gwServerSide] = InMemoryTransport.createLinkedPair();
      await (await mcpFace(gw)).connect(gwServerSide, { transport: 'memory', peer: 'memory' });
      const [bareClientSide, bareServerSide] = InMemoryTransport.createLinkedPair();
      await createBareServer().connect(bareServerSide);
      const gateway = new RawMcpClient(memoryChannel(gwClientSide));
      const bare = new RawMcpClient(memoryChannel(bareClientSide));
      await gateway.initialize();
      await bare.initialize();
      return {
        gateway,
        bare,
        close: async () => {
          await Promise.allSettled([gateway.close(), bare.close()]);
          await gw.close();
        },
      };
    }
    case 'stdio': {
      const dir = tempDir();
      const config = writeGatewayConfig(dir, benchGatewayConfig(dir), 'stdio.config.yaml');
      const gatewayChild = spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]);
      const bareChild = spawnNode(BARE_SERVER, ['stdio']);
      const gateway = await stdioClient(gatewayChild);
      const bare = await stdioClient(bareChild);
      return { gateway, bare, pids: { gateway: gatewayChild.pid, bare: bareChild.pid }, close: async () => void (await Promise.allSettled([gateway.close(), bare.close()])) };
    }
    case 'stdio-2026': {
      // Both sides serve either era through SDK v2's serveStdio entry; the clients open with server/discover.
      const dir = tempDir();
      const config = writeGatewayConfig(dir, benchGatewayConfig(dir), 'stdio.config.yaml');
      const gatewayChild = spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]);
      const bareChild = spawnNode(BARE_SERVER, ['stdio-2026']);
      const gateway = await stdioClient(gatewayChild, true);
      const bare = await stdioClient(bareChild, true);
      return { gateway, bare, pids: { gateway: gatewayChild.pid, bare: bareChild.pid }, close: async () => void (await Promise.allSettled([gateway.close(), bare.close()])) };
    }
    case 'tcp':
    case 'unix': {
      const gateway = await socketClient(servers.gateway[name], servers.gateway.key);
      const bare = await socketClient(servers.bare[name]);
      return { gateway, bare, pids: servingPids(servers), close: async () => void (await Promise.allSettled([gateway.close(), bare.close()])) };
    }
    case 'http': {
      const gateway = await httpClient(servers.gateway.http, servers.gateway.key);
      const bare = await httpClient(servers.bare.http);
      return { gateway, bare, pids: servingPids(servers), close: async () => void (await Promise.allSettled([gateway.close(), bare.close()])) };
    }
    case 'http-2026': {
      const gateway = modernHttpClient(servers.gateway.http, servers.gateway.key);
      const bare = modernHttpClient(servers.bare.http);
      return { gateway, bare, pids: servingPids(servers), close: async () => void (await Promise.allSettled([gateway.close(), bare.close()])) };
    }
  }
}

const servingPids = (servers: { gateway: ServingChild; bare: ServingChild }) => ({ gateway: servers.gateway.child.pid, bare: servers.bare.child.pid });

export async function mcpSection(options: BenchOptions, servers: { gateway: ServingChild; bare: ServingChild }): Promise<SectionResult> {
  const rows: string[][] = [];
  const targets: Target[] = [];
  const worst: Array<{ name: TransportName; inFlight: number; ratio: number }> = [];
  for (const transport of TRANSPORTS) {
    const pair = await openPair(transport.name, servers);
    try {
      await checkEcho(pair.gateway, `gateway over ${transport.name}`);
      await checkEcho(pair.bare, `bare over ${transport.name}`);
      // Both sides reach their steady speed first (BenchOptions.warmSeconds); every mode is then measured warm.
      for (const client of [pair.gateway, pair.bare]) await closedLoop(() => client.callTool('bench_echo', ARGS), IN_FLIGHT, options.warmSeconds);
      for (const inFlight of [1, IN_FLIGHT]) {
        const side = (client: RawMcpClient, pid: number | undefined) => () =>
          withServerCpu(pid, () => closedLoop(() => client.callTool('bench_echo', ARGS), inFlight, options.seconds));
        const result = summariseCosted(
          await alternate({ name: 'gateway', run: side(pair.gateway, pair.pids?.gateway) }, { name: 'bare', run: side(pair.bare, pair.pids?.bare) }, options.rounds),
        );
        const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
        const ok = result.ratio >= TARGET;
        rows.push([
          transport.label,
          mode,
          int(result.a),
          int(result.b),
          ratio(result.ratio),
          `${ratio(Math.min(...result.ratios))}–${ratio(Math.max(...result.ratios))}`,
          pair.pids ? `${us(result.cpuA)} / ${us(result.cpuB)}` : '—',
          `≥ ${ratio(TARGET)}`,
          met(ok),
        ]);
        targets.push({ item: `1. MCP ${transport.label}, ${mode}: gateway / bare SDK server`, value: ratio(result.ratio), target: `≥ ${ratio(TARGET)}`, met: ok });
        worst.push({ name: transport.name, inFlight, ratio: result.ratio });
        process.stderr.write(`  mcp ${transport.name} ${mode}: gateway ${int(result.a)}/s, bare ${int(result.b)}/s, ${ratio(result.ratio)}\n`);
      }
    } finally {
      await pair.close();
    }
  }

  const profiles: ProfileSummary[] = [];
  const missed = worst.filter((w) => w.ratio < TARGET && w.name !== 'memory').sort((a, b) => a.ratio - b.ratio);
  if (options.profile && missed.length > 0) {
    // The stdio run is what MCP clients use most; the worst other transport is profiled too.
    const chosen = [missed.find((m) => m.name === 'stdio'), missed.find((m) => m.name !== 'stdio')].filter((m) => m !== undefined);
    for (const m of chosen) profiles.push(await profileTransport(m.name, m.inFlight, Math.max(4, options.seconds * 2)));
  }

  return {
    id: 'mcp',
    title: '1. MCP round trips: gateway vs a bare SDK server',
    method: [
      'One `tools/call` of the trivial tool `bench_echo` per round trip (`{"text": "hello, gateway"}` in, the same text back), sequential and with 16 calls in flight on one session. **Gateway**: the real binary (`bin/mcp-gateway.js --stdio`, and `serve` for TCP, the unix socket and `/mcp`) with the default config (the owner key sent on TCP and `/mcp`, as `auth: key` asks) plus the `bench-echo` plugin (bench/plugins/bench-echo, plain JS, loaded through a registry folder like any third-party plugin): ajv validation of the arguments against the tool\'s JSON Schema, the per-call timeout, the audit row (journal line before the reply, folded into SQLite), Prometheus metrics, pino at `info`. The in-memory pair runs the gateway in the bench process (`createGateway`, logs at `warn`). **Baseline**: SDK v2\'s low-level `Server` (`@modelcontextprotocol/server` 2.4, the SDK the gateway serves MCP with) with the same handler and no validation (bench/servers/bare-server.js), on the same transport: `StdioServerTransport` on stdin/stdout and on each TCP/unix connection (the SDK\'s own NDJSON framing; the gateway uses its own `NdjsonTransport`, same wire format), `NodeStreamableHTTPServerTransport` (`@modelcontextprotocol/node`) on `node:http` for HTTP (the gateway serves the POSTs of an open session on node\'s HTTP server ahead of fastify, and the same SDK transport answers them). **2026-07-28** over HTTP: no initialize and no session, the protocol version and client in every request\'s `_meta` and the `Mcp-Method`/`Mcp-Name` headers; both sides answer with SDK v2\'s era entry (`createMcpHandler`, strict, on `toNodeHandler`) making a `Server` per request, the gateway after its guard and rate limit. **2026-07-28 over stdio**: the client opens with `server/discover` and sends the envelope with every request; both sides serve either era through SDK v2\'s `serveStdio` entry (the bare side: `bare-server.js stdio-2026`). One change to the default config: the HTTP rate limit (1,200 requests a minute) is raised out of reach, or a load test would measure 429 answers; the limiter still runs on every request.',
      `Client: a thin JSON-RPC client (bench/lib/raw-client.ts) that matches answers to ids and does not parse results with zod, the same code for both sides, so that server cost dominates. Each transport opens one session per side and first runs each side for ${options.warmSeconds} s at ${IN_FLIGHT} in flight, unmeasured, so that both are at their steady speed (V8 has tiered up the hot path, the heap has settled: where a long-running server spends its life; the first seconds after start are slower on both sides, the gateway's more so); then each mode runs ${options.rounds} rounds of ${options.seconds} s per side, alternating which side goes first; the table gives the median calls/s of each side and the median of the per-round ratios (with their range), and the median CPU time (user and system, from \`/proc/<pid>/stat\`, to the 10 ms tick) that each side's serving process spent per call: a throughput ratio also carries the client's cost and the host's swings (the client runs on a CPU of its own, see "Processes" above), while the CPU per call is the server's own cost (none for the in-memory pair, which runs in the bench process).`,
    ],
    tables: [
      {
        columns: ['transport', 'calls', 'gateway calls/s', 'bare calls/s', 'ratio', 'ratio range', 'server CPU per call (gateway / bare)', 'target', 'met'],
        rows,
      },
    ],
    targets,
    profiles,
  };
}

/** A CPU profile of the gateway child serving `transport` under the same load. */
async function profileTransport(transport: TransportName, inFlight: number, seconds: number): Promise<ProfileSummary> {
  const { nodeArgs, dir } = cpuProfileFlags();
  const work = tempDir();
  let client: RawMcpClient;
  let stop: () => Promise<void>;
  if (transport === 'stdio' || transport === 'stdio-2026') {
    const config = writeGatewayConfig(work, benchGatewayConfig(work), 'stdio.config.yaml');
    client = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config], { nodeArgs }), transport === 'stdio-2026');
    stop = () => client.close();
  } else {
    const served = await startGatewayServe(work, nodeArgs);
    client =
      transport === 'http'
        ? await httpClient(served.http, served.key)
        : transport === 'http-2026'
          ? modernHttpClient(served.http, served.key)
          : await socketClient(served[transport as 'tcp' | 'unix'], served.key);
    stop = async () => {
      await client.close();
      await served.child.stop(10_000);
    };
  }
  await closedLoop(() => client.callTool('bench_echo', ARGS), inFlight, seconds);
  await stop();
  const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
  return summariseProfile(dir, `Gateway over ${transport}, ${mode}`);
}
