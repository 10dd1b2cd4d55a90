import { GatewayError, type PluginReport } from '@mcp-gateway/core';
import type { ServerConfig } from './config.js';
import type { UpstreamContext } from './declaration.js';
import type { UpstreamErrorCode } from './errors.js';
import { NameClaims } from './name-claims.js';
import { ServerLink } from './server-link.js';
import { ServerMirror } from './server-mirror.js';
import { UpstreamServer } from './upstream-server.js';

interface Upstream {
  readonly server: UpstreamServer;
  readonly mirror: ServerMirror;
}

/**
 * The plugin's setup: connects each enabled server and mirrors its tools, resources and prompts
 * into the catalog. Apart from index.ts, which imports it when the plugin is set up, so that
 * reading the plugin object (for `mcp-gateway upstream add`) does not load the SDK client.
 */
export async function federate(ctx: UpstreamContext, version: string): Promise<void> {
  const servers = ctx.config.servers.filter((s) => s.enabled);
  checkServers(servers);
  const claims = new NameClaims();
  const upstreams: Upstream[] = servers.map((config) => connectable(ctx, config, claims, version));
  ctx.onClose(async () => {
    await Promise.all(upstreams.map(({ server }) => server.close()));
  });
  ctx.reportStatus(() => report(upstreams));

  const started = await Promise.allSettled(upstreams.map(({ server }) => server.start()));
  const failures: string[] = [];
  started.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') return;
    const { server } = upstreams[i]!;
    const reason = (outcome.reason as Error).message;
    if (!servers[i]!.optional) return failures.push(reason);
    ctx.log.warn({ server: server.name, reason }, 'optional upstream server not reachable at start; retrying in the background');
    server.retryLater();
  });
  if (failures.length) {
    throw new GatewayError('PLUGIN_LOAD_FAILED', `${failures.map((f) => (f.endsWith('.') ? f : `${f}.`)).join(' ')} Mark a server optional: true to start without it.`);
  }
  await Promise.all(upstreams.map(({ mirror }) => mirror.settled()));
}

function connectable(ctx: UpstreamContext, config: ServerConfig, claims: NameClaims, version: string): Upstream {
  const error = (code: UpstreamErrorCode, message: string, details?: unknown) => ctx.error(code, message, details);
  const roots = config.roots?.map((path) => insideWorkspace(ctx, config, path));
  const server = new UpstreamServer({ config, plugin: ctx.config, workspaceRoot: ctx.workspace.root, roots, version, log: ctx.log, error });
  const mirror = new ServerMirror(new ServerLink(ctx, config, server), claims, ctx.config.whenDown === 'withdraw');
  server.listen(mirror);
  return { server, mirror };
}

/** A root of `config`, resolved in the workspace sandbox; one outside it stops the boot. */
function insideWorkspace(ctx: UpstreamContext, config: ServerConfig, path: string): string {
  try {
    return ctx.workspace.resolve(path);
  } catch (err) {
    throw new GatewayError('CONFIG_INVALID', `plugins.upstream.config.servers (name "${config.name}"): roots: ${(err as Error).message}`);
  }
}

/** What the schema cannot say: one of command and url per server, and names used once. */
function checkServers(servers: readonly ServerConfig[]): void {
  const seen = new Set<string>();
  for (const server of servers) {
    const where = `plugins.upstream.config.servers (name "${server.name}")`;
    if ((server.command === undefined) === (server.url === undefined)) {
      throw new GatewayError('CONFIG_INVALID', `${where}: give either command (a stdio server) or url (a Streamable HTTP server).`);
    }
    if (server.url !== undefined && (server.args.length || server.cwd !== undefined || Object.keys(server.env).length || server.roots)) {
      throw new GatewayError('CONFIG_INVALID', `${where}: args, env, cwd and roots belong to a stdio server (command), not to url.`);
    }
    if (server.command !== undefined && Object.keys(server.headers).length) {
      throw new GatewayError('CONFIG_INVALID', `${where}: headers belong to an HTTP server (url), not to command.`);
    }
    if (seen.has(server.name)) throw new GatewayError('CONFIG_INVALID', `${where}: the name is used twice.`);
    seen.add(server.name);
  }
}

/** Each server's state for gateway_status and /health, and as gauges on /metrics. */
function report(upstreams: readonly Upstream[]): PluginReport {
  const servers = upstreams.map(({ server, mirror }) => ({ ...server.status(), ...mirror.status() }));
  const gauges = servers.flatMap((s) => {
    const labels = { server: s.name };
    return [
      { name: 'connected', help: 'Whether the upstream server is connected (1) or not (0).', labels, value: s.state === 'connected' ? 1 : 0 },
      { name: 'restarts', help: 'Restarts (stdio) or reconnects (HTTP) of the upstream server since the gateway started.', labels, value: s.restarts },
      { name: 'tools', help: 'Tools of the upstream server in the catalog.', labels, value: s.tools.length },
    ];
  });
  return { ok: servers.every((s) => s.state === 'connected'), detail: { servers }, gauges };
}
