// `npm run bench`: the gateway against its baselines and peers, side by side (issue 6).
// Loopback only, bounded in time, kills its children on every exit path. Prints a table and,
// after a full run, regenerates docs/performance.md. Settings: see bench/README.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cleanUp, ROOT, runServersOn, tempDir } from './lib/children.js';
import { pinBench } from './lib/cpu-pinning.js';
import { startBareServe, startGatewayServe, type ServingChild } from './lib/connect.js';
import { describeMachine } from './lib/machine.js';
import { readOptions } from './lib/options.js';
import { printSection, printTargets, renderDoc, type SectionResult } from './lib/report.js';
import { brainSection } from './sections/brain.js';
import { collabSection } from './sections/collab.js';
import { filesSection } from './sections/files.js';
import { growthSection } from './sections/growth.js';
import { knowledgeSection } from './sections/knowledge.js';
import { mcpSection } from './sections/mcp.js';
import { peersSection } from './sections/peers.js';
import { processFloodSection } from './sections/process-flood.js';
import { restSection } from './sections/rest.js';
import { soakSection } from './sections/soak.js';
import { startupSection } from './sections/startup.js';
import { storageSection } from './sections/storage.js';
import { toolDefinitionsSection } from './sections/tool-definitions.js';
import { upstreamSection } from './sections/upstream.js';
import { webviewSection } from './sections/webview.js';

const options = readOptions();
const startedAt = new Date();
const loadAtStart = loadavg()[0]!;
const t0 = performance.now();

// Whatever happens, children die and temp folders go.
process.once('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}, stopping\n`);
    cleanUp();
    process.exit(130);
  });
}
const watchdog = setTimeout(() => {
  process.stderr.write(`bench: over BENCH_MAX_SECONDS=${options.maxSeconds}; stopping everything\n`);
  cleanUp();
  process.exit(1);
}, options.maxSeconds * 1000);
watchdog.unref();

async function main(): Promise<void> {
  // The gateway children's cached --stdio catalogs go to a folder of this run, not the user's cache.
  process.env.MCP_GATEWAY_CACHE_DIR = tempDir('mcpgw-bench-cache-');
  const machine = describeMachine();
  const pinning = options.pin ? pinBench() : undefined;
  runServersOn(pinning?.servers);
  process.stderr.write(
    `bench: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; ${options.rounds} rounds × ${options.seconds} s; sections: ${[...options.sections].join(', ')}${options.quick ? ' (quick)' : ''}; ${pinning ? `bench on CPU ${pinning.client}, servers on ${pinning.servers}` : 'not pinned'}\n`,
  );
  const sections: SectionResult[] = [];
  const done = (section: SectionResult) => {
    sections.push(section);
    printSection(section);
  };

  let servers: { gateway: ServingChild; bare: ServingChild } | undefined;
  if (options.sections.has('mcp') || options.sections.has('rest')) {
    const dir = tempDir();
    servers = { gateway: await startGatewayServe(dir), bare: await startBareServe(dir) };
  }
  if (options.sections.has('mcp')) done(await step('1. MCP round trips', () => mcpSection(options, servers!)));
  if (options.sections.has('rest')) done(await step('2. REST', () => restSection(options, servers!)));
  if (servers) await Promise.all([servers.gateway.child.stop(), servers.bare.child.stop()]);
  if (options.sections.has('files')) done(await step('3. Files', () => filesSection(options)));
  if (options.sections.has('startup')) done(await step('4. Start-up and memory', () => startupSection(options)));
  if (options.sections.has('growth')) done(await step('5. Catalog growth', () => growthSection(options)));
  if (options.sections.has('process')) done(await step('6. A flooding child', () => processFloodSection(options)));
  if (options.sections.has('storage')) done(await step('7. Shared store', () => storageSection(options)));
  if (options.sections.has('upstream')) done(await step('8. Upstream hop', () => upstreamSection(options)));
  if (options.sections.has('peers')) done(await step('8. Peers', () => peersSection(options)));
  if (options.sections.has('knowledge')) done(await step('9. Knowledge', () => knowledgeSection(options)));
  if (options.sections.has('brain')) done(await step('10. Brain', () => brainSection(options)));
  if (options.sections.has('collab')) done(await step('11. Collab', () => collabSection(options)));
  if (options.sections.has('webview')) done(await step('12. Webview', () => webviewSection(options)));
  if (options.sections.has('soak')) done(await step('13. Soak', () => soakSection(options)));
  if (options.sections.has('tool-definitions')) done(await step('14. Tool definitions', () => toolDefinitionsSection(options)));

  printTargets(sections);
  const durationS = (performance.now() - t0) / 1000;
  process.stdout.write(`\nbench: finished in ${Math.round(durationS)} s\n`);
  if (options.write) {
    const analysisFile = join(ROOT, 'bench', 'analysis.md');
    const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : '';
    writeFileSync(join(ROOT, 'docs', 'performance.md'), renderDoc({ machine, options, pinning, startedAt, durationS, load: { start: loadAtStart, end: loadavg()[0]! }, sections, analysis }));
    process.stdout.write('bench: wrote docs/performance.md\n');
  } else {
    process.stdout.write('bench: docs/performance.md left as it is (quick or partial run; BENCH_WRITE=1 forces it)\n');
  }
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const t = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  const result = await run();
  process.stderr.write(`bench: ${name} done in ${Math.round((performance.now() - t) / 1000)} s\n`);
  return result;
}

main().then(
  () => {
    cleanUp();
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
    cleanUp();
    process.exit(1);
  },
);
