import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT, spawnNode, tempDir, type Child } from './children.js';
import { httpChannel, RawMcpClient, sseChannel } from './raw-client.js';

export const FS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** The gateway's upstream plugin with the same server, named `fs`: its tools are `fs_<tool>`. */
export function upstreamPlugin(workspace: string): Record<string, unknown> {
  return { upstream: { config: { servers: [{ name: 'fs', command: process.execPath, args: [FS_SERVER, workspace] }] } } };
}

export interface Peer {
  readonly name: string;
  /** Its MCP face as the tables name it. */
  readonly label: string;
  /** The MCP transport of that face. */
  readonly transport: 'Streamable HTTP' | 'HTTP+SSE';
  readonly script: string;
  /** Files it needs in `dir`, its own temp folder, before it starts. */
  prepare?(dir: string, workspace: string): void;
  args(port: number, workspace: string, dir: string): string[];
  env?(dir: string): Record<string, string>;
  /** A client on its MCP face, not yet initialized. */
  connect(port: number): Promise<RawMcpClient>;
  /** What its MCP face calls the filesystem server's tool `tool`. */
  toolName(tool: string): string;
  /** Its REST face, where it has one: a tool call as one POST. */
  readonly rest?: { url(port: number): string; body(tool: string, args: Record<string, unknown>): string };
}

export interface StartedPeer {
  readonly peer: Peer;
  readonly port: number;
  readonly client: RawMcpClient;
  stop(): Promise<void>;
}

const streamable = async (port: number) => new RawMcpClient(httpChannel(`http://127.0.0.1:${port}/mcp`, 32));
const HUB_SERVER = 'fs';

/**
 * The gateways a user would otherwise put in front of an MCP server, each started in front of
 * its own copy of server-filesystem over stdio, from node_modules on the bench's node.
 */
export const PEERS: readonly Peer[] = [
  {
    name: 'supergateway',
    label: 'supergateway (stateful)',
    transport: 'Streamable HTTP',
    script: join(ROOT, 'node_modules', 'supergateway', 'dist', 'index.js'),
    // --stdio takes one shell command line. Its stateless mode spawns the server for every request.
    args: (port, workspace) => ['--stdio', [process.execPath, FS_SERVER, workspace].map(shellQuote).join(' '), '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
    connect: streamable,
    toolName: (tool) => tool,
  },
  {
    name: 'mcp-proxy',
    label: 'mcp-proxy',
    transport: 'Streamable HTTP',
    script: join(ROOT, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs'),
    args: (port, workspace) => ['--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', process.execPath, FS_SERVER, workspace],
    connect: streamable,
    toolName: (tool) => tool,
  },
  {
    name: 'mcp-hub',
    label: 'mcp-hub (`/mcp`, HTTP+SSE)',
    transport: 'HTTP+SSE',
    script: join(ROOT, 'node_modules', 'mcp-hub', 'dist', 'cli.js'),
    prepare(dir, workspace) {
      writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { [HUB_SERVER]: { command: process.execPath, args: [FS_SERVER, workspace] } } }));
      // At start-up it fetches a marketplace list from GitHub Pages unless its cache is under an
      // hour old: a fresh cache keeps the bench off the network.
      const cache = join(dir, 'data', 'mcp-hub', 'cache');
      mkdirSync(cache, { recursive: true });
      writeFileSync(join(cache, 'registry.json'), JSON.stringify({ registry: { version: 'bench', servers: [{ id: 'none' }] }, lastFetchedAt: Date.now(), serverDocumentation: {} }));
    },
    args: (port, _workspace, dir) => ['--port', String(port), '--config', join(dir, 'mcp-servers.json')],
    // Its log file, workspace cache and marketplace cache go under HOME or the XDG folders: all in `dir`.
    env: (dir) => ({ HOME: dir, XDG_STATE_HOME: join(dir, 'state'), XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') }),
    connect: async (port) => new RawMcpClient(await sseChannel(`http://127.0.0.1:${port}/mcp`)),
    toolName: (tool) => `${HUB_SERVER}__${tool}`,
    rest: {
      url: (port) => `http://127.0.0.1:${port}/api/servers/tools`,
      body: (tool, args) => JSON.stringify({ server_name: HUB_SERVER, tool, arguments: args }),
    },
  },
];

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A port free on loopback now; the peers take a number, not 0. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a peer and returns a client with its session open. The peers print no address we can
 * wait for, so a session is tried until it lists the filesystem server's tools (mcp-hub
 * answers before its server is connected). Throws with a one-line reason.
 */
export async function startPeer(peer: Peer, workspace: string): Promise<StartedPeer> {
  if (!existsSync(peer.script)) throw new Error(`not installed (${peer.script.slice(ROOT.length)} is missing; \`npm ci\` installs it as a devDependency)`);
  const port = await freePort();
  const dir = tempDir('mcpgw-bench-peer-');
  peer.prepare?.(dir, workspace);
  // stdin stays open: supergateway exits when its stdin ends. stdout is not a protocol here
  // (mcp-hub logs to it): it is drained so that a full pipe never blocks the peer.
  const child: Child = spawnNode(peer.script, peer.args(port, workspace, dir), { env: peer.env?.(dir) });
  child.process.stdout?.resume();
  const wanted = peer.toolName('read_text_file');
  const deadline = Date.now() + 30_000;
  for (;;) {
    let client: RawMcpClient | undefined;
    try {
      const attempt = async () => {
        client = await peer.connect(port);
        await client.initialize();
        const { tools } = await client.listTools();
        if (!tools.some((t) => t.name === wanted)) throw new Error(`${wanted} is not in tools/list`);
        return client;
      };
      // A session that opens but never answers must not hold the bench up.
      const ready = await Promise.race([attempt(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), Math.max(1000, deadline - Date.now())).unref())]);
      return {
        peer,
        port,
        client: ready,
        stop: async () => {
          await ready.close();
          await child.stop();
        },
      };
    } catch (err) {
      await client?.close();
      const exited = child.process.exitCode !== null || child.process.signalCode !== null;
      if (exited || Date.now() > deadline) {
        await child.stop();
        const last = child.stderrTail.filter((l) => l.trim()).at(-1) ?? (err as Error).message;
        throw new Error(`${exited ? `exited (${child.process.exitCode ?? child.process.signalCode})` : 'not ready in 30 s'}: ${last.slice(0, 200)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
