// The ide-bridge plugin: one WebSocket to a team's IDE backend (chat sessions with agents,
// plans, builds, a dashboard), a cache of what it says, the ide_ tools over both, and every
// push told again as gateway events. README.md has the config; PROTOCOL.md the wire contract.
import { definePlugin } from '@mcp-gateway/core';
import { Bridge } from './bridge.js';
import { IdeCache } from './cache.js';
import { answerKeeper } from './answers.js';
import { declared } from './declaration.js';
import { Exchange, isNotBackendFailure } from './exchange.js';
import { Inbound } from './inbound.js';
import { Outbox } from './outbox.js';
import { Publisher } from './publish.js';
import { PushLimiter } from './push-limit.js';
import { checkedToken, checkedUrl, pluginReport, shownUrl } from './status.js';
import { registerBuildTools } from './tools/builds.js';
import { registerChatTools } from './tools/chat.js';
import { registerDashboardTools } from './tools/dashboard.js';
import type { IdeDeps } from './tools/deps.js';
import { registerStatusTool } from './tools/status.js';

export type { IdeBridgeConfig } from './config.js';

export default definePlugin({
  ...declared,
  setup(ctx) {
    const config = ctx.config;
    const refuse = (message: string) => ctx.error('CONFIG_INVALID', message);
    const url = checkedUrl(config.url, refuse);
    const token = checkedToken(process.env[config.tokenEnv] || undefined, config.tokenEnv, url, refuse, ctx.log);
    const cache = new IdeCache(config.cache);
    const publisher = new Publisher(ctx, config.cache.builds);
    const breaker = ctx.breaker('backend', { timeoutMs: config.requestTimeoutMs, isCallerError: isNotBackendFailure });
    // The listener runs only once the bridge starts, below, when everything it names exists.
    const bridge = new Bridge(
      { url, shownUrl: shownUrl(url), token, handshakeTimeoutMs: config.handshakeTimeoutMs, keepAliveMs: config.keepAliveMs, maxPayloadBytes: config.maxPayloadBytes, ...config.reconnect, log: ctx.log },
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
    const exchange = new Exchange(bridge, breaker, ctx.error, answerKeeper(cache, publisher, ctx.log));
    const limiter = new PushLimiter({ perSecond: config.pushesPerSecond, perSessionPerSecond: config.pushesPerSessionPerSecond }, ctx.log);
    const inbound = new Inbound(cache, exchange, publisher, limiter, ctx.log);
    const outbox = new Outbox(bridge, exchange, ctx.error, ctx.log, {
      mode: config.whenDown,
      limit: config.queueLimit,
      retryMs: config.requestTimeoutMs,
      dropped: (detail) => publisher.queueDropped(detail),
    });

    const deps: IdeDeps = { ctx, cache, bridge, exchange, outbox, publisher };
    registerChatTools(deps);
    registerBuildTools(deps);
    registerDashboardTools(deps);
    const parts = { url, mode: config.whenDown, queueLimit: config.queueLimit, bridge, breaker, outbox, inbound, limiter, cache };
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
