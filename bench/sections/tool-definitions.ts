import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Client, parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { approxTokens, jsonBytes } from '../../core/catalog/catalog-cost.js';
import { GATEWAY_BIN, ROOT, spawnNode, tempDir, writeGatewayConfig, type Child } from '../lib/children.js';
import { CHROMIUM } from '../lib/browsing-sides.js';
import { FS_SERVER } from '../lib/peers.js';
import type { BenchOptions } from '../lib/options.js';
import { int, ratio, type SectionResult, type Target } from '../lib/report.js';
import { median } from '../lib/stats.js';

const MEMORY_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');
/** Issue 36, item 2: the shipped default profile fits a desktop client. */
const DEFAULT_PROFILE_TOKENS = 8000;
const DEFAULT_PROFILE_TOOLS = 20;

/** What one server's tools/list costs, from the entries as they came over the wire. */
interface Listing {
  readonly tools: number;
  readonly bytes: number;
  /** The part a model reads: name, description and inputSchema of each tool. */
  readonly visibleBytes: number;
}

/** One server the section starts, or the reason it did not answer. */
interface Measured {
  readonly label: string;
  readonly listing?: Listing;
  readonly failure?: string;
}

/** A capability side by side: our plugin alone, and the server a user would install instead. */
interface Capability {
  readonly name: string;
  readonly plugins: readonly string[];
  readonly peer: { readonly label: string; start(dir: string): Child };
}

const CAPABILITIES: readonly Capability[] = [
  { name: 'files', plugins: ['files'], peer: { label: '@modelcontextprotocol/server-filesystem', start: (dir) => spawnNode(FS_SERVER, [dir]) } },
  {
    name: 'knowledge + brain',
    plugins: ['knowledge', 'brain'],
    peer: { label: '@modelcontextprotocol/server-memory', start: (dir) => spawnNode(MEMORY_SERVER, [], { env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } }) },
  },
  {
    name: 'webview',
    plugins: ['webview'],
    // tools/list launches no browser; the switches are those the webview section starts it with.
    peer: { label: '@playwright/mcp (--headless)', start: (dir) => spawnNode(PLAYWRIGHT_MCP, ['--headless', '--isolated', '--no-sandbox', '--executable-path', CHROMIUM, '--output-dir', join(dir, 'out')], { cwd: dir }) },
  },
];

/**
 * The SDK's Transport over a child the bench started (and so kills on every exit path). Each
 * line is measured as it came, before the SDK parses it, and handed to the SDK client as any
 * stdio transport would.
 */
class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #child: Child;
  readonly #onLine: (message: Record<string, unknown>) => void;

  constructor(child: Child, onLine: (message: Record<string, unknown>) => void) {
    this.#child = child;
    this.#onLine = onLine;
  }

  async start(): Promise<void> {
    let pending = '';
    this.#child.process.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines.filter((l) => l.trim() !== '')) {
        try {
          const raw = JSON.parse(line) as Record<string, unknown>;
          this.#onLine(raw);
          this.onmessage?.(parseJSONRPCMessage(raw));
        } catch (err) {
          this.onerror?.(err as Error);
        }
      }
    });
    void this.#child.exited.then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#child.process.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.#child.process.stdin!.end();
    await this.#child.stop(2000);
  }
}

/**
 * tools/list through the real SDK client (every page), measured on the entries as sent. `keep`
 * picks the entries that count (a plugin's own, without the gateway's `gateway_*` tools).
 */
async function measure(label: string, child: Child, keep: (name: string) => boolean = () => true): Promise<Measured> {
  const entries: Array<Record<string, unknown>> = [];
  const transport = new ChildTransport(child, (message) => {
    const tools = (message.result as { tools?: unknown } | undefined)?.tools;
    if (Array.isArray(tools)) entries.push(...(tools as Array<Record<string, unknown>>));
  });
  const client = new Client({ name: 'bench-tool-definitions', version: '1.0.0' });
  try {
    // A server that exits instead of answering would leave the client waiting.
    const exited = child.exited.then((code) => {
      throw new Error(`it exited (code ${code}): ${child.stderrTail.filter(Boolean).slice(-2).join(' ')}`);
    });
    exited.catch(() => undefined);
    await Promise.race([client.connect(transport), exited]);
    let cursor: string | undefined;
    do cursor = (await Promise.race([client.listTools(cursor === undefined ? {} : { cursor }), exited])).nextCursor;
    while (cursor !== undefined);
    const kept = entries.filter((entry) => keep(String(entry.name)));
    const visible = kept.map(({ name, description, inputSchema }) => jsonBytes({ name, description, inputSchema }));
    return { label, listing: { tools: kept.length, bytes: kept.reduce((sum, entry) => sum + jsonBytes(entry), 0), visibleBytes: visible.reduce((a, b) => a + b, 0) } };
  } catch (err) {
    process.stderr.write(`  tool definitions: ${label} did not answer tools/list: ${(err as Error).message}\n`);
    return { label, failure: (err as Error).message };
  } finally {
    await client.close().catch(() => undefined);
    await child.stop(2000);
  }
}

/** The shipped gateway.config.yaml as it is (plugins, profiles, tools), with a data folder and workspace of the run's own. */
function shippedConfig(dir: string): string {
  const shipped = parse(readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8')) as Record<string, unknown>;
  const { transports: _listeners, ...rest } = shipped;
  return writeGatewayConfig(dir, { ...rest, dataDir: join(dir, 'data'), workspace: dir, logLevel: 'warn' }, 'shipped.config.yaml');
}

/** Only `plugins`, each with its config from the shipped file. */
function pluginsConfig(dir: string, plugins: readonly string[]): string {
  const shipped = (parse(readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8')) as { plugins: Record<string, unknown> }).plugins;
  const enabled = Object.fromEntries(plugins.map((name) => [name, shipped[name] ?? {}]));
  return writeGatewayConfig(dir, { dataDir: join(dir, 'data'), workspace: dir, logLevel: 'warn', plugins: enabled }, `${plugins.join('-')}.config.yaml`);
}

const gatewayStdio = (config: string, ...extra: string[]) => spawnNode(GATEWAY_BIN, ['--stdio', '--config', config, ...extra]);
const ownTool = (name: string) => !name.startsWith('gateway_');
const perTool = (bytes: number, tools: number) => (tools === 0 ? 0 : bytes / tools);

function row(m: Measured): string[] {
  if (!m.listing) return [m.label, '—', `did not answer: ${m.failure?.slice(0, 80)}`, '—', '—', '—', '—'];
  const { tools, bytes, visibleBytes } = m.listing;
  return [m.label, int(tools), int(bytes), int(approxTokens(bytes)), int(perTool(bytes, tools)), int(visibleBytes), int(perTool(visibleBytes, tools))];
}

export async function toolDefinitionsSection(_options: BenchOptions): Promise<SectionResult> {
  const work = tempDir('mcpgw-bench-tooldefs-');
  const shipped = shippedConfig(work);
  const byDefault = await measure('gateway, shipped config, its default profile (no --profile)', gatewayStdio(shipped));
  const whole = await measure('gateway, shipped config, --profile all (the whole catalog)', gatewayStdio(shipped, '--profile', 'all'));
  const pairs: Array<{ capability: Capability; ours: Measured; peer: Measured }> = [];
  for (const capability of CAPABILITIES) {
    const dir = tempDir('mcpgw-bench-tooldefs-');
    const ours = await measure(`gateway, ${capability.plugins.join(' + ')} alone (its own tools)`, gatewayStdio(pluginsConfig(dir, capability.plugins)), ownTool);
    const peer = await measure(capability.peer.label, capability.peer.start(dir));
    pairs.push({ capability, ours, peer });
  }

  const peerPerTool = pairs.flatMap(({ peer }) => (peer.listing ? [perTool(peer.listing.bytes, peer.listing.tools)] : []));
  const peersMedian = peerPerTool.length > 0 ? median(peerPerTool) : undefined;
  const targets: Target[] = [];
  if (byDefault.listing) {
    const tokens = approxTokens(byDefault.listing.bytes);
    targets.push({ item: '14. Tool definitions: the shipped default profile, ≈ tokens (bytes ÷ 4)', value: int(tokens), target: `≤ ${int(DEFAULT_PROFILE_TOKENS)}`, met: tokens <= DEFAULT_PROFILE_TOKENS });
    targets.push({ item: '14. Tool definitions: the shipped default profile, tools', value: int(byDefault.listing.tools), target: `≤ ${DEFAULT_PROFILE_TOOLS}`, met: byDefault.listing.tools <= DEFAULT_PROFILE_TOOLS });
  }
  if (whole.listing) {
    const ours = perTool(whole.listing.bytes, whole.listing.tools);
    targets.push({
      item: '14. Tool definitions: the whole catalog, bytes per tool',
      value: int(ours),
      target: peersMedian === undefined ? 'the peers\' median (no peer answered)' : `≤ ${int(peersMedian)} (the peers' median)`,
      met: peersMedian === undefined ? null : ours <= peersMedian,
    });
  }
  for (const { capability, ours, peer } of pairs) {
    if (!ours.listing || !peer.listing) continue;
    const r = ours.listing.visibleBytes / peer.listing.visibleBytes;
    targets.push({ item: `14. Tool definitions: ${capability.name}, model-visible bytes / ${peer.label}'s`, value: ratio(r), target: '≤ 1.00× (or explained)', met: r <= 1 });
  }
  const medianRow = ['peers\' median', '—', '—', '—', peersMedian === undefined ? '—' : int(peersMedian), '—', '—'];
  const tableRows = [byDefault, whole, ...pairs.flatMap(({ ours, peer }) => [ours, peer])].map(row);
  process.stderr.write(`  tool definitions: ${tableRows.map((r) => `${r[0]}: ${r[1]} tools, ${r[2]} bytes`).join('; ')}\n`);
  return {
    id: 'tool-definitions',
    title: '14. Tool definitions: what tools/list costs a client, beside the servers a user would install',
    method: [
      `Every session pays for the tool list in context before its first call (issue 36). Each server is started over stdio and asked \`tools/list\` (every page) by the MCP SDK's own \`Client\`; the entries are measured as they came over the wire, before the SDK parses them: **bytes** is the sum of each entry's JSON, **≈ tokens** is bytes ÷ 4 (the rule of thumb; no tokenizer ties the figure to one model), **model-visible** is the part a model reads of each entry (name, description, inputSchema), the rest being annotations, title and the output schema, which clients use to check results. Nothing is timed.`,
      `**Gateway**: the real binary (\`bin/mcp-gateway.js --stdio\`, the lean listing, \`tools.listing: lean\`), first with the shipped gateway.config.yaml as it is (its plugins and profiles; a data folder and workspace of the run's own) and no \`--profile\` (the default profile a desktop client gets), then with \`--profile all\` (every tool); then each capability's plugins alone, with their config from the shipped file, counting their own tools (not the gateway's \`gateway_*\` tools, which every configuration lists). **Peers**, devDependencies run from node_modules: \`@modelcontextprotocol/server-filesystem\` (allowed a temp folder), \`@modelcontextprotocol/server-memory\` (its file in a temp folder) and \`@playwright/mcp\` (\`--headless --isolated\`; listing its tools launches no browser), each at its default tool set.`,
      `Targets: the shipped default profile within ${int(DEFAULT_PROFILE_TOKENS)} tokens and ${DEFAULT_PROFILE_TOOLS} tools; the whole catalog's bytes per tool no higher than the median of the three peers' bytes per tool; each plugin's model-visible bytes no larger than its peer's for the same job, or the difference explained by what it does more (the plugins' READMEs).`,
    ],
    tables: [{ title: 'tools/list, as each server sends it', columns: ['server', 'tools', 'bytes', '≈ tokens', 'bytes / tool', 'model-visible bytes', 'model-visible / tool'], rows: [...tableRows, medianRow] }],
    targets,
    profiles: [],
  };
}
