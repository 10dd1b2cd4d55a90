import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpAdmission } from './http-admission.js';
import { rawErrorResponse, sendError, statusOf, type HttpHeaders } from './http-reply.js';
import type { PreparedSocket } from '../plugins/plugin-route-table.js';
import { forbiddenRoute } from './plugin-routes.js';
import type { PluginSocket, RouteCaller } from '../contract/route-types.js';

/** What this file uses of the gateway. */
export type PluginSocketsGateway = Pick<Gateway, 'errors' | 'log' | 'routes'>;

/** Close codes of plugin sockets besides the standard ones. */
export const PluginSocketCloseCode = {
  GoingAway: 1001,
  /** The plugin's handler threw. */
  InternalError: 1011,
  /** Too many messages arrived before the plugin listened for them. */
  PolicyViolation: 1008,
  /** The client fell more than `maxQueuedBytes` behind. */
  TooSlow: 4008,
  /** No pong came back within one ping interval. */
  NoPong: 4009,
} as const;

const EARLY_MESSAGES = 64;
const CLOSE_GRACE_MS = 500;
export const PLUGIN_PREFIX = '/plugins/';

type Client = WebSocket & { alive?: boolean };

/**
 * Plugin WebSocket routes (`ctx.http.websocket`) on the HTTP server's `upgrade` event, next to
 * `/events` (events-socket.ts leaves `/plugins/` paths to this module). An upgrade passes the
 * same admission as any request (Host/Origin, key, rate limit), then the key's route scope and
 * `pluginSockets.maxClients`; a refusal is a plain HTTP response with the error envelope. A
 * plain GET on a socket's path answers UPGRADE_REQUIRED.
 */
export function attachPluginSockets(app: FastifyInstance, gateway: PluginSocketsGateway, admission: HttpAdmission, config: HttpConfig['pluginSockets']): void {
  const servers = new Map<string, { socket: PreparedSocket; wss: WebSocketServer }>();
  for (const socket of gateway.routes.sockets) {
    servers.set(socket.url, { socket, wss: new WebSocketServer({ noServer: true, maxPayload: socket.maxMessageBytes }) });
    app.get(socket.url, { schema: { hide: true } }, (_request, reply) =>
      sendError(reply, new GatewayError('UPGRADE_REQUIRED', `${socket.url} is a WebSocket: connect with a WebSocket client.`), gateway.errors),
    );
  }
  const clients = new Set<Client>();

  app.server.on('upgrade', (request: IncomingMessage, duplex: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://gateway').pathname;
    if (!path.startsWith(PLUGIN_PREFIX)) return;
    duplex.on('error', () => {});
    const refuse = (error: GatewayError, headers?: HttpHeaders) => void duplex.end(rawErrorResponse(error, statusOf(error, gateway.errors), headers));
    const admitted = admission.admit(request, path);
    if (!admitted.ok) return refuse(admitted.error, admitted.headers);
    const entry = servers.get(path);
    if (!entry) return refuse(new GatewayError('NOT_FOUND', `No WebSocket route at ${path}.`));
    const { principal } = admitted;
    if (principal && !principal.mayCallRoute(entry.socket.plugin, entry.socket.scope)) return refuse(forbiddenRoute(entry.socket.plugin, principal));
    if (clients.size >= config.maxClients) return refuse(new GatewayError('CONNECTION_LIMIT', 'Too many plugin WebSocket clients; retry later.'));
    const address = request.socket.remoteAddress;
    const caller: RouteCaller = { identity: principal?.name ?? address ?? 'unknown', keyName: principal?.name, address };
    const query = Object.fromEntries(new URL(request.url ?? '/', 'http://gateway').searchParams);
    entry.wss.handleUpgrade(request, duplex, head, (ws: Client) => {
      clients.add(ws);
      ws.once('close', () => clients.delete(ws));
      serveClient(gateway, entry.socket, ws, caller, query);
    });
  });

  const ping = setInterval(() => {
    for (const ws of clients) {
      if (ws.alive === false) {
        ws.close(PluginSocketCloseCode.NoPong, 'no pong received');
        ws.terminate();
        continue;
      }
      ws.alive = false;
      ws.ping();
    }
  }, config.pingIntervalMs);
  ping.unref();

  // preClose, as for /events: an upgraded socket would keep the server from closing.
  app.addHook('preClose', async () => {
    clearInterval(ping);
    for (const ws of clients) ws.close(PluginSocketCloseCode.GoingAway, 'gateway shutting down');
    const grace = setTimeout(() => {
      for (const ws of clients) ws.terminate();
    }, CLOSE_GRACE_MS);
    // Each server calls back once its own clients have closed.
    await Promise.all([...servers.values()].map(({ wss }) => new Promise<void>((resolve) => wss.close(() => resolve()))));
    clearTimeout(grace);
  });
}

function serveClient(gateway: PluginSocketsGateway, route: PreparedSocket, ws: Client, caller: RouteCaller, query: Record<string, string>): void {
  const log = gateway.log.child({ plugin: route.plugin, socket: route.url });
  const closed = new AbortController();
  const handlers: Array<(message: string | Buffer) => void> = [];
  let early: Array<string | Buffer> | undefined = [];
  ws.alive = true;
  ws.on('pong', () => (ws.alive = true));
  ws.on('error', () => {});
  ws.on('close', () => closed.abort(new GatewayError('CANCELLED', 'The WebSocket closed.')));

  const fail = (err: unknown) => {
    log.error({ err }, 'plugin socket handler failed');
    ws.close(PluginSocketCloseCode.InternalError, 'internal error');
  };
  const deliver = (message: string | Buffer) => {
    for (const handler of handlers) {
      try {
        handler(message);
      } catch (err) {
        return fail(err);
      }
    }
  };
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const message = isBinary ? toBuffer(data) : toBuffer(data).toString('utf8');
    if (!early) return deliver(message);
    if (early.length >= EARLY_MESSAGES) return void ws.close(PluginSocketCloseCode.PolicyViolation, 'too many messages before the server listened');
    early.push(message);
  });

  const socket: PluginSocket = {
    caller,
    query,
    signal: closed.signal,
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    send(message) {
      if (ws.readyState !== ws.OPEN) return false;
      if (ws.bufferedAmount > route.maxQueuedBytes) {
        ws.close(PluginSocketCloseCode.TooSlow, 'consumer too slow: its queue passed the limit');
        // The close frame waits behind the queue; a client that reads nothing would never get it.
        setTimeout(() => ws.terminate(), 1000).unref();
        return false;
      }
      ws.send(typeof message === 'string' || message instanceof Uint8Array ? message : JSON.stringify(message));
      return true;
    },
    onMessage(handler) {
      handlers.push(handler);
      const waiting = early;
      early = undefined;
      for (const message of waiting ?? []) deliver(message);
    },
    close(code = 1000, reason) {
      ws.close(code, reason);
    },
  };
  Promise.resolve()
    .then(() => route.handler(socket))
    .catch(fail);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
