import { deepFreeze, loadConfig, type ConfigWithoutWorkspace, type GatewayConfig, type ListenerConfig } from '../config/config.js';
import { checkProfileName } from '../catalog/profiles.js';
import { isGatewayError } from '../contract/errors.js';
import { gatewayConfigSchema } from '../config/config-schema.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import { isShutdown, Lifecycle } from '../runtime/lifecycle.js';
import { createLogger } from '../lib/logger.js';
import type { SocketAddress } from '../contract/addresses.js';
import { listenSocket } from '../mcp/socket-server.js';
import { refuseStdioSession } from '../mcp/stdio-refusal.js';
import { serveStdio } from '../mcp/stdio-server.js';
import { hostPort, ownerKeyLines } from '../auth/owner-key.js';

type Listener = { readonly address: SocketAddress | { kind: 'http'; host: string; port: number } };

/** What `serve` and `--stdio` take from the command line. */
export interface ServeFlags {
  config?: string;
  workspace?: string;
  http?: string;
  tcp?: string;
  unix?: string;
  'no-http'?: boolean;
  'no-tcp'?: boolean;
  'no-unix'?: boolean;
  /** The profile of MCP clients that name none, instead of the config's `defaultProfile`. */
  profile?: string;
}

/** Watchdog slack past `shutdownTimeoutMs` (the plugin closers' budget) for listeners and the database. */
const WATCHDOG_SLACK_MS = 2000;
const DEFAULT_SHUTDOWN_MS = Number((gatewayConfigSchema.properties as Record<string, { default?: unknown }>).shutdownTimeoutMs!.default);

/**
 * `mcp-gateway serve`: boots the gateway and starts the transports the config enables, each
 * through the lifecycle, then serves until SIGINT/SIGTERM. A signal at any moment of that
 * start-up closes what was started so far and resolves 0.
 */
export async function runServe(flags: ServeFlags): Promise<number> {
  const lifecycle = new Lifecycle();
  const budget = closeOnSignals(lifecycle);
  try {
    await lifecycle.checkpoint('start');
    const config = withProfile(loadConfig({ file: flags.config, workspace: flags.workspace }), flags.profile);
    budget.ms = config.shutdownTimeoutMs + WATCHDOG_SLACK_MS;
    const log = createLogger(config.logLevel);
    lifecycle.log = log;
    await lifecycle.checkpoint('config-read');
    const gateway = await createGateway({ config, log, lifecycle });
    const listeners = await startListeners(gateway, flags);
    await lifecycle.checkpoint('listening');
    lifecycle.ready();
    if (listeners.length === 0) gateway.log.warn('no transport is enabled; nothing to serve');
    announceAuth(gateway, listeners, flags);
    announceProfiles(gateway);
    await lifecycle.checkpoint('ready');
  } catch (err) {
    await lifecycle.close('start-up failed');
    if (!isShutdown(err, lifecycle)) throw err;
  }
  await lifecycle.closed;
  lifecycle.log?.info('stopped');
  return 0;
}

async function startListeners(gateway: Gateway, flags: ServeFlags): Promise<Listener[]> {
  const listeners: Listener[] = [];
  const { http } = gateway.config.transports;
  if (flags.http || (http.enabled && !flags['no-http'])) {
    const [host, port] = flags.http ? parseHostPort(flags.http, '--http') : [http.host, http.port];
    await gateway.lifecycle.checkpoint('http-starting');
    // Loaded only here: fastify and its plugins would add ~0.2 s to every --stdio start.
    const { listenHttp } = await import('../http/http-server.js');
    listeners.push(await listenHttp(gateway, { ...http, host, port }));
  }
  for (const [address, limits] of socketAddresses(gateway.config, flags)) {
    listeners.push(await listenSocket(gateway, address, limits));
  }
  return listeners;
}

/**
 * `mcp-gateway --stdio`: one MCP session on stdin/stdout; ends when the client closes stdin
 * or on SIGINT/SIGTERM, at any moment, booting included.
 */
export async function runStdio(flags: ServeFlags): Promise<number> {
  const lifecycle = new Lifecycle();
  const budget = closeOnSignals(lifecycle);
  try {
    await lifecycle.checkpoint('start');
    const config = await stdioConfig(flags);
    budget.ms = config.shutdownTimeoutMs + WATCHDOG_SLACK_MS;
    const log = createLogger(config.logLevel);
    lifecycle.log = log;
    await lifecycle.checkpoint('config-read');
    await serveStdio(config, log, lifecycle);
  } catch (err) {
    if (!isShutdown(err, lifecycle)) {
      await lifecycle.close('start-up failed');
      // stdin, still open, would keep the process up until the client gives up on it.
      process.stdin.destroy();
      throw err;
    }
  }
  await lifecycle.close('stdin closed');
  lifecycle.log?.info('stopped');
  process.stdin.destroy();
  return 0;
}

/** `config` with `--profile` as its default profile; PROFILE_NOT_FOUND for a name it lacks. */
export function withProfile<T extends Pick<GatewayConfig, 'profiles' | 'defaultProfile'>>(config: T, profile: string | undefined): T {
  if (profile === undefined) return config;
  checkProfileName(config.profiles, profile);
  return deepFreeze({ ...config, defaultProfile: profile });
}

/** The --stdio start's config; when there is none to read, the client's `initialize` is refused with why, before the start fails. */
async function stdioConfig(flags: ServeFlags): Promise<ConfigWithoutWorkspace> {
  try {
    return withProfile(loadConfig({ file: flags.config, workspace: flags.workspace, unsetWorkspace: 'none' }), flags.profile);
  } catch (err) {
    if (isGatewayError(err)) await refuseStdioSession(err);
    throw err;
  }
}

/**
 * SIGINT and SIGTERM close the lifecycle; from the first signal a watchdog exits with status 1
 * if shutdown takes longer than `ms` (a closer hung or a handle stayed open). A second signal
 * gets node's default: the process ends at once.
 */
function closeOnSignals(lifecycle: Lifecycle): { ms: number } {
  // Until the config is read, its default budget.
  const budget = { ms: DEFAULT_SHUTDOWN_MS + WATCHDOG_SLACK_MS };
  lifecycle.signal.addEventListener('abort', () => {
    const watchdog = setTimeout(() => {
      lifecycle.log?.error('shutdown did not finish within the budget (a closer hung or a handle stayed open); exiting');
      process.exit(1);
    }, budget.ms);
    watchdog.unref();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void lifecycle.close(signal));
  return budget;
}

/**
 * Tells the person starting the gateway how to reach it: with `auth: key`, at the first start
 * the owner key with lines to paste (later starts name the command that prints them again);
 * with `auth: none`, a warning at every start.
 */
function announceAuth(gateway: Gateway, listeners: readonly Listener[], flags: ServeFlags): void {
  if (!listeners.some((l) => l.address.kind !== 'unix')) return;
  if (!gateway.ownerKey) {
    gateway.log.warn('auth: none: HTTP and TCP answer anyone on this machine without a key, and every local account can run what the tools allow. Remove auth: none from the config to require keys.');
    return;
  }
  const addresses = listeners.map((l) => l.address);
  const http = addresses.find((a) => a.kind === 'http');
  const tcp = addresses.find((a) => a.kind === 'tcp');
  if (gateway.ownerKey.created) {
    process.stderr.write(ownerKeyLines(gateway.ownerKey.key, gateway.ownerKey.file, http, 'created', tcp));
    return;
  }
  // The addresses in use, not the config's: ports moved by MCP_GATEWAY_HTTP_PORT or --http
  // would otherwise be printed as the config reads them in the shell the command is pasted in.
  const command = ['npx mcp-gateway keys owner', flags.config && `--config ${flags.config}`, http && `--http ${hostPort(http)}`, tcp && `--tcp ${hostPort(tcp)}`];
  gateway.log.info({ file: gateway.ownerKey.file }, `HTTP and TCP need an API key; \`${command.filter(Boolean).join(' ')}\` prints the owner key with ready-to-paste lines`);
}

/** Which profiles there are and how a client picks one, when the config defines any. */
function announceProfiles(gateway: Gateway): void {
  const { profiles } = gateway;
  const names = profiles.names();
  if (names.length === 1) return;
  const count = (name: string) => profiles.listed(profiles.require(name)).length;
  const others = names.filter((n) => n !== profiles.default.name).map((n) => `${n} (${count(n)})`);
  gateway.log.info(
    { defaultProfile: profiles.default.name, profiles: names },
    `MCP clients see the profile "${profiles.default.name}" (${count(profiles.default.name)} tools); the others are ${others.join(', ')}: pick one with /mcp/<profile>, --stdio --profile <profile>, or an API key's profile (GET /profiles lists them)`,
  );
}

function socketAddresses(config: GatewayConfig, flags: ServeFlags) {
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

export function parseHostPort(value: string, flag: string): [string, number] {
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !match[1] || port > 65535) throw new Error(`${flag} takes HOST:PORT (e.g. 127.0.0.1:9100), not "${value}".`);
  return [match[1].replace(/^\[(.*)\]$/, '$1'), port];
}
