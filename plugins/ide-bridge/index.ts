// The ide-bridge plugin: one WebSocket to a team's IDE backend (chat sessions with agents,
// plans, builds, a dashboard), a cache of what it says, the ide_ tools over both, and every
// push told again as gateway events. README.md has the config; PROTOCOL.md the wire contract.
import { definePlugin } from '../../core/index.js';
import { Bridge } from './bridge.js';
import { IdeCache } from './cache.js';
import { configSchema } from './config.js';
import { ideErrors } from './errors.js';
import { Exchange, type Request } from './exchange.js';
import { feedAnswer, ShapeRefused } from './feed.js';
import { Inbound } from './inbound.js';
import { Outbox } from './outbox.js';
import { Publisher } from './publish.js';
import { checkedUrl, pluginReport, shownUrl } from './status.js';
import { registerBuildTools } from './tools/builds.js';
import { registerChatTools } from './tools/chat.js';
import { registerDashboardTools } from './tools/dashboard.js';
import type { IdeDeps } from './tools/deps.js';
import { registerStatusTool } from './tools/status.js';

export type { IdeBridgeConfig } from './config.js';

export default definePlugin({
  name: 'ide-bridge',
  version: '0.1.0',
  description: 'Bridge to an IDE backend over WebSocket: chat sessions with agents, plans, builds and a dashboard, cached, with reconnection; its pushes become gateway events.',
  configSchema,
  errors: ideErrors,
  setup(ctx) {
    const config = ctx.config;
    const url = checkedUrl(config.url, (message) => ctx.error('CONFIG_INVALID', message));
    const cache = new IdeCache(config.cache);
    const publisher = new Publisher(ctx);
    const breaker = ctx.breaker('backend', { timeoutMs: config.requestTimeoutMs });
    const keepAnswer = (request: Request, data: Record<string, unknown>) => {
      try {
        feedAnswer(cache, request, data);
      } catch (err) {
        if (!(err instanceof ShapeRefused)) throw err;
        ctx.log.warn({ type: request.type, reason: err.message }, 'ide-bridge: an answer of the backend has an unusable shape; not kept');
      }
    };
    const token = process.env[config.tokenEnv] || undefined;
    // The listener runs only once the bridge starts, below, when everything it names exists.
    const bridge = new Bridge(
      { url, token, handshakeTimeoutMs: config.handshakeTimeoutMs, keepAliveMs: config.keepAliveMs, maxPayloadBytes: config.maxPayloadBytes, ...config.reconnect, log: ctx.log },
      {
        open: () => {
          cache.nextEpoch();
          publisher.bridge('connected', { url: shownUrl(url) });
          void outbox.flush();
        },
        close: () => {
          cache.nextEpoch();
          exchange.abandonAll();
          publisher.bridge('disconnected', { url: shownUrl(url), lastError: bridge.status().lastError });
        },
        frame: (text) => inbound.frame(text),
        refused: (reason) => inbound.refused(reason),
      },
    );
    const exchange = new Exchange(bridge, breaker, ctx.error, keepAnswer);
    const inbound = new Inbound(cache, exchange, publisher, ctx.log);
    const outbox = new Outbox(bridge, exchange, ctx.error, ctx.log, { mode: config.whenDown, limit: config.queueLimit, retryMs: config.requestTimeoutMs });

    const deps: IdeDeps = { ctx, cache, bridge, exchange, outbox, publisher };
    registerChatTools(deps);
    registerBuildTools(deps);
    registerDashboardTools(deps);
    const parts = { url, mode: config.whenDown, queueLimit: config.queueLimit, bridge, breaker, outbox, inbound, cache };
    registerStatusTool(ctx, parts);
    ctx.reportStatus(() => pluginReport(parts));
    ctx.onClose(async () => {
      outbox.close();
      await bridge.close();
      exchange.abandonAll();
    });
    // Connecting runs in the background: the gateway serves the cache (empty, stale) and queues meanwhile.
    bridge.start();
  },
});
