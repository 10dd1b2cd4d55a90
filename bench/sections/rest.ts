import { tempDir } from '../lib/children.js';
import { authHeaders, startGatewayServe, type ServingChild } from '../lib/connect.js';
import { cannon, type Load } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { withServerCpu } from '../lib/process-cpu.js';
import { cpuProfileFlags, summariseProfile, type ProfileSummary } from '../lib/profile.js';
import { int, met, ms, ratio, us, type SectionResult, type Target } from '../lib/report.js';
import { alternate, median } from '../lib/stats.js';

const TARGET = 0.8;
const CONNECTIONS = 10;
const BODY = JSON.stringify({ text: 'hello, gateway' });

/** autocannon with this section's body and connections (lib/load.ts). */
const load = (url: string, seconds: number, key?: string): Promise<Load> => cannon(url, BODY, CONNECTIONS, seconds, key);
type Costed = Load & { cpuPerCall: number };

async function check(url: string, key?: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body: BODY });
  const body = await response.text();
  if (response.status !== 200 || body !== '{"success":true,"data":{"text":"hello, gateway"}}') {
    throw new Error(`${url}: unexpected answer ${response.status} ${body}`);
  }
}

export async function restSection(options: BenchOptions, servers: { gateway: ServingChild; bare: ServingChild }): Promise<SectionResult> {
  const gatewayUrl = `http://${servers.gateway.rest.host}:${servers.gateway.rest.port}/tools/bench_echo`;
  const bareUrl = `http://${servers.bare.rest.host}:${servers.bare.rest.port}/tools/bench_echo`;
  const auditedUrl = `http://${servers.bare.rest.host}:${servers.bare.rest.port}/audited/tools/bench_echo`;
  const { key } = servers.gateway;
  await check(gatewayUrl, key);
  await check(bareUrl);
  await check(auditedUrl);
  for (const url of [gatewayUrl, auditedUrl]) {
    const invalid = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body: '{"text":1}' });
    if (invalid.status !== 400) throw new Error(`${url} accepted an invalid body (status ${invalid.status}); validation is off?`);
  }

  const seconds = Math.max(1, options.seconds);
  // Both sides reach their steady speed first (BenchOptions.warmSeconds).
  await load(gatewayUrl, options.warmSeconds, key);
  await load(auditedUrl, options.warmSeconds);
  await load(bareUrl, options.warmSeconds);
  // The target is against the baseline that audits (issue 20); the bare route is shown beside it.
  const versus = (url: string) =>
    alternate<Costed>(
      { name: 'gateway', run: () => withServerCpu(servers.gateway.child.pid, () => load(gatewayUrl, seconds, key)) },
      { name: 'baseline', run: () => withServerCpu(servers.bare.child.pid, () => load(url, seconds)) },
      options.rounds,
    );
  const audited = await versus(auditedUrl);
  const bare = await versus(bareUrl);
  const pick = (runs: typeof audited, side: 0 | 1, field: keyof Costed) => median(runs.rounds.map((r) => r[side][field]));
  const ratiosOf = (runs: typeof audited) => runs.rounds.map(([g, b]) => g.perSecond / b.perSecond);
  const r = median(ratiosOf(audited));
  const rBare = median(ratiosOf(bare));
  const ok = r >= TARGET;
  process.stderr.write(
    `  rest: gateway ${int(pick(audited, 0, 'perSecond'))}/s, auditing baseline ${int(pick(audited, 1, 'perSecond'))}/s, ${ratio(r)}; bare route ${int(pick(bare, 1, 'perSecond'))}/s, ${ratio(rBare)}\n`,
  );
  const targets: Target[] = [
    { item: '2. REST POST /tools/bench_echo: gateway / fastify route that validates and audits (req/s)', value: ratio(r), target: `≥ ${ratio(TARGET)}`, met: ok },
    { item: '2. REST POST /tools/bench_echo: gateway / bare fastify route (req/s)', value: ratio(rBare), target: '— (reported)', met: null },
  ];

  const rows = (runs: typeof audited, target: string, done: string) => {
    const ratios = ratiosOf(runs);
    const rr = median(ratios);
    return [
      ['requests/s', int(pick(runs, 0, 'perSecond')), int(pick(runs, 1, 'perSecond')), ratio(rr), target, done],
      ['p50 latency', ms(pick(runs, 0, 'p50')), ms(pick(runs, 1, 'p50')), ratio(pick(runs, 0, 'p50') / pick(runs, 1, 'p50')), '—', '—'],
      ['p99 latency', ms(pick(runs, 0, 'p99')), ms(pick(runs, 1, 'p99')), ratio(pick(runs, 0, 'p99') / pick(runs, 1, 'p99')), '—', '—'],
      ['server CPU per request', us(pick(runs, 0, 'cpuPerCall')), us(pick(runs, 1, 'cpuPerCall')), ratio(pick(runs, 0, 'cpuPerCall') / pick(runs, 1, 'cpuPerCall')), '—', '—'],
      ['ratio range (req/s)', '', '', `${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}`, '', ''],
    ];
  };
  const profiles: ProfileSummary[] = [];
  if (options.profile && !ok) profiles.push(await profileRest(Math.max(4, seconds * 2)));

  return {
    id: 'rest',
    title: '2. REST bridge: gateway vs a fastify route that validates and audits, and a bare one',
    method: [
      `\`POST /tools/bench_echo\` with \`${BODY}\` under load from autocannon (${CONNECTIONS} connections, no pipelining, in the bench process; the server in its own process). **Gateway**: the real binary's HTTP face (\`mcp-gateway serve\`) with the default config, where a well-formed tool call is served on node's HTTP server ahead of fastify (core/http/rest-calls.ts): Host/Origin guard, API key check (the owner key in \`Authorization\`, as the default \`auth: key\` asks), rate limiter (its limit raised out of reach, see section 1), the body read and parsed, the catalog call with ajv validation, audit row (the journal write) and metrics, the \`{"success": true, "data": …}\` envelope. **Auditing baseline** (the target's, issue 20): a fastify 5 route in another process that does the least an auditing gateway must: the body validated by the same Ajv2020 schema (defaults applied), the same handler and envelope, and the same audit line (time, caller, tool, sha-256 and summary of the arguments, duration, outcome) appended to a journal file with one write(2) before the reply. **Bare route**: the same fastify with fastify's default JSON parser, no validation and no audit, for reference.`,
      `Each side first runs ${options.warmSeconds} s under the same load, unmeasured (steady speed, as in section 1); then ${options.rounds} rounds of ${seconds} s per side, alternating; medians. Latency percentiles are computed from every response's time as autocannon measures it (fractional ms). Server CPU per request: the user and system time each serving process spent in a round (from \`/proc/<pid>/stat\`, to the 10 ms tick) over its requests, the median of the rounds; autocannon runs in the bench process, on a CPU of its own (see "Processes" above); the throughput ratio also carries its cost, larger on the gateway's side (its answers carry three rate-limit headers more), and the host's swings.`,
    ],
    tables: [
      { columns: ['', 'gateway', 'auditing fastify route', 'ratio', 'target', 'met'], rows: rows(audited, `≥ ${ratio(TARGET)}`, met(ok)) },
      { columns: ['', 'gateway', 'bare fastify route', 'ratio', 'target', 'met'], rows: rows(bare, '—', '—') },
    ],
    targets,
    profiles,
  };
}

async function profileRest(seconds: number): Promise<ProfileSummary> {
  const { nodeArgs, dir } = cpuProfileFlags();
  const served = await startGatewayServe(tempDir(), nodeArgs);
  await load(`http://${served.rest.host}:${served.rest.port}/tools/bench_echo`, seconds, served.key);
  await served.child.stop(10_000);
  return summariseProfile(dir, `Gateway REST under autocannon (${CONNECTIONS} connections)`);
}
