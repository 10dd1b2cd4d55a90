// Issue 34's closing check: 32 clients on REST, TCP and /mcp for 90 s against one `serve`
// gateway must see no error, and its memory must stay flat. Not a comparison: a soak has no
// baseline, so its figures are counts and memory, judged against the words.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { retainedHeap, ROOT, rssOf, tempDir } from '../lib/children.js';
import { authHeaders, httpClient, socketClient, startGatewayServe, type ServingChild } from '../lib/connect.js';
import type { BenchOptions } from '../lib/options.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, mib, type SectionResult } from '../lib/report.js';
import { slope } from '../lib/stats.js';

const HEAP_PROBE = pathToFileURL(join(ROOT, 'bench', 'lib', 'heap-probe.js')).href;
const CLIENTS = { rest: 11, tcp: 11, mcp: 10 } as const;
type Face = keyof typeof CLIENTS;
/** Heap still in use after full collections may grow by this much over the run and count as flat. */
const RETAINED_MARGIN = 8 * 1024 * 1024;
const SAMPLE_MS = 5000;

/** The calls every client cycles through: the trivial tool, the status tool, and real file work. */
const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['bench_echo', { text: 'soak' }],
  ['file_read', { path: 'soak/notes.txt' }],
  ['dir_list', { path: 'soak' }],
  ['gateway_status', {}],
];

interface Tally {
  calls: number;
  errors: number;
  firstErrors: string[];
}

/** One client's loop: one call at a time until `until`, every failure counted, none thrown. */
async function drive(call: (name: string, args: Record<string, unknown>) => Promise<void>, until: number, tally: Tally): Promise<void> {
  for (let i = 0; performance.now() < until; i++) {
    const [name, args] = CALLS[i % CALLS.length]!;
    try {
      await call(name, args);
      tally.calls++;
    } catch (err) {
      tally.errors++;
      if (tally.firstErrors.length < 3) tally.firstErrors.push(`${name}: ${(err as Error).message}`);
    }
  }
}

function restCaller(gateway: ServingChild): (name: string, args: Record<string, unknown>) => Promise<void> {
  const base = `http://${gateway.rest.host}:${gateway.rest.port}/tools/`;
  return async (name, args) => {
    const response = await fetch(base + name, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(gateway.key) }, body: JSON.stringify(args) });
    const body = (await response.json()) as { success?: boolean; error?: { code: string } };
    if (response.status !== 200 || body.success !== true) throw new Error(`HTTP ${response.status} ${body.error?.code ?? ''}`);
  };
}

const mcpCaller = (client: RawMcpClient) => async (name: string, args: Record<string, unknown>) => {
  await client.callTool(name, args);
};

export async function soakSection(options: BenchOptions): Promise<SectionResult> {
  const dir = tempDir();
  mkdirSync(join(dir, 'soak'));
  writeFileSync(join(dir, 'soak', 'notes.txt'), 'a file the soak reads\n'.repeat(100));
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, 'soak', `entry-${i}.txt`), `${i}\n`);
  const gateway = await startGatewayServe(dir, ['--expose-gc', '--import', HEAP_PROBE], {
    plugins: { 'bench-echo': {}, files: {} },
  });
  const tally = (): Tally => ({ calls: 0, errors: 0, firstErrors: [] });
  const tallies: Record<Face, Tally> = { rest: tally(), tcp: tally(), mcp: tally() };
  const sessions: RawMcpClient[] = [];
  try {
    for (let i = 0; i < CLIENTS.tcp; i++) sessions.push(await socketClient(gateway.tcp, gateway.key));
    const tcpSessions = sessions.slice();
    for (let i = 0; i < CLIENTS.mcp; i++) sessions.push(await httpClient(gateway.http, gateway.key));
    const mcpSessions = sessions.slice(CLIENTS.tcp);

    // A short warm-up before the first memory figure, so that it is the steady state's.
    const warmUntil = performance.now() + Math.min(10, options.soakSeconds / 6) * 1000;
    const rest = restCaller(gateway);
    const warm = tally();
    await Promise.all([...tcpSessions, ...mcpSessions].map((s) => drive(mcpCaller(s), warmUntil, warm)).concat(drive(rest, warmUntil, warm)));
    const retainedStart = await retainedHeap(gateway.child);

    const started = performance.now();
    const until = started + options.soakSeconds * 1000;
    const samples: Array<[number, number]> = [[0, await rssOf(gateway.child.pid)]];
    const sampler = setInterval(() => {
      rssOf(gateway.child.pid).then((rss) => samples.push([(performance.now() - started) / 1000, rss]), () => {});
    }, SAMPLE_MS);
    await Promise.all([
      ...Array.from({ length: CLIENTS.rest }, () => drive(rest, until, tallies.rest)),
      ...tcpSessions.map((s) => drive(mcpCaller(s), until, tallies.tcp)),
      ...mcpSessions.map((s) => drive(mcpCaller(s), until, tallies.mcp)),
    ]);
    clearInterval(sampler);
    const retainedEnd = await retainedHeap(gateway.child);

    const errors = Object.values(tallies).reduce((n, t) => n + t.errors, 0);
    const rssValues = samples.map(([, rss]) => rss);
    const rssSlope = slope(samples.map(([s]) => s), rssValues) * 60;
    const retainedGrowth = retainedEnd - retainedStart;
    const clientCount = CLIENTS.rest + CLIENTS.tcp + CLIENTS.mcp;
    return {
      id: 'soak',
      title: '13. Soak: 32 clients on REST, TCP and /mcp',
      method: [
        `The gateway binary (\`serve\`, the bench plugin and the files plugin, keys on) under ${clientCount} clients for ${options.soakSeconds} s after a warm-up: ${CLIENTS.rest} REST clients (\`POST /tools/<name>\`, fetch with keep-alive), ${CLIENTS.tcp} TCP sessions and ${CLIENTS.mcp} Streamable HTTP sessions on \`/mcp\`, each making one call at a time in a cycle of \`bench_echo\`, \`file_read\`, \`dir_list\` (a 51-entry folder) and \`gateway_status\`. Any failure counts as an error: a transport error, a non-200 answer, a tool result with isError. RSS is the gateway's VmRSS every ${SAMPLE_MS / 1000} s; the retained heap is what remains in use after full collections (bench/lib/heap-probe.js), taken after the warm-up and after the last call. Memory is flat when the retained heap grew by at most ${mib(RETAINED_MARGIN)}.`,
      ],
      tables: [
        {
          columns: ['face', 'clients', 'calls', 'errors', 'first errors'],
          rows: (Object.keys(CLIENTS) as Face[]).map((face) => [face, String(CLIENTS[face]), int(tallies[face].calls), int(tallies[face].errors), tallies[face].firstErrors.join('; ') || '—']),
        },
        {
          columns: ['memory', 'value'],
          rows: [
            ['RSS at the start of the soak', mib(rssValues[0]!)],
            ['RSS at the end', mib(rssValues.at(-1)!)],
            ['RSS, largest sample', mib(Math.max(...rssValues))],
            ['RSS slope (least squares)', `${mib(rssSlope)} a minute`],
            ['retained heap after the warm-up', mib(retainedStart)],
            ['retained heap after the last call', mib(retainedEnd)],
          ],
        },
      ],
      targets: [
        { item: `soak: errors in ${options.soakSeconds} s`, value: int(errors), target: '0', met: errors === 0 },
        { item: 'soak: retained heap growth', value: mib(retainedGrowth), target: `≤ ${mib(RETAINED_MARGIN)}`, met: retainedGrowth <= RETAINED_MARGIN },
      ],
      profiles: [],
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
    await gateway.child.stop();
  }
}
