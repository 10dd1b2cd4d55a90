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

/** The URL as shown: without any user or password it may carry. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
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
