import { readFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { BARE_SERVER, BENCH_REGISTRY, GATEWAY_BIN, spawnNode, writeGatewayConfig, type Child, type ListeningAddress } from './children.js';
import { httpChannel, ndjsonChannel, RawMcpClient } from './raw-client.js';

export type Address<K extends ListeningAddress['kind']> = Extract<ListeningAddress, { kind: K }>;

/**
 * The gateway's config for the MCP and REST runs: the defaults (audit on, metrics on, info
 * logs on stderr) with the bench plugin enabled and every listener on loopback, port 0.
 * The one change: the HTTP rate limit (1,200 requests a minute by default) is raised out of
 * reach, because a load test would otherwise measure 429 answers. The limiter still runs on
 * every request.
 */
export function benchGatewayConfig(dir: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dataDir: join(dir, 'data'),
    workspace: dir,
    logLevel: 'info',
    registries: [BENCH_REGISTRY],
    plugins: { 'bench-echo': {} },
    transports: {
      tcp: { host: '127.0.0.1', port: 0 },
      unix: { path: join(dir, 'gateway.sock') },
      http: { host: '127.0.0.1', port: 0, rateLimit: { max: 1_000_000_000 } },
    },
    ...overrides,
  };
}

export interface ServingChild {
  readonly child: Child;
  readonly tcp: Address<'tcp'>;
  readonly unix: Address<'unix'>;
  /** MCP Streamable HTTP at /mcp. */
  readonly http: Address<'http'>;
  /** Where POST /tools/bench_echo is served. */
  readonly rest: Address<'http' | 'rest'>;
  /** The gateway's owner key (the default config needs one on HTTP and TCP); none for the bare servers. */
  readonly key?: string;
}

/** The HTTP header that carries `key`, if there is one. */
export function authHeaders(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { authorization: `Bearer ${key}` };
}

function pick<K extends ListeningAddress['kind']>(addresses: ListeningAddress[], kind: K): Address<K> {
  const found = addresses.find((a) => a.kind === kind);
  if (!found) throw new Error(`no ${kind} listener in ${JSON.stringify(addresses)}`);
  return found as Address<K>;
}

/** The real binary: `mcp-gateway serve` with HTTP, TCP and the unix socket. */
export async function startGatewayServe(dir: string, nodeArgs: string[] = [], configOverrides: Record<string, unknown> = {}): Promise<ServingChild> {
  const config = writeGatewayConfig(dir, benchGatewayConfig(dir, configOverrides), 'serve.config.yaml');
  const child = spawnNode(GATEWAY_BIN, ['serve', '--config', config], { nodeArgs });
  child.process.stdin?.end();
  const addresses = await child.listening(3);
  const http = pick(addresses, 'http');
  const key = readFileSync(join(dir, 'data', 'owner.key'), 'utf8').trim();
  return { child, tcp: pick(addresses, 'tcp'), unix: pick(addresses, 'unix'), http, rest: http, key };
}

/** The bare baselines in one child: SDK Server on TCP, unix and HTTP; fastify REST route. */
export async function startBareServe(dir: string): Promise<ServingChild> {
  const child = spawnNode(BARE_SERVER, ['serve', '--tcp', '127.0.0.1:0', '--unix', join(dir, 'bare.sock'), '--http', '127.0.0.1:0', '--rest', '127.0.0.1:0']);
  child.process.stdin?.end();
  const addresses = await child.listening(4);
  return { child, tcp: pick(addresses, 'tcp'), unix: pick(addresses, 'unix'), http: pick(addresses, 'http'), rest: pick(addresses, 'rest') };
}

/** A raw MCP client over a child's stdin/stdout; closing it ends stdin, which stops the child. */
export async function stdioClient(child: Child, modern = false): Promise<RawMcpClient> {
  const { stdout, stdin } = child.process;
  const client = new RawMcpClient(
    ndjsonChannel(stdout!, stdin!, async () => {
      stdin!.end();
      await Promise.race([child.exited, new Promise((r) => setTimeout(r, 3000))]);
      await child.stop(1000);
    }),
    { modern },
  );
  try {
    // A 2026-07-28 client opens with server/discover, as Claude Code does.
    await (modern ? client.discover() : client.initialize());
  } catch (err) {
    throw new Error(`${(err as Error).message}; child ${child.pid}'s stderr:\n${child.stderrTail.join('\n')}`);
  }
  return client;
}

/** `key` goes in initialize as params._meta.apiKey, as the gateway's TCP transport asks. */
export async function socketClient(address: Address<'tcp'> | Address<'unix'>, key?: string): Promise<RawMcpClient> {
  const socket = address.kind === 'tcp' ? netConnect(address.port, address.host) : netConnect(address.path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.setNoDelay(true);
  socket.on('error', () => {});
  const client = new RawMcpClient(
    ndjsonChannel(socket, socket, async () => {
      socket.end();
      socket.destroy();
    }),
  );
  await client.initialize(undefined, address.kind === 'tcp' ? key : undefined);
  return client;
}

export async function httpClient(address: Address<'http'>, key?: string): Promise<RawMcpClient> {
  const client = new RawMcpClient(httpChannel(`http://${address.host}:${address.port}/mcp`, 32, authHeaders(key)));
  await client.initialize();
  return client;
}

/** A 2026-07-28 client of `/mcp`: no initialize, no session. */
export function modernHttpClient(address: Address<'http'>, key?: string): RawMcpClient {
  return new RawMcpClient(httpChannel(`http://${address.host}:${address.port}/mcp`, 32, authHeaders(key), true), { modern: true });
}

/** Checks that a client reaches the trivial tool and that it answers as expected. */
export async function checkEcho(client: RawMcpClient, label: string): Promise<void> {
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === 'bench_echo')) throw new Error(`${label}: bench_echo is not in tools/list`);
  const result = await client.callTool('bench_echo', { text: 'check' });
  const text = result.content[0]?.text;
  if (text !== '{"text":"check"}') throw new Error(`${label}: unexpected echo result ${JSON.stringify(result)}`);
  // The gateway must refuse what the schema refuses: validation is part of what is measured.
  if (!label.startsWith('bare')) {
    const refused = await client.callTool('bench_echo', { text: 1 }).then(
      () => false,
      () => true,
    );
    if (!refused) throw new Error(`${label}: an invalid argument was not refused; validation is off?`);
  }
}
