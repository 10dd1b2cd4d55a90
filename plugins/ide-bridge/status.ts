// The bridge's state as ide_bridge_status, gateway_status and /health show it.
import type { Breaker, Logger } from '@mcp-gateway/core';
import type { Bridge } from './bridge.js';
import type { IdeCache } from './cache.js';
import type { Inbound } from './inbound.js';
import type { Outbox } from './outbox.js';
import type { PushLimiter } from './push-limit.js';

export interface StatusParts {
  url: string;
  mode: 'queue' | 'fail';
  queueLimit: number;
  bridge: Bridge;
  breaker: Breaker;
  outbox: Outbox;
  inbound: Inbound;
  limiter: PushLimiter;
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

/**
 * The bearer token from the environment, refused at boot when it holds control characters (it
 * goes into an HTTP header, where a newline would split it). Sent over ws:// to another machine,
 * anyone on the path reads it: a warning says so.
 */
export function checkedToken(token: string | undefined, tokenEnv: string, url: string, refuse: (message: string) => Error, log: Logger): string | undefined {
  if (token === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(token)) throw refuse(`The environment variable ${tokenEnv} (plugins.ide-bridge.config.tokenEnv) holds a control character (a newline?): set it to the token alone.`);
  const { protocol, hostname } = new URL(url);
  if (protocol === 'ws:' && !LOOPBACK.has(hostname) && !hostname.startsWith('127.')) {
    log.warn({ url: shownUrl(url), tokenEnv }, 'ide-bridge: the token is sent over ws:// (unencrypted) to another machine; use wss://');
  }
  return token;
}

const LOOPBACK = new Set(['localhost', '[::1]', '::1']);

/** The URL as shown: without any user or password it may carry, and with query values redacted (?token=...). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.hash = '';
    for (const key of new Set(parsed.searchParams.keys())) parsed.searchParams.set(key, 'redacted');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
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
    droppedPushes: parts.limiter.dropped,
    pushRates: { ...parts.limiter.rates },
    droppedRecords: parts.cache.droppedRecords,
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
      droppedPushes: status.droppedPushes,
    },
    gauges: [
      { name: 'connected', help: 'Whether the IDE backend is connected (1) or not (0).', value: status.connected ? 1 : 0 },
      { name: 'queue_length', help: 'Messages waiting for the IDE backend.', value: status.queueLength },
      { name: 'connection_attempts', help: 'Connection attempts to the IDE backend since the gateway started.', value: status.attempts },
      { name: 'dropped_frames', help: 'Frames from the IDE backend dropped as unreadable.', value: status.droppedFrames },
      { name: 'dropped_pushes', help: 'Pushes from the IDE backend dropped over pushesPerSecond or pushesPerSessionPerSecond.', value: status.droppedPushes },
      { name: 'dropped_records', help: 'Records in lists from the IDE backend dropped as unreadable (the rest kept).', value: status.droppedRecords },
    ],
  };
}
