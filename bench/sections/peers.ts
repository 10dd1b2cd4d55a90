import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../lib/children.js';
import { authHeaders, httpClient, startGatewayServe, type ServingChild } from '../lib/connect.js';
import { LIST_ENTRIES, SMALL_TEXT, writeListing } from '../lib/fs-fixtures.js';
import { cannon, closedLoop, timedLoop, type Load } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { PEERS, startPeer, upstreamPlugin, type Peer, type StartedPeer } from '../lib/peers.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { median, rotate } from '../lib/stats.js';

const IN_FLIGHT = 16;
/** As in the REST section. */
const CONNECTIONS = 10;

/** One operation, as each side names it; every answer must contain `marker`. */
interface Operation {
  readonly name: 'read' | 'list';
  /** server-filesystem's tool: what the peers relay, and the gateway as `fs_<tool>`. */
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The gateway's own files plugin doing the same job (not the same hop). */
  readonly files: { readonly tool: string; readonly args: Record<string, unknown> };
  readonly marker: string;
  readonly label: string;
}

/** One side of a comparison. A peer's failure drops it with a line in the notes; the gateway's fails the run. */
interface Side {
  readonly label: string;
  readonly role: 'gateway' | 'files' | 'peer';
  readonly peer?: Peer;
  run(): Promise<Load>;
}

/** An MCP side before it is measured: one call. */
interface McpTarget {
  readonly label: string;
  readonly role: Side['role'];
  readonly peer?: Peer;
  readonly call: () => Promise<void>;
}

/** A REST side before it is measured: one POST, answered 200 with the marker in it. */
interface RestTarget {
  readonly label: string;
  readonly role: Side['role'];
  readonly peer?: Peer;
  readonly url: string;
  readonly body: string;
  readonly key?: string;
}

const textOf = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text ?? '';

function caller(client: RawMcpClient, tool: string, op: Operation): () => Promise<void> {
  return async () => {
    if (!textOf(await client.callTool(tool, op.args)).includes(op.marker)) throw new Error(`${tool} answered without ${op.marker}`);
  };
}

async function checkRest(url: string, body: string, marker: string, key?: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(key) }, body });
  const text = await response.text();
  if (response.status !== 200 || !text.includes(marker)) throw new Error(`${url}: unexpected answer ${response.status} ${text.slice(0, 200)}`);
}

/**
 * Every side once a round, the order rotated (stats.rotate); a peer that fails is left out of
 * the remaining rounds. Returns each side's loads by round, or undefined for a dropped side.
 */
async function race(sides: readonly Side[], rounds: number, dropped: (side: Side, err: unknown) => void): Promise<Array<Load[] | undefined>> {
  const failed = new Set<Side>();
  const guarded = sides.map((side) => ({
    name: side.label,
    run: async (): Promise<Load | undefined> => {
      if (failed.has(side)) return undefined;
      if (side.role !== 'peer') return side.run();
      try {
        return await side.run();
      } catch (err) {
        failed.add(side);
        dropped(side, err);
        return undefined;
      }
    },
  }));
  const byRound = await rotate(guarded, rounds);
  return sides.map((side, i) => (failed.has(side) ? undefined : byRound.map((round) => round[i]!)));
}

/** Table rows for one race: the gateway's and the files plugin's rows carry no ratio; each peer's row two. */
function rows(prefix: readonly string[], sides: readonly Side[], loads: Array<Load[] | undefined>): { rows: string[][]; ratios: Map<Peer, number> } {
  const gateway = loads[sides.findIndex((s) => s.role === 'gateway')]!;
  const files = loads[sides.findIndex((s) => s.role === 'files')];
  const out: string[][] = [];
  const ratios = new Map<Peer, number>();
  sides.forEach((side, i) => {
    const mine = loads[i];
    if (!mine) return;
    const pick = (field: keyof Load) => median(mine.map((l) => l[field]));
    const cells = [...prefix, side.label, int(pick('perSecond')), ms(pick('p50')), ms(pick('p99'))];
    if (side.role !== 'peer') return out.push([...cells, '—', '—', '—']);
    const over = (ours: Load[]) => mine.map((l, round) => ours[round]!.perSecond / l.perSecond);
    const r = over(gateway);
    ratios.set(side.peer!, median(r));
    out.push([...cells, ratio(median(r)), `${ratio(Math.min(...r))}–${ratio(Math.max(...r))}`, files ? ratio(median(over(files))) : '—']);
  });
  return { rows: out, ratios };
}

const COLUMNS = ['calls/s', 'p50', 'p99', 'gateway / peer (calls/s)', 'ratio range', 'files plugin / peer'];

export async function peersSection(options: BenchOptions): Promise<SectionResult> {
  const workspace = tempDir('mcpgw-bench-ws-');
  const file = join(workspace, 'small.txt');
  writeFileSync(file, SMALL_TEXT);
  const folder = join(workspace, 'listing');
  mkdirSync(folder);
  writeListing(folder);
  const operations: Operation[] = [
    { name: 'read', tool: 'read_text_file', args: { path: file }, files: { tool: 'file_read', args: { path: file } }, marker: 'line 16 of the upstream benchmark file', label: `read a ${SMALL_TEXT.length}-byte file` },
    { name: 'list', tool: 'list_directory', args: { path: folder }, files: { tool: 'dir_list', args: { path: folder, detail: 'names' } }, marker: `entry_${LIST_ENTRIES - 1}`, label: `list ${LIST_ENTRIES} entries` },
  ];
  // Rounds are half the other sections' (five sides × two operations × two modes), warm-ups half per operation.
  const seconds = options.seconds / 2;
  const restSeconds = Math.max(1, Math.round(options.seconds / 2)); // autocannon runs whole seconds
  const warm = options.warmSeconds / 2;
  const restWarm = Math.max(1, Math.round(options.warmSeconds / 2));

  const notes: string[] = [];
  const targets: Target[] = [];
  const mcpRows: string[][] = [];
  const restRows: string[][] = [];
  const didNotRun = (peer: Peer, err: unknown) => {
    const why = String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 200);
    notes.push(`**${peer.name}** could not be measured here: ${why}`);
    process.stderr.write(`  peers ${peer.name}: could not be measured: ${why}\n`);
  };
  let served: ServingChild | undefined;
  let ours: RawMcpClient | undefined;
  const started: StartedPeer[] = [];
  try {
    served = await startGatewayServe(tempDir(), [], { workspace, plugins: { ...upstreamPlugin(workspace), files: {} } });
    const { key } = served;
    ours = await httpClient(served.http, key);
    const gateway = ours;
    for (const peer of PEERS) {
      const peerStarted = await startPeer(peer, workspace).catch((err: Error) => err);
      if (peerStarted instanceof Error) didNotRun(peer, peerStarted);
      else started.push(peerStarted);
    }

    // Streamable HTTP (mcp-hub: HTTP+SSE): the gateway's /mcp against each peer's MCP face.
    for (const op of operations) {
      const calls: McpTarget[] = [
        { label: `gateway \`/mcp\` (\`fs_${op.tool}\`)`, role: 'gateway', call: caller(gateway, `fs_${op.tool}`, op) },
        ...started.map(({ peer, client }): McpTarget => ({ label: peer.label, role: 'peer', peer, call: caller(client, peer.toolName(op.tool), op) })),
        { label: `gateway files plugin (\`${op.files.tool}\`, not the same hop)`, role: 'files', call: caller(gateway, op.files.tool, { ...op, args: op.files.args }) },
      ];
      const ready: McpTarget[] = [];
      for (const side of calls) {
        try {
          await side.call();
          await closedLoop(side.call, IN_FLIGHT, warm);
          ready.push(side);
        } catch (err) {
          if (side.role !== 'peer') throw err;
          didNotRun(side.peer!, err);
        }
      }
      for (const inFlight of [1, IN_FLIGHT]) {
        const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
        const sides: Side[] = ready.map((s) => ({ ...s, run: () => timedLoop(s.call, inFlight, seconds) }));
        const loads = await race(sides, options.rounds, (side, err) => didNotRun(side.peer!, err));
        const table = rows([op.label, mode], sides, loads);
        mcpRows.push(...table.rows);
        for (const [peer, r] of table.ratios) {
          targets.push({ item: `8. Peers: ${op.name} over Streamable HTTP, gateway / ${peer.name}${peer.transport === 'Streamable HTTP' ? '' : ` (${peer.transport})`}, ${mode}`, value: ratio(r), target: '— (reported)', met: null });
        }
        process.stderr.write(`  peers ${op.name} ${mode}: ${table.rows.map((row) => `${row[2]} ${row[3]}/s ${row[6]}`).join('; ')}\n`);
      }
    }

    // REST: the gateway's POST /tools/<name> against mcp-hub's POST /api/servers/tools.
    const base = `http://${served.rest.host}:${served.rest.port}/tools`;
    for (const op of operations) {
      const posts: RestTarget[] = [
        { label: `gateway \`POST /tools/fs_${op.tool}\``, role: 'gateway', url: `${base}/fs_${op.tool}`, body: JSON.stringify(op.args), key },
        ...started.flatMap(({ peer, port }) => (peer.rest ? [{ label: `${peer.name} \`POST /api/servers/tools\``, role: 'peer' as const, peer, url: peer.rest.url(port), body: peer.rest.body(op.tool, op.args) }] : [])),
        { label: `gateway files plugin (\`POST /tools/${op.files.tool}\`, not the same hop)`, role: 'files', url: `${base}/${op.files.tool}`, body: JSON.stringify(op.files.args), key },
      ];
      const sides: Side[] = [];
      for (const side of posts) {
        try {
          await checkRest(side.url, side.body, op.marker, side.key);
          await cannon(side.url, side.body, CONNECTIONS, restWarm, side.key);
          sides.push({ ...side, run: () => cannon(side.url, side.body, CONNECTIONS, restSeconds, side.key) });
        } catch (err) {
          if (side.role !== 'peer') throw err;
          didNotRun(side.peer!, err);
        }
      }
      const loads = await race(sides, options.rounds, (side, err) => didNotRun(side.peer!, err));
      const table = rows([op.label], sides, loads);
      // The peers with no REST face get a row saying so, before the files plugin's (the last).
      const without = PEERS.filter((p) => !p.rest).map((p) => [op.label, p.name, 'no REST face', '—', '—', '—', '—', '—']);
      restRows.push(...table.rows.slice(0, -1), ...without, table.rows.at(-1)!);
      for (const [peer, r] of table.ratios) {
        targets.push({ item: `8. Peers: ${op.name} over REST, gateway / ${peer.name}, ${CONNECTIONS} connections`, value: ratio(r), target: '— (reported)', met: null });
      }
      process.stderr.write(`  peers REST ${op.name}: ${table.rows.map((row) => `${row[1]} ${row[2]}/s ${row[5]}`).join('; ')}\n`);
    }
  } finally {
    await Promise.allSettled([ours?.close(), ...started.map((s) => s.stop())]);
    await served?.child.stop();
  }

  const tables: Table[] = [
    { title: 'MCP over HTTP: the gateway\'s /mcp (Streamable HTTP) against each peer\'s MCP face', columns: ['operation', 'calls', 'side', ...COLUMNS], rows: mcpRows },
    { title: 'REST: one POST per call', columns: ['operation', 'side', ...COLUMNS], rows: restRows },
  ];
  return {
    id: 'peers',
    title: '8. Peers: the same hop behind supergateway, mcp-proxy and mcp-hub',
    method: [
      `Where the gateway stands against the gateways a user would otherwise put in front of an MCP server. Each side relays \`@modelcontextprotocol/server-filesystem\` (its own copy, over stdio, allowed the same temp folder) and each call either reads the same ${SMALL_TEXT.length}-byte text file (\`read_text_file\`) or lists a folder of ${LIST_ENTRIES} entries, one in four a folder (\`list_directory\`), by absolute path; every answer is checked. **Gateway**: the real binary, \`serve\`, with the upstream plugin and one server, \`fs\` (tools \`fs_read_text_file\`, \`fs_list_directory\`), the default config otherwise, the owner key sent. **Peers**, devDependencies run from node_modules on the same node: \`supergateway\` (\`--outputTransport streamableHttp --stateful\`: its stateless mode spawns the server for every request), \`mcp-proxy\` (punkpeye's, \`--server stream\`) and \`mcp-hub\` (ravitemer's, a JSON config with the one server). mcp-hub's \`/mcp\` is the HTTP+SSE transport of MCP 2024-11-05 (a GET opens the event stream, messages go to \`POST /messages?sessionId=…\`, answers come back on the stream; a Streamable HTTP POST to \`/mcp\` is answered 404), and it names the tools \`<server>__<tool>\` (\`fs__read_text_file\`).`,
      `Every MCP side is driven by the same raw client (bench/lib/raw-client.ts; one session, keep-alive; over mcp-hub's event stream for mcp-hub). Each side runs ${warm} s unmeasured per operation at ${IN_FLIGHT} in flight, then ${options.rounds} rounds in which every side runs ${seconds} s (half the other sections' rounds: five sides, two operations, two modes), the order rotated a place each round; sequential and ${IN_FLIGHT} in flight. Ratio = gateway / peer in calls/s, taken round by round, median and range over the rounds (above 1: the gateway is faster); latencies are per call, the median of the rounds' percentiles.`,
      `REST: \`POST /tools/fs_read_text_file\` and \`/tools/fs_list_directory\` on the gateway (the owner key sent) against mcp-hub's \`POST /api/servers/tools\` with \`{"server_name": "fs", "tool": …, "arguments": …}\` (its answer: \`{"result": <the tool result>, "timestamp": …}\`), under autocannon with ${CONNECTIONS} connections, as in section 2; ${restWarm} s unmeasured per side and operation, then ${options.rounds} rotated rounds of ${restSeconds} s. supergateway and mcp-proxy have no REST face.`,
      `The files plugin rows are what a gateway user would call rather than relaying the filesystem server: \`file_read\` and \`dir_list\` with \`detail: "names"\` on the same gateway, over the same faces and in the same rounds. They are not the same hop (no second process; \`file_read\` answers JSON with the detected language, \`dir_list\` bare names without a stat), so they appear in the tables only, as "files plugin / peer".`,
      `supergateway and mcp-hub have no host option and listen on every interface, on a free port, for the length of their run (mcp-proxy is given \`--host 127.0.0.1\`). mcp-hub writes a log file, a workspace cache and a marketplace cache under HOME and the XDG folders: it runs with all of them in a temp folder, and its marketplace cache is seeded fresh there, since otherwise it fetches the marketplace list from GitHub Pages at start-up.`,
      ...notes,
    ],
    tables,
    targets,
    profiles: [],
  };
}
