import { parseArgs } from 'node:util';
import { loadConfig, type GatewayConfig, type ListenerConfig } from './config.js';
import { errorBody, isGatewayError } from './errors.js';
import { createGateway, type Gateway } from './gateway.js';
import { createLogger, type LogLevel } from './logger.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from './plugins/registry.js';
import { listenSocket, type SocketAddress } from './mcp/socket-server.js';
import { serveStdio } from './mcp/stdio-server.js';
import { toRestData } from './catalog/tool-result.js';
import { GATEWAY_VERSION } from './version.js';

type Listener = { readonly address: SocketAddress | { kind: 'http'; host: string; port: number }; close(): Promise<void> };

const HELP = `mcp-gateway ${GATEWAY_VERSION} — one MCP tool catalog from many plugins

Usage:
  mcp-gateway --stdio                 serve one MCP session on stdin/stdout (for MCP client configs);
                                      without a workspace set, the client's first MCP root is the workspace
  mcp-gateway serve [options]         serve the transports the config enables (HTTP, TCP, unix socket)
      --http HOST:PORT                  HTTP (REST, /mcp, /events, /docs) here instead of the config's address
      --tcp HOST:PORT                   listen for TCP here instead of the config's address
      --unix PATH                       unix socket path instead of the config's
      --no-http, --no-tcp, --no-unix    leave that transport off
  mcp-gateway tools [--json]          list every tool with its plugin (and schema with --json)
  mcp-gateway call TOOL ['JSON']      call one tool in process and print its result
  mcp-gateway plugins                 list the registry and which plugins are enabled
  mcp-gateway keys owner              print the owner key (dataDir/owner.key) with ready-to-paste lines
  mcp-gateway keys create --name NAME [--scope SCOPE]...
                                      make another API key; prints it once, with the config lines
  mcp-gateway plugin new NAME [--dir DIR]
                                      write a new plugin package (TypeScript, a tool, its test,
                                      a registry entry) into DIR (default: ./NAME), never over files

Options:
  --config FILE    the config file (default: $MCP_GATEWAY_CONFIG, then ./gateway.config.yaml)
  --workspace DIR  the folder the file and process tools work in (default: the config's
                   workspace; else the working directory, or with --stdio the client's roots)
  --help, --version
`;

const options = {
  config: { type: 'string' },
  workspace: { type: 'string' },
  stdio: { type: 'boolean' },
  http: { type: 'string' },
  tcp: { type: 'string' },
  unix: { type: 'string' },
  'no-http': { type: 'boolean' },
  'no-tcp': { type: 'boolean' },
  'no-unix': { type: 'boolean' },
  name: { type: 'string' },
  dir: { type: 'string' },
  scope: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    return fail(`${(err as Error).message}\n\n${HELP}`);
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) return print(HELP);
  if (flags.version) return print(`${GATEWAY_VERSION}\n`);
  const command = flags.stdio ? 'stdio' : (positionals[0] ?? 'help');
  switch (command) {
    case 'stdio':
      return runStdio(flags);
    case 'serve':
      return runServe(flags);
    case 'tools':
      return listTools(flags);
    case 'call':
      return callTool(flags, positionals[1], positionals[2]);
    case 'plugins':
      return listPlugins(flags);
    case 'keys':
      if (positionals[1] === 'create') return createKey(flags);
      if (positionals[1] === 'owner') return showOwnerKey(flags);
      return fail(`Usage: mcp-gateway keys owner | keys create --name NAME [--scope SCOPE]...\n`);
    case 'plugin':
      if (positionals[1] === 'new') return newPlugin(positionals[2], flags.dir);
      return fail(`Usage: mcp-gateway plugin new NAME [--dir DIR]\n`);
    case 'help':
      return print(HELP);
    default:
      return fail(`Unknown command "${command}".\n\n${HELP}`);
  }
}

async function boot(flags: Flags, logLevel?: LogLevel): Promise<Gateway> {
  const config = loadConfig({ file: flags.config, workspace: flags.workspace });
  return createGateway({ config, log: createLogger(logLevel ?? config.logLevel) });
}

async function runStdio(flags: Flags): Promise<number> {
  const config = loadConfig({ file: flags.config, workspace: flags.workspace, unsetWorkspace: 'none' });
  let stop: ((reason: string) => Promise<void>) | undefined;
  await serveStdio(config, createLogger(config.logLevel), (gateway) => (stop = shutdownOnSignals(gateway, [])));
  await stop?.('stdin closed');
  process.stdin.destroy();
  return 0;
}

async function runServe(flags: Flags): Promise<number> {
  const gateway = await boot(flags);
  const listeners: Listener[] = [];
  const stop = shutdownOnSignals(gateway, listeners);
  try {
    const { http } = gateway.config.transports;
    if (flags.http || (http.enabled && !flags['no-http'])) {
      const [host, port] = flags.http ? parseHostPort(flags.http, '--http') : [http.host, http.port];
      // Loaded only here: fastify and its plugins would add ~0.2 s to every --stdio start.
      const { listenHttp } = await import('./http/http-server.js');
      listeners.push(await listenHttp(gateway, { ...http, host, port }));
    }
    for (const [address, limits] of socketAddresses(gateway.config, flags)) {
      listeners.push(await listenSocket(gateway, address, limits));
    }
  } catch (err) {
    await stop('start-up failed');
    throw err;
  }
  if (listeners.length === 0) gateway.log.warn('no transport is enabled; nothing to serve');
  announceAuth(gateway, listeners);
  await aborted(gateway.signal);
  await stop('signal');
  return 0;
}

/**
 * Tells the person starting the gateway how to reach it: with `auth: key`, at the first start
 * the owner key with lines to paste (later starts name the command that prints them again);
 * with `auth: none`, a warning at every start.
 */
function announceAuth(gateway: Gateway, listeners: readonly Listener[]): void {
  if (!listeners.some((l) => l.address.kind !== 'unix')) return;
  if (!gateway.ownerKey) {
    gateway.log.warn('auth: none: HTTP and TCP answer anyone on this machine without a key, and every local account can run what the tools allow. Remove auth: none from the config to require keys.');
    return;
  }
  const http = listeners.map((l) => l.address).find((a) => a.kind === 'http');
  if (gateway.ownerKey.created) process.stderr.write(ownerKeyLines(gateway.ownerKey.key, gateway.ownerKey.file, http, 'created'));
  else gateway.log.info({ file: gateway.ownerKey.file }, 'HTTP and TCP need an API key; `mcp-gateway keys owner` prints the owner key with ready-to-paste lines');
}

/** The owner key with lines a person can paste into a shell, Claude Code, the Inspector, a browser. */
function ownerKeyLines(key: string, file: string, http: { readonly host: string; readonly port: number } | undefined, how: 'created' | 'stored'): string {
  const lines = [`mcp-gateway: owner API key (${how === 'created' ? 'created now' : 'stored'} in ${file}, mode 0600; it can call every tool):`, '', `  ${key}`, ''];
  if (http) {
    const host = http.host.includes(':') ? `[${http.host}]` : http.host;
    const base = `http://${host}:${http.port}`;
    lines.push(
      `  curl -X POST ${base}/tools/gateway_status -H 'Authorization: Bearer ${key}'`,
      `  claude mcp add --transport http gateway ${base}/mcp --header 'Authorization: Bearer ${key}'`,
      `  npx @modelcontextprotocol/inspector --cli ${base}/mcp --header 'Authorization: Bearer ${key}' --method tools/list`,
      `  explorer: ${base}/docs?key=${key}`,
    );
  }
  lines.push(`  TCP: send it in initialize as params._meta.apiKey. stdio and the unix socket need no key.`, '');
  return `${lines.join('\n')}\n`;
}

async function showOwnerKey(flags: Flags): Promise<number> {
  const config = loadConfig({ file: flags.config, unsetWorkspace: 'none' });
  if (config.auth === 'none') return fail('auth: none is set in the config: no key is needed (or checked).\n');
  const { loadOwnerKey } = await import('./owner-key.js');
  const owner = loadOwnerKey(config.dataDir);
  const { http } = config.transports;
  return print(ownerKeyLines(owner.key, owner.file, http.enabled ? http : undefined, owner.created ? 'created' : 'stored'));
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function socketAddresses(config: GatewayConfig, flags: Flags) {
  const { tcp, unix } = config.transports;
  const out: Array<[SocketAddress, ListenerConfig]> = [];
  if (flags.tcp || (tcp.enabled && !flags['no-tcp'])) {
    const [host, port] = flags.tcp ? parseHostPort(flags.tcp, '--tcp') : [tcp.host, tcp.port];
    out.push([{ kind: 'tcp', host, port }, tcp]);
  }
  if (flags.unix || (unix.enabled && !flags['no-unix'])) {
    out.push([{ kind: 'unix', path: flags.unix ?? unix.path }, unix]);
  }
  return out;
}

function parseHostPort(value: string, flag: string): [string, number] {
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !match[1] || port > 65535) throw new Error(`${flag} takes HOST:PORT (e.g. 127.0.0.1:9100), not "${value}".`);
  return [match[1].replace(/^\[(.*)\]$/, '$1'), port];
}

/**
 * Returns the one shutdown routine, also wired to SIGINT/SIGTERM: close listeners, then the
 * gateway (plugin closers in reverse order). The process then exits by itself; if a closer
 * hangs or a handle is left open, the watchdog exits with status 1 after the budget.
 */
function shutdownOnSignals(gateway: Gateway, listeners: Listener[]): (reason: string) => Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopping ??= (async () => {
      gateway.log.info({ reason }, 'shutting down');
      const watchdog = setTimeout(() => {
        gateway.log.error('shutdown did not finish within the budget (a closer hung or a handle stayed open); exiting');
        process.exit(1);
      }, gateway.config.shutdownTimeoutMs + 2000);
      watchdog.unref();
      await Promise.allSettled(listeners.map((l) => l.close()));
      await gateway.close();
      gateway.log.info('stopped');
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(signal));
  return stop;
}

async function listTools(flags: Flags): Promise<number> {
  const gateway = await boot(flags, 'warn');
  try {
    const tools = gateway.catalog.list();
    if (flags.json) {
      return print(`${JSON.stringify(tools.map((t) => ({ plugin: t.plugin, ...t.listing })), null, 2)}\n`);
    }
    const width = Math.max(4, ...tools.map((t) => t.listing.name.length));
    const lines = tools.map((t) => `${t.listing.name.padEnd(width)}  ${t.plugin.padEnd(12)}  ${firstSentence(t.listing.description ?? '')}`);
    return print(`${lines.join('\n')}\n`);
  } finally {
    await gateway.close();
  }
}

async function callTool(flags: Flags, name: string | undefined, json: string | undefined): Promise<number> {
  if (!name) return fail(`Usage: mcp-gateway call TOOL ['{"arg": "value"}']\n`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      return fail(`The arguments are not valid JSON: ${(err as Error).message}\n`);
    }
  }
  const gateway = await boot(flags, 'warn');
  try {
    const outcome = await gateway.catalog.call(name, args, { caller: { transport: 'cli', identity: 'cli' } });
    if (outcome.ok) return print(`${JSON.stringify(toRestData(outcome.value), null, 2)}\n`);
    return fail(`${JSON.stringify(errorBody(outcome.error), null, 2)}\n`);
  } finally {
    await gateway.close();
  }
}

/** The registry with each plugin's version and description, read from its module (their one source). */
async function listPlugins(flags: Flags): Promise<number> {
  const config = loadConfig({ file: flags.config, unsetWorkspace: 'none' });
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR, ...config.registries]);
  const lines = await Promise.all(
    [...registry.values()].map(async (entry) => {
      const settings = config.plugins[entry.name];
      const state = settings?.enabled ? 'enabled ' : 'disabled';
      const about = await import(entry.module).then(
        (mod: { default?: { version?: unknown; description?: unknown } }) => `${String(mod.default?.version ?? '?').padEnd(8)} ${firstSentence(String(mod.default?.description ?? ''))}`,
        (err: Error) => `${'?'.padEnd(8)} (cannot import ${entry.module}: ${err.message})`,
      );
      return `${entry.name.padEnd(14)} ${state}  ${about}`;
    }),
  );
  return print(`${lines.join('\n') || '(the registry is empty)'}\n`);
}

async function createKey(flags: Flags): Promise<number> {
  if (!flags.name || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(flags.name)) {
    return fail('keys create needs --name NAME (letters, digits, "_", "." or "-").\n');
  }
  const scopes = flags.scope?.length ? flags.scope : ['*'];
  const { createApiKey } = await import('./http/api-keys.js');
  const { key, hash } = createApiKey();
  return print(
    `API key for "${flags.name}" (shown once; store it now):\n\n  ${key}\n\n` +
      `Add to gateway.config.yaml under apiKeys:\n\n` +
      `  - name: ${flags.name}\n    hash: ${hash}\n    scopes: [${scopes.map((s) => JSON.stringify(s)).join(', ')}]\n\n` +
      `Send it over HTTP as "Authorization: Bearer <key>" or "X-API-Key: <key>", over TCP in initialize as params._meta.apiKey.\n`,
  );
}

async function newPlugin(name: string | undefined, dir: string | undefined): Promise<number> {
  if (!name) return fail('Usage: mcp-gateway plugin new NAME [--dir DIR]\n');
  const { scaffoldPlugin } = await import('./plugins/scaffold.js');
  let result;
  try {
    result = scaffoldPlugin(name, dir ?? name);
  } catch (err) {
    return fail(`mcp-gateway plugin new: ${(err as Error).message}\n`);
  }
  return print(
    `Wrote the plugin "${name}" in ${result.dir}:\n${result.files.map((f) => `  ${f}`).join('\n')}\n\n` +
      `Build and test it (README.md says more):\n\n  cd ${result.dir}\n  npm install\n  npm run build\n  npm test\n`,
  );
}

function firstSentence(text: string): string {
  const sentence = /^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text;
  return sentence.trim();
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

function fail(text: string): number {
  process.stderr.write(text);
  return 1;
}

/** Entry point of bin/mcp-gateway.js. */
export function run(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      const { code, address, port } = err as { code?: string; address?: string; port?: number };
      const message = isGatewayError(err)
        ? `${err.code}: ${err.message}`
        : code === 'EADDRINUSE'
          ? `${address}:${port} is already in use (another gateway?). Choose other ports with --http / --tcp, or MCP_GATEWAY_HTTP_PORT / MCP_GATEWAY_TCP_PORT with the shipped config.`
          : ((err as Error)?.stack ?? String(err));
      process.stderr.write(`mcp-gateway: ${message}\n`);
      process.exitCode = 1;
    },
  );
}
