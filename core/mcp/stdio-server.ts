import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import { once } from 'node:events';
import { learnClientRoots, workspaceOfRoots, type ClientRoots } from './client-roots.js';
import { deepFreeze, type ConfigWithoutWorkspace, type GatewayConfig } from '../config/config.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import type { Logger } from '../lib/logger.js';
import { HeldTransport } from './held-transport.js';
import { callerView } from '../catalog/caller-view.js';
import type { Lifecycle } from '../runtime/lifecycle.js';
import { NdjsonTransport } from './ndjson-transport.js';
import { makePrivateDir } from '../fs/private-files.js';
import { GATEWAY_VERSION } from '../lib/version.js';
import { serverCapabilities } from './mcp-session.js';
import { mcpFace } from './mcp-face.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../plugins/registry.js';
import { declaredChannels } from '../plugins/plugin-module.js';
import type { CachedAnswers } from './cached-answers.js';
import { keepSnapshot, reconcileEarlyAnswers } from './stdio-cache-keeper.js';
import { takeEarlyStdio } from './stdio-early.js';

/**
 * Boots the gateway for the one client on stdin/stdout and serves its MCP session; resolves
 * when the client closes stdin (its way of saying it is done) or the lifecycle closes. The
 * session is the lifecycle's first part, started before the boot: stdin is read from the
 * start (what the client sends meanwhile is held for the session), so its end, like a
 * signal, stops a boot still in progress. Rejects with SHUTTING_DOWN when that happens.
 *
 * With no workspace from `--workspace` or the config, the client's first MCP root is the
 * workspace, asked for before any plugin boots. Without one, the gateway boots no plugins and
 * a call of the one tool left, gateway_status, answers CONFIG_INVALID saying how to set the
 * workspace, so that the person reading the client's tool output or its server log learns the fix.
 *
 * stdout carries JSON-RPC and nothing else: the logger writes to stderr and child processes
 * never inherit stdout.
 *
 * With a workspace known from the start, the session's first answers may already be out:
 * bin/mcp-gateway.js answered `initialize` and `tools/list` from the catalog cached by the last
 * identical start (stdio-early.ts); this takes over from it, answers the same way until the
 * session is connected, then tells the client if the booted gateway lists other tools, and
 * keeps the cache current for the next start.
 */
export async function serveStdio(config: ConfigWithoutWorkspace, log: Logger, lifecycle: Lifecycle): Promise<void> {
  const early = takeEarlyStdio();
  const stop = () => void lifecycle.close('stdin closed');
  const stdio = new NdjsonTransport(process.stdin, process.stdout, {
    maxMessageBytes: config.transports.stdio.maxMessageBytes,
    // The client closing stdin is its way of saying it is done: the shutdown begins at once,
    // and the answers of the calls it already sent still go out while the gateway drains.
    onInputEnd: stop,
    onEnd: stop,
  });
  // Closing the transport (the session's server closes it too) ends stdin's reading.
  await lifecycle.start('stdio', async () => stdio, (transport) => transport.close());
  if (early?.ended) stop();

  let gateway: Gateway;
  let roots: ClientRoots | undefined;
  let held: HeldTransport | undefined;
  let answers: CachedAnswers | undefined;
  if (config.workspace !== undefined) {
    answers = early?.answers;
    held = new HeldTransport(stdio, (message) => {
      const { reply, keep } = answers?.handle(message) ?? { keep: true };
      if (reply) held!.sendEarly(reply as JSONRPCMessage).catch(() => {});
      if (keep) held!.hold(message);
    });
    await held.start();
    early?.resume();
    gateway = await refusingOnFailure(held, lifecycle, () => createGateway({ config: config as GatewayConfig, log, lifecycle }));
  } else {
    // No early answers here: a start without a workspace never writes the cache.
    const learning = learnClientRoots(stdio, GATEWAY_VERSION, serverCapabilities(await channelsBeforeBoot(config)));
    early?.resume();
    try {
      roots = await learning;
    } catch (err) {
      log.info({ reason: (err as Error).message }, 'no session to serve');
      return;
    }
    await lifecycle.checkpoint('roots-known');
    const known = roots;
    gateway = await refusingOnFailure(known.transport, lifecycle, () =>
      'workspace' in known ? bootOn(config, known.workspace, log, lifecycle) : bootWithoutWorkspace(config, known.problem, log, lifecycle),
    );
  }
  try {
    const transport = roots?.transport ?? held!;
    // stdio is one client's endpoint: the start's profile (--profile, else the config's default).
    // A 2025 session (the client's `initialize`) learns what happened before it existed.
    (await mcpFace(gateway)).serveStream(transport, { transport: 'stdio', peer: 'stdio', view: callerView(undefined, gateway.profiles.default) }, ({ server, session }) => {
      if (roots) watchRoots(server, 'workspace' in roots ? roots.workspace : undefined, log);
      // Once the replayed handshake has run: the session may notify from then on.
      const { oninitialized } = server;
      if (answers) {
        server.oninitialized = () => {
          oninitialized?.();
          reconcileEarlyAnswers(answers, gateway, session);
        };
      }
    });
    transport.release(answers?.initializeId ?? roots?.initializeId);
    // Only for the binary's starts (early is there): an in-process serveStdio has no command line of its own.
    if (held && early && config.transports.stdio.catalogCache) keepSnapshot(early.slot, gateway, config.transports.stdio.maxMessageBytes);
  } catch (err) {
    gateway.log.error({ err }, 'could not start the stdio session');
    return;
  }
  await lifecycle.checkpoint('session-open');
  lifecycle.ready();
  await once(lifecycle.signal, 'abort');
}

/**
 * Boots with `boot`; a boot that fails for a reason the user can fix (a GatewayError: an
 * unknown plugin, a plugin's bad config) answers the client's requests with it before the
 * failure goes on, so that the client shows why. A shutdown is no such failure.
 */
async function refusingOnFailure(held: HeldTransport, lifecycle: Lifecycle, boot: () => Promise<Gateway>): Promise<Gateway> {
  try {
    return await boot();
  } catch (err) {
    if (isGatewayError(err) && !lifecycle.signal.aborted) await held.refuse(err);
    throw err;
  }
}

/**
 * The channels `initialize` announces when it is answered before the gateway boots: those of
 * the plugin objects the boot sets up next, imported here already. A registry that cannot be
 * read announces none; the boot then stops with the registry's own error.
 */
async function channelsBeforeBoot(config: ConfigWithoutWorkspace): Promise<string[]> {
  let registry;
  try {
    registry = loadRegistry([BUILTIN_REGISTRY_DIR, ...config.registries]);
  } catch {
    return [];
  }
  return declaredChannels(registry, config.plugins);
}

function bootOn(config: ConfigWithoutWorkspace, workspace: string, log: Logger, lifecycle: Lifecycle): Promise<Gateway> {
  log.info({ workspace }, "workspace: the MCP client's first root");
  return createGateway({ config: deepFreeze({ ...config, workspace }), log, lifecycle });
}

/**
 * A gateway with no plugins whose every call is refused with the fix, rather than an exit:
 * a desktop client shows a crashed server as a bare failure, but relays a tool's error. The
 * workspace it needs is the data folder, which nothing uses, as no plugin is loaded.
 */
async function bootWithoutWorkspace(config: ConfigWithoutWorkspace, problem: string, log: Logger, lifecycle: Lifecycle): Promise<Gateway> {
  const message =
    `No workspace: ${problem}, and neither --workspace nor workspace: in the config is set. ` +
    `Add "--workspace", "/path/to/project" to this server's args in the MCP client's config, or set workspace: in ${config.file ?? 'a gateway.config.yaml passed with --config'}; then restart the server.`;
  log.error(message);
  makePrivateDir(config.dataDir);
  // No tool search either: there is nothing to find, and the one tool listed carries the message.
  const gateway = await createGateway({ config: deepFreeze({ ...config, workspace: config.dataDir, plugins: {}, tools: { ...config.tools, search: false } }), log, lifecycle });
  gateway.calls.require(() => new GatewayError('CONFIG_INVALID', message));
  return gateway;
}

/**
 * The workspace stays what it was at boot: plugins hold it (open files, running processes,
 * their sandboxes), and swapping it under them mid-session is not something they support. A
 * change of the first root is logged with what to do.
 */
function watchRoots(server: Server, workspace: string | undefined, log: Logger): void {
  server.setNotificationHandler('notifications/roots/list_changed', async () => {
    try {
      const outcome = workspaceOfRoots((await server.listRoots()).roots);
      const firstRoot = 'workspace' in outcome ? outcome.workspace : undefined;
      if (firstRoot !== workspace) {
        log.warn({ workspace: workspace ?? null, firstRoot: firstRoot ?? null }, "the MCP client's roots changed; the workspace stays as it was until the server restarts");
      }
    } catch (err) {
      log.warn({ err }, "could not read the MCP client's roots after roots/list_changed");
    }
  });
}
