import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpGuard } from './http-guard.js';
import { isValidPattern, type GatewayEvent } from '../lib/events.js';
import { rawErrorResponse, statusOf } from './http-reply.js';
import { PLUGIN_PREFIX } from './plugin-sockets.js';

/** What this file uses of the gateway. */
export type EventStreamGateway = Pick<Gateway, 'errors' | 'events'>;

/** Close codes of the event stream (4000–4999 are the application's own). */
export const EventsCloseCode = {
  /** The client fell too far behind: more than `maxQueuedBytes` waited to be sent. */
  TooSlow: 4008,
  /** No pong came back for a ping within one ping interval. */
  NoPong: 4009,
  GoingAway: 1001,
} as const;

const MAX_CLIENT_MESSAGE = 64 * 1024;
const CLOSE_GRACE_MS = 500;
const MAX_SUBSCRIPTIONS = 64;

/**
 * `GET /events` upgraded to a WebSocket. A client sends
 * `{"type": "subscribe", "channels": ["process.*"]}` (or `unsubscribe`) and receives
 * `{"type": "event", "channel", "source", "time", "data"}` for what plugins publish. Each
 * client has a bounded queue: one that falls behind is disconnected with 4008, and nobody
 * else waits for it.
 */
export function attachEventStream(app: FastifyInstance, gateway: EventStreamGateway, guard: HttpGuard, config: HttpConfig['events']): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE });

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const refuse = (error: GatewayError) => void socket.end(rawErrorResponse(error, statusOf(error, gateway.errors)));
    const path = new URL(request.url ?? '/', 'http://gateway').pathname;
    // Plugin WebSocket routes answer their own upgrades (plugin-sockets.ts).
    if (path.startsWith(PLUGIN_PREFIX)) return;
    if (path !== '/events') return refuse(new GatewayError('NOT_FOUND', 'Only /events and plugin WebSocket routes accept WebSocket upgrades.'));
    const guarded = guard.check(request);
    if (!guarded.ok) return refuse(guarded.error);
    if (guarded.principal && !guarded.principal.mayReadEvents) return refuse(new GatewayError('FORBIDDEN', 'This API key has no "events" scope.'));
    if (wss.clients.size >= config.maxClients) return refuse(new GatewayError('CONNECTION_LIMIT', 'Too many event stream clients; retry later.'));
    wss.handleUpgrade(request, socket, head, (ws) => serveClient(ws));
  });

  const ping = setInterval(() => {
    for (const ws of wss.clients) {
      const client = ws as WebSocket & { alive?: boolean };
      if (client.alive === false) {
        client.close(EventsCloseCode.NoPong, 'no pong received');
        client.terminate();
        continue;
      }
      client.alive = false;
      client.ping();
    }
  }, config.pingIntervalMs);
  ping.unref();

  // preClose, not onClose: fastify waits for its server to close before onClose, and an
  // upgraded socket keeps the server open.
  app.addHook('preClose', async () => {
    clearInterval(ping);
    for (const ws of wss.clients) ws.close(EventsCloseCode.GoingAway, 'gateway shutting down');
    // A client that does not answer the close (suspended, or not reading) would hold shutdown
    // for ws's 30 s close timeout, past the CLI's watchdog: cut it off after a short grace.
    const grace = setTimeout(() => {
      for (const ws of wss.clients) ws.terminate();
    }, CLOSE_GRACE_MS);
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    clearTimeout(grace);
  });

  function serveClient(ws: WebSocket & { alive?: boolean }): void {
    ws.alive = true;
    ws.on('pong', () => {
      ws.alive = true;
    });
    ws.on('error', () => {});
    const subscriptions = new Map<string, () => void>();
    const deliver = (event: GatewayEvent) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > config.maxQueuedBytes) {
        dropSlowClient(ws, subscriptions);
        return;
      }
      ws.send(JSON.stringify({ type: 'event', ...event }));
    };
    const reply = (message: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(message));

    ws.on('message', (raw) => {
      const request = parseRequest(raw.toString());
      if (typeof request === 'string') return reply({ type: 'error', code: 'INVALID_REQUEST', message: request });
      if (request.type === 'unsubscribe') {
        for (const channel of request.channels) {
          subscriptions.get(channel)?.();
          subscriptions.delete(channel);
        }
        return reply({ type: 'unsubscribed', channels: request.channels });
      }
      // In order, up to the limit: the patterns before it stay subscribed, as documented.
      const over: string[] = [];
      const subscribed = request.channels.filter((channel) => {
        if (subscriptions.has(channel)) return true;
        if (subscriptions.size >= MAX_SUBSCRIPTIONS) return !over.push(channel);
        subscriptions.set(channel, gateway.events.subscribe(channel, deliver));
        return true;
      });
      if (subscribed.length > 0) reply({ type: 'subscribed', channels: subscribed });
      if (over.length > 0) {
        reply({ type: 'error', code: 'INVALID_REQUEST', message: `At most ${MAX_SUBSCRIPTIONS} subscriptions per client; ${over.length} pattern(s) from ${over[0]} on were not subscribed.` });
      }
    });
    ws.on('close', () => {
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    });
  }
}

function dropSlowClient(ws: WebSocket, subscriptions: Map<string, () => void>): void {
  for (const unsubscribe of subscriptions.values()) unsubscribe();
  subscriptions.clear();
  ws.close(EventsCloseCode.TooSlow, 'consumer too slow: its queue passed the limit');
  // The close frame waits behind the queue; a client that reads nothing would never get it.
  setTimeout(() => ws.terminate(), 1000).unref();
}

type StreamRequest = { type: 'subscribe' | 'unsubscribe'; channels: string[] };

/** A valid request, or the reason it is not one. */
function parseRequest(text: string): StreamRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'Messages must be JSON: {"type": "subscribe", "channels": ["process.*"]}.';
  }
  const { type, channels } = (value ?? {}) as { type?: unknown; channels?: unknown };
  if (type !== 'subscribe' && type !== 'unsubscribe') return '"type" must be "subscribe" or "unsubscribe".';
  if (!Array.isArray(channels) || channels.length === 0 || !channels.every((c) => typeof c === 'string' && isValidPattern(c))) {
    return '"channels" must be a non-empty list of patterns like "process.*" or "collab.**".';
  }
  return { type, channels: [...new Set(channels as string[])] };
}
