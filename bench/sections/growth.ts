import { InMemoryTransport } from '@modelcontextprotocol/client';
import { resolveConfig } from '../../dist/core/config/config.js';
import { createGateway, type Gateway } from '../../dist/core/gateway/gateway.js';
import { mcpFace } from '../../dist/core/mcp/mcp-face.js';
import { createHttpApp } from '../../dist/core/http/http-server.js';
import { createLogger } from '../../dist/core/lib/logger.js';
import { tempDir } from '../lib/children.js';
import { benchGatewayConfig } from '../lib/connect.js';
import { latencies } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { memoryChannel, RawMcpClient } from '../lib/raw-client.js';
import { ms, ratio, us, type SectionResult, type Target } from '../lib/report.js';
import { median } from '../lib/stats.js';

const SIZES = [10, 1000] as const;
/** Issue 20's targets for a catalog of 1,000 tools. */
const TARGETS = { bootMs: 500, listMs: 5 };

interface Measure {
  bootMs: number;
  listMs: number;
  listBytes: number;
  callUs: number;
  httpAppMs: number;
  openApiMs: number;
}

async function boot(dir: string, tools: number): Promise<{ gateway: Gateway; ms: number }> {
  const config = resolveConfig(benchGatewayConfig(dir, { logLevel: 'warn', plugins: { 'bench-echo': { config: { tools } } } }), { env: process.env, cwd: dir });
  const t = performance.now();
  const gateway = await createGateway({ config, log: createLogger(config.logLevel) });
  return { gateway, ms: performance.now() - t };
}

/** One gateway with `tools` tools in the bench plugin: boot, tools/list, call, OpenAPI. */
async function measure(dir: string, tools: number, calls: number): Promise<Measure> {
  const { gateway, ms: bootMs } = await boot(dir, tools);
  try {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
    const client = new RawMcpClient(memoryChannel(clientSide));
    await client.initialize();
    let listBytes = 0;
    const list = async () => {
      // Serialised as a stream transport would, so a large catalog pays for its size.
      listBytes = JSON.stringify(await client.listTools()).length;
    };
    const listTimes = await latencies(list, tools > 100 ? 30 : 300);
    // The bench plugin's tools and the gateway's own (gateway_status, tool search).
    if (JSON.parse(JSON.stringify(await client.listTools())).tools.length !== gateway.catalog.size) throw new Error('tools/list is missing tools');
    const callTimes = await latencies(() => client.callTool('bench_echo', { text: 'hello, gateway' }), calls);
    await client.close();

    const t = performance.now();
    const app = await createHttpApp(gateway, { ...gateway.config.transports.http });
    const httpAppMs = performance.now() - t;
    const t2 = performance.now();
    const document = app.swagger() as { paths: Record<string, unknown> };
    const openApiMs = performance.now() - t2;
    if (!document.paths[`/tools/bench_echo`]) throw new Error('OpenAPI document lacks the tool routes');
    await app.close();
    return { bootMs, listMs: median(listTimes), listBytes, callUs: median(callTimes) * 1000, httpAppMs, openApiMs };
  } finally {
    await gateway.close();
  }
}

export async function growthSection(options: BenchOptions): Promise<SectionResult> {
  const dirs = Object.fromEntries(SIZES.map((n) => [n, tempDir()])) as Record<number, string>;
  const calls = options.quick ? 500 : 3000;
  // Warm-up: module loading, JIT, and each dataDir's migrations happen here, not in the figures.
  for (const n of SIZES) await measure(dirs[n]!, n, 200);
  const runs: Record<number, Measure[]> = { 10: [], 1000: [] };
  const rounds = Math.max(3, options.rounds);
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? SIZES : [...SIZES].reverse();
    for (const n of order) runs[n]!.push(await measure(dirs[n]!, n, calls));
  }
  const med = (n: number, field: keyof Measure) => median(runs[n]!.map((m) => m[field]));
  const row = (label: string, field: keyof Measure, format: (v: number) => string, expectation: string) => {
    const small = med(10, field);
    const large = med(1000, field);
    return [label, format(small), format(large), ratio(large / small), expectation];
  };
  const callGrowth = med(1000, 'callUs') / med(10, 'callUs');
  const callFlat = callGrowth <= 1.15;
  process.stderr.write(
    `  growth: boot ${ms(med(10, 'bootMs'))} → ${ms(med(1000, 'bootMs'))}, list ${ms(med(10, 'listMs'))} → ${ms(med(1000, 'listMs'))}, call ${us(med(10, 'callUs'))} → ${us(med(1000, 'callUs'))}, OpenAPI ${ms(med(10, 'openApiMs'))} → ${ms(med(1000, 'openApiMs'))}\n`,
  );
  const targets: Target[] = [
    { item: '5. Growth: tool call time, 1,000 tools / 10 tools', value: ratio(callGrowth), target: '≤ 1.15× (flat; our expectation)', met: callFlat },
    { item: '5. Growth: boot time with 1,000 tools', value: ms(med(1000, 'bootMs')), target: `≤ ${ms(TARGETS.bootMs)}`, met: med(1000, 'bootMs') <= TARGETS.bootMs },
    { item: '5. Growth: tools/list time with 1,000 tools', value: ms(med(1000, 'listMs')), target: `≤ ${ms(TARGETS.listMs)}`, met: med(1000, 'listMs') <= TARGETS.listMs },
    { item: '5. Growth: OpenAPI document with 1,000 tools', value: ms(med(1000, 'openApiMs')), target: '— (reported)', met: null },
  ];
  return {
    id: 'growth',
    title: '5. Catalog growth: 10 tools vs 1,000 tools',
    method: [
      `The bench-echo plugin configured to record 10 or 1,000 tools (bench_echo plus synthetic tools, each with a schema object of its own: a string with its own maxLength, an enum, an integer range, an array), so the catalog holds 13 or 1,003 tools with the gateway's own three (gateway_status, gateway_find_tools, gateway_call_tool). Everything runs in the bench process with the default config (audit and metrics on): **boot** is \`createGateway\` (config, database, registry, plugin setup; each tool's schemas are checked there and compiled by ajv on first use or by the background compile that starts once the gateway is ready, which runs while list and call are measured); **tools/list** is one request over the in-memory pair with the answer serialised to JSON as a stream transport would (median of 300 or 30 requests); **call** is one sequential \`tools/call\` of bench_echo (median of ${calls}); **HTTP app** is \`createHttpApp\` (fastify with one documented route per tool, swagger plugin, ready); **OpenAPI** is the first \`app.swagger()\` call, which builds the document. One warm-up of each size, then ${rounds} rounds alternating the sizes; medians.`,
      `Issue 20 sets two numbers: boot with 1,000 tools ≤ ${ms(TARGETS.bootMs)} and tools/list ≤ ${ms(TARGETS.listMs)}; the expectation column says what a catalog that scales well does. A call must not get slower with more tools (it is one Map lookup and a precompiled validator); list, boot and document are linear in the number of tools at best, so ~100× for 100× the tools is expected and more than that would be a problem.`,
    ],
    tables: [
      {
        columns: ['', '10 tools', '1,000 tools', 'growth', 'expectation'],
        rows: [
          row('boot (createGateway)', 'bootMs', (v) => ms(v), 'linear (≤ 100×)'),
          row('tools/list answer', 'listMs', (v) => ms(v, 3), 'linear (≤ 100×)'),
          row('tools/list size', 'listBytes', (v) => `${Math.round(v / 1024).toLocaleString('en-US')} KiB`, 'linear'),
          row('tools/call bench_echo', 'callUs', us, `flat (≤ 1.15×): ${callFlat ? 'yes' : '**no**'}`),
          row('HTTP app with REST routes', 'httpAppMs', (v) => ms(v), 'linear (≤ 100×)'),
          row('OpenAPI document generation', 'openApiMs', (v) => ms(v, 2), 'linear (≤ 100×)'),
        ],
      },
    ],
    targets,
    profiles: [],
  };
}
