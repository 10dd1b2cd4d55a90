// The bridge's state as ide_bridge_status, gateway_status and /health show it.
import type { Breaker } from '../../core/index.js';
import type { Bridge } from './bridge.js';
import type { IdeCache } from './cache.js';
import type { Inbound } from './inbound.js';
import type { Outbox } from './outbox.js';

export interface StatusParts {
  url: string;
  mode: 'queue' | 'fail';
  queueLimit: number;
  bridge: Bridge;
  breaker: Breaker;
  outbox: Outbox;
  inbound: Inbound;
  cache: IdeCache;
}

/** The configured URL, refused at boot (through `refuse`) unless the WebSocket client can open it. */
export function checkedUrl(url: string, refuse: (message: string) => Error): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`plugins.ide-bridge.config.url: "${shownUrl(url)}" is not a URL; e.g. ws://127.0.0.1:9876/ws.`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') throw refuse(`plugins.ide-bridge.config.url: use ws:// or wss://, not ${parsed.protocol}//.`);
  return url;
}

/** The URL as shown: without any user or password it may carry. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

export function bridgeStatus(parts: StatusParts) {
  const { state, connected, since, retries, attempts, lastError, authRefused, nextAttemptInMs, recentDelaysMs } = parts.bridge.status();
  return {
    url: shownUrl(parts.url),
    state,
    connected,
    since,
    retries,
    attempts,
    nextAttemptInMs,
    recentDelaysMs,
    authRefused,
    lastError,
    mode: parts.mode,
    queueLength: parts.outbox.length,
    queueLimit: parts.queueLimit,
    breaker: parts.breaker.state,
    droppedFrames: parts.inbound.dropped,
    cache: parts.cache.counts(),
  };
}

/** What gateway_status and /health show of the plugin, and its gauges for /metrics. */
export function pluginReport(parts: StatusParts) {
  const status = bridgeStatus(parts);
  return {
    ok: status.connected && status.breaker !== 'open',
    detail: {
      url: status.url,
      connected: status.connected,
      since: status.since,
      retries: status.retries,
      queueLength: status.queueLength,
      lastError: status.lastError,
      authRefused: status.authRefused,
      breaker: status.breaker,
    },
    gauges: [
      { name: 'connected', help: 'Whether the IDE backend is connected (1) or not (0).', value: status.connected ? 1 : 0 },
      { name: 'queue_length', help: 'Messages waiting for the IDE backend.', value: status.queueLength },
      { name: 'connection_attempts', help: 'Connection attempts to the IDE backend since the gateway started.', value: status.attempts },
      { name: 'dropped_frames', help: 'Frames from the IDE backend dropped as unreadable.', value: status.droppedFrames },
    ],
  };
}
