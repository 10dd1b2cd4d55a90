// Issue 19 item 2: a child flooding its output must not stall the gateway. The p99 of a
// trivial call (bench_echo over stdio, one at a time) while a process_start child prints
// without pause, against the same p99 with no flood, in the same run; plus the gateway's RSS
// and the child's log on disk during the flood.
import { statSync } from 'node:fs';
import { GATEWAY_BIN, rssOf, spawnNode, tempDir, writeGatewayConfig } from '../lib/children.js';
import { benchGatewayConfig, stdioClient } from '../lib/connect.js';
import type { BenchOptions } from '../lib/options.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, mib, ms, ratio, type SectionResult } from '../lib/report.js';
import { percentile } from '../lib/stats.js';

const CAP = 8 * 1024 * 1024;
const FLOOD = "const b = 'x'.repeat(65535) + '\\n'; const more = () => { while (process.stdout.write(b)); process.stdout.once('drain', more); }; more();";

/** Sequential calls for `seconds`; their latencies in ms. */
async function latencies(client: RawMcpClient, seconds: number, sample: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await client.callTool('bench_echo', { text: 'ping' });
    out.push(performance.now() - t);
    if (out.length % 50 === 0) await sample();
  }
  return out;
}

export async function processFloodSection(options: BenchOptions): Promise<SectionResult> {
  const work = tempDir();
  const config = writeGatewayConfig(
    work,
    benchGatewayConfig(work, { plugins: { 'bench-echo': {}, process: { config: { maxOutputBytes: CAP } } }, transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } } }),
    'process.config.yaml',
  );
  const child = spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]);
  const client = await stdioClient(child);
  const seconds = options.seconds * options.rounds;
  try {
    await latencies(client, options.warmSeconds / 4, async () => {});
    const quiet = await latencies(client, seconds, async () => {});
    const started = await client.callTool('process_start', { command: process.execPath, args: ['-e', FLOOD] });
    const view = JSON.parse(started.content[0]!.text!) as { id: string; logs: { stdout: string } };
    let rss = 0;
    let onDisk = 0;
    const sample = async () => {
      rss = Math.max(rss, await rssOf(child.pid));
      const size = (p: string) => { try { return statSync(p).size; } catch { return 0; } };
      onDisk = Math.max(onDisk, size(view.logs.stdout) + size(view.logs.stdout.replace(/\.log$/, '.prev.log')));
    };
    const flooded = await latencies(client, seconds, sample);
    const out = JSON.parse((await client.callTool('process_output', { id: view.id, stream: 'stdout', max_bytes: 64 })).content[0]!.text!) as { total_bytes: number };
    await client.callTool('process_kill', { id: view.id });
    const p99 = { quiet: percentile(quiet, 99), flooded: percentile(flooded, 99) };
    const r = p99.flooded / p99.quiet;
    return {
      id: 'process',
      title: '6. A flooding child (process plugin)',
      method: [
        `The gateway binary over stdio with the process plugin (maxOutputBytes ${mib(CAP)}). bench_echo is called one call at a time for ${seconds} s with no child running, then for ${seconds} s while a process_start child writes 64 KiB lines without pause. RSS is the gateway's VmRSS, sampled every 50 calls during the flood, as is the size of the child's two log files.`,
      ],
      tables: [
        {
          columns: ['', 'calls', 'p50', 'p99', 'max'],
          rows: [
            ['no flood', int(quiet.length), ms(percentile(quiet, 50)), ms(p99.quiet), ms(percentile(quiet, 100))],
            ['during the flood', int(flooded.length), ms(percentile(flooded, 50)), ms(p99.flooded), ms(percentile(flooded, 100))],
          ],
        },
        {
          columns: ['during the flood', 'value'],
          rows: [
            ['child output read by the gateway', mib(out.total_bytes)],
            ['largest log on disk (both files)', mib(onDisk)],
            ['gateway RSS (largest sample)', mib(rss)],
          ],
        },
      ],
      targets: [
        // The issue asks for calls that "stay fast" without a figure: the ratio is reported, not judged.
        { item: 'bench_echo p99 during a flood / without', value: ratio(r), target: '—', met: null },
        { item: 'process log on disk during a flood', value: mib(onDisk), target: `≤ ${mib(CAP)}`, met: onDisk <= CAP },
      ],
      profiles: [],
    };
  } finally {
    await child.stop();
  }
}
