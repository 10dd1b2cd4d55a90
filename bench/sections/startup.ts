import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { loadRegistry } from '../../dist/core/plugins/registry.js';
import { BARE_SERVER, BENCH_REGISTRY, GATEWAY_BIN, ROOT, retainedHeap, rssOf, spawnNode, tempDir, writeGatewayConfig, type Child } from '../lib/children.js';
import { stdioClient } from '../lib/connect.js';
import { fixedCount } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { ndjsonChannel, RawMcpClient } from '../lib/raw-client.js';
import { int, mib, ms, type SectionResult, type Target } from '../lib/report.js';
import { median, slope } from '../lib/stats.js';

const FS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const HEAP_PROBE = pathToFileURL(join(ROOT, 'bench', 'lib', 'heap-probe.js')).href;
/**
 * What "no growth beyond noise" means for RSS: no more than the bare server's own growth in
 * the same run (which holds no state: what V8 sizing its heap under this load does to RSS),
 * plus this margin, a few steps of V8's heap growth.
 */
const GROWTH_MARGIN = 5 * 1024 * 1024;
/** Retained heap (after full GCs) that may appear after warm-up without being a leak: lazily built caches. */
const RETAINED_LIMIT = 2 * 1024 * 1024;
const IN_FLIGHT = 16;

/**
 * A config as written, and the same with `transports.stdio.catalogCache: false`: every start of
 * that one boots before it answers, as the first start after an install or a config change does.
 */
interface StartConfigs {
  file: string;
  uncached: string;
  plugins: string[];
}

function startConfigs(work: string, name: string, config: Record<string, unknown>): Omit<StartConfigs, 'plugins'> {
  return {
    file: writeGatewayConfig(work, config, `${name}.config.yaml`),
    uncached: writeGatewayConfig(work, { ...config, dataDir: `${config.dataDir as string}-uncached`, transports: { stdio: { catalogCache: false } } }, `${name}-uncached.config.yaml`),
  };
}

/** Every plugin the gateway ships (core/registry/*.yaml), plus bench-echo for the memory run's calls. */
function allPluginsConfig(work: string): StartConfigs {
  const shipped = [...loadRegistry([join(ROOT, 'core', 'registry')]).keys()];
  const plugins = Object.fromEntries([...shipped, 'bench-echo'].map((name) => [name, {}]));
  return { ...startConfigs(work, 'all', { dataDir: join(work, 'data'), workspace: work, logLevel: 'info', registries: [BENCH_REGISTRY], plugins }), plugins: shipped };
}

/** The plugins the shipped gateway.config.yaml enables, with their config there: what `npm start` and a desktop client's `--stdio` run. */
function shippedPluginsConfig(work: string): StartConfigs {
  const shipped = (parse(readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8')) as { plugins: Record<string, unknown> }).plugins;
  return { ...startConfigs(work, 'shipped', { dataDir: join(work, 'shipped-data'), workspace: work, logLevel: 'info', plugins: shipped }), plugins: Object.keys(shipped) };
}

/** Start-up targets of issue 20, as a time ratio to the filesystem server (lower is faster). */
const STARTUP_TARGETS = { shipped: 1.0, every: 1.3 };

/** Spawn → initialize → tools/list answered, in ms; the child is stopped afterwards. */
async function timeToList(spawn: () => Child): Promise<{ ms: number; tools: number; bootMs?: number }> {
  const started = performance.now();
  const child = spawn();
  const client = new RawMcpClient(ndjsonChannel(child.process.stdout!, child.process.stdin!, async () => void child.process.stdin!.end()));
  await client.initialize();
  const { tools } = await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  await Promise.race([child.exited, new Promise((r) => setTimeout(r, 1000))]);
  await child.stop(1000);
  const ready = child.stderrTail.map((l) => /"msg":"gateway ready"/.test(l) && /"bootMs":(\d+)/.exec(l)?.[1]).find(Boolean);
  return { ms: elapsed, tools: tools.length, bootMs: ready ? Number(ready) : undefined };
}

interface MemoryRun {
  idle: number;
  warm: number;
  end: number;
  settled: number;
  samples: Array<[number, number]>;
  /** Heap used after full GCs, before the first call and after the last. */
  retainedIdle: number;
  retainedEnd: number;
}

/** RSS of a stdio server: idle, after the first tenth of the calls, every tenth, and 2 s after. */
async function memoryRun(spawn: () => Child, calls: number): Promise<MemoryRun> {
  const child = spawn();
  const client = await stdioClient(child);
  try {
    await client.listTools();
    // Past the gateway's background compile of its tool schemas (250 ms after ready, ~0.7 s
    // for every plugin): what it keeps is the idle state, not growth under calls.
    await new Promise((r) => setTimeout(r, 2500));
    const idle = await rssOf(child.pid);
    // Forced collections only outside the measured stretch, so they do not reshape its RSS.
    const retainedIdle = await retainedHeap(child);
    const step = Math.max(1, Math.round(calls / 10));
    const samples: Array<[number, number]> = [];
    for (let done = 0; done < calls; done += step) {
      await fixedCount(() => client.callTool('bench_echo', { text: 'hello, gateway' }), IN_FLIGHT, Math.min(step, calls - done));
      samples.push([done + step, await rssOf(child.pid)]);
    }
    const end = samples[samples.length - 1]![1];
    await new Promise((r) => setTimeout(r, 2000));
    const settled = await rssOf(child.pid);
    const retainedEnd = await retainedHeap(child);
    return { idle, warm: samples[0]![1], end, settled, samples, retainedIdle, retainedEnd };
  } finally {
    await client.close();
  }
}

export async function startupSection(options: BenchOptions): Promise<SectionResult> {
  const work = tempDir();
  const every = allPluginsConfig(work);
  const { file, plugins } = every;
  const shipped = shippedPluginsConfig(work);
  const fsRoot = tempDir('mcpgw-bench-ws-');
  // The cached catalog (core/mcp/stdio-early.ts) is written by the discarded first start of each side.
  const sides = {
    shipped: () => spawnNode(GATEWAY_BIN, ['--stdio', '--config', shipped.file]),
    shippedUncached: () => spawnNode(GATEWAY_BIN, ['--stdio', '--config', shipped.uncached]),
    gateway: () => spawnNode(GATEWAY_BIN, ['--stdio', '--config', file]),
    gatewayUncached: () => spawnNode(GATEWAY_BIN, ['--stdio', '--config', every.uncached]),
    bare: () => spawnNode(BARE_SERVER, ['stdio']),
    filesystem: () => spawnNode(FS_SERVER, [fsRoot]),
  };
  const times: Record<keyof typeof sides, number[]> = { shipped: [], shippedUncached: [], gateway: [], gatewayUncached: [], bare: [], filesystem: [] };
  const boots: number[] = [];
  const tools = { shipped: 0, gateway: 0 };
  // One discarded start of each warms the disk cache; then rounds in rotating order.
  for (const spawn of Object.values(sides)) await timeToList(spawn);
  const names = Object.keys(sides) as Array<keyof typeof sides>;
  for (let i = 0; i < options.startupRuns; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      const result = await timeToList(sides[name]);
      times[name].push(result.ms);
      if (name === 'gateway' || name === 'shipped') tools[name] = result.tools;
      if (name === 'gatewayUncached' && result.bootMs !== undefined) boots.push(result.bootMs);
    }
  }
  const label = {
    shipped: `gateway, the shipped config (${shipped.plugins.join(', ')}; ${tools.shipped} tools), catalog cached by the previous start`,
    shippedUncached: '  the same, first start (no cached catalog: it boots, then answers)',
    gateway: `gateway, every plugin (${plugins.join(', ')} + bench-echo; ${tools.gateway} tools), catalog cached`,
    gatewayUncached: '  the same, first start (no cached catalog)',
    bare: 'bare SDK server (1 tool)',
    filesystem: 'server-filesystem',
  };
  const toFs = (n: keyof typeof sides) => median(times[n]) / median(times.filesystem);
  const startRows = names.map((n) => [
    label[n],
    ms(median(times[n]), 0),
    `${ms(Math.min(...times[n]), 0)}–${ms(Math.max(...times[n]), 0)}`,
    `${toFs(n).toFixed(2)}×`,
  ]);
  if (boots.length > 0) startRows.push(['  of which gateway boot, every plugin, first start (its "gateway ready" log: plugins set up)', ms(median(boots), 0), `${ms(Math.min(...boots), 0)}–${ms(Math.max(...boots), 0)}`, '']);
  process.stderr.write(`  start-up: shipped config ${ms(median(times.shipped), 0)} (first start ${ms(median(times.shippedUncached), 0)}), every plugin ${ms(median(times.gateway), 0)} (${ms(median(times.gatewayUncached), 0)}), bare ${ms(median(times.bare), 0)}, filesystem ${ms(median(times.filesystem), 0)}\n`);

  const probe = ['--expose-gc', '--import', HEAP_PROBE];
  const gatewayMemory = await memoryRun(() => spawnNode(GATEWAY_BIN, ['--stdio', '--config', file], { nodeArgs: probe }), options.memoryCalls);
  const bareMemory = await memoryRun(() => spawnNode(BARE_SERVER, ['stdio'], { nodeArgs: probe }), options.memoryCalls);
  const retained = gatewayMemory.retainedEnd - gatewayMemory.retainedIdle;
  const noLeak = retained <= RETAINED_LIMIT;
  const growth = gatewayMemory.end - gatewayMemory.warm;
  const noise = Math.max(0, bareMemory.end - bareMemory.warm) + GROWTH_MARGIN;
  const ok = growth <= noise;
  const perTenth = (m: MemoryRun) => slope(m.samples.slice(1).map(([x]) => x), m.samples.slice(1).map(([, y]) => y)) * (options.memoryCalls / 10);
  const memRow = (name: string, m: MemoryRun) => [
    name,
    mib(m.idle),
    mib(m.warm),
    mib(m.end),
    mib(m.settled),
    mib(m.end - m.warm),
    mib(perTenth(m)),
    `${mib(m.retainedIdle)} → ${mib(m.retainedEnd)}`,
  ];
  process.stderr.write(`  memory: gateway idle ${mib(gatewayMemory.idle)}, after ${int(options.memoryCalls)} calls ${mib(gatewayMemory.end)} (growth after warm-up ${mib(growth)})\n`);

  const targets: Target[] = [
    {
      item: '4. Start-up: spawn to first tools/list answer over stdio, the shipped config / server-filesystem (time)',
      value: `${toFs('shipped').toFixed(2)}×`,
      target: `≤ ${STARTUP_TARGETS.shipped.toFixed(2)}×`,
      met: toFs('shipped') <= STARTUP_TARGETS.shipped,
    },
    {
      item: '4. Start-up: spawn to first tools/list answer over stdio, every plugin / server-filesystem (time)',
      value: `${toFs('gateway').toFixed(2)}×`,
      target: `≤ ${STARTUP_TARGETS.every.toFixed(2)}×`,
      met: toFs('gateway') <= STARTUP_TARGETS.every,
    },
    { item: '4. Start-up, first start (no cached catalog): the shipped config / server-filesystem (time)', value: `${toFs('shippedUncached').toFixed(2)}×`, target: '— (reported)', met: null },
    { item: '4. Start-up, first start (no cached catalog): every plugin / server-filesystem (time)', value: `${toFs('gatewayUncached').toFixed(2)}×`, target: '— (reported)', met: null },
    { item: '4. Memory: gateway RSS idle', value: mib(gatewayMemory.idle), target: '— (reported)', met: null },
    {
      item: `4. Memory: RSS growth from call ${int(options.memoryCalls / 10)} to call ${int(options.memoryCalls)}`,
      value: mib(growth),
      target: `≤ ${mib(noise)} (noise: the bare server's growth + ${mib(GROWTH_MARGIN)})`,
      met: ok,
    },
    {
      item: `4. Memory: retained heap (after full GC) growth over ${int(options.memoryCalls)} calls`,
      value: mib(retained),
      target: `≤ ${mib(RETAINED_LIMIT)} (no leak)`,
      met: noLeak,
    },
  ];
  return {
    id: 'startup',
    title: '4. Start-up and memory',
    method: [
      `Start-up: the time from \`spawn\` to the answer to the first \`tools/list\` (after \`initialize\`) over stdio, for the real binary with the plugins the shipped gateway.config.yaml enables (${shipped.plugins.join(', ')}: what a desktop client's \`--stdio\` runs) and with every plugin in core/registry/ enabled (${plugins.join(', ')}) plus bench-echo, each with a fresh temp dataDir, against the official filesystem server (the targets of issue 20: ≤ ${STARTUP_TARGETS.shipped.toFixed(1)}× and ≤ ${STARTUP_TARGETS.every.toFixed(1)}× its time); the bare SDK server is shown for reference. A start answers \`initialize\` and \`tools/list\` from the catalog the previous identical start cached (docs/configuration.md, "Fast --stdio starts"), as every start after the first does; the same configs with \`transports.stdio.catalogCache: false\` show a first start, which boots the gateway before it answers. One discarded start of each, then ${options.startupRuns} starts of each in rotating order; median and range. The gateway's own "gateway ready" log gives the part spent booting (config, registry, database, plugin setup).`,
      `Memory: the same gateway child over stdio; RSS (VmRSS from /proc/<pid>/status) 2.5 s after start-up (past the background compile of the tool schemas), then after every ${int(options.memoryCalls / 10)} calls of bench_echo (${IN_FLIGHT} in flight) up to ${int(options.memoryCalls)}, and 2 s after the last. Growth is measured from the first sample (warm: JIT, heap sized) to the last; the slope is a least-squares fit over the samples after the first, per ${int(options.memoryCalls / 10)} calls. The bare SDK server runs the same calls as a reference for what "noise" looks like: it holds no state, so its growth is V8 sizing its heap under this load; the gateway's growth is within noise when it is at most the bare server's plus ${mib(GROWTH_MARGIN)}. To tell a leak from V8 keeping a bigger heap, both servers run with \`--expose-gc\` and a small preload (bench/lib/heap-probe.js) that, on SIGUSR2, runs full collections and reports the heap still in use: taken once before the first call and once after the last RSS sample, so that no forced collection reshapes the RSS figures in between. Every call also adds a row to the audit table, which lives in SQLite on disk, not in RSS.`,
    ],
    tables: [
      { title: 'Start-up (spawn → first tools/list answer)', columns: ['server', 'median', 'range', '/ server-filesystem'], rows: startRows },
      {
        title: `Resident memory over ${int(options.memoryCalls)} calls`,
        columns: ['server', 'RSS idle', `after ${int(options.memoryCalls / 10)}`, `after ${int(options.memoryCalls)}`, '2 s later', 'growth after warm-up', `slope per ${int(options.memoryCalls / 10)}`, 'heap after full GC, idle → end'],
        rows: [memRow('gateway (every plugin)', gatewayMemory), memRow('bare SDK server', bareMemory)],
      },
    ],
    targets,
    profiles: [],
  };
}
