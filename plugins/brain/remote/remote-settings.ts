// Where the remote brain is and with what key, checked once at setup: a mistake in the config
// is a boot error naming the key and the fix, never a surprise at the first remember.
import { isIP } from 'node:net';
import { GatewayError } from '@mcp-gateway/core';
import type { RemoteConfig } from '../config.js';

const WHERE = 'plugins.brain.config.remote';

/** What the HTTP client needs, resolved from the config and the environment. */
export interface RemoteSettings {
  /** The base URL without a trailing slash: paths are appended to it. Shown in messages and logs as it is (credentials and a query are refused). */
  readonly base: string;
  readonly apiKeyEnv: string;
  /** The key itself, or undefined when the variable is unset or empty. Never shown anywhere. */
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly maxResponseBytes: number;
}

/**
 * Reads `remote` and the key's variable (once: the key is not kept in the config, which
 * gateway_status may show). Throws CONFIG_INVALID for a missing or unusable url, and for
 * plain http to a host that is not loopback unless `allowHttp` says so.
 */
export function remoteSettings(config: RemoteConfig, env: NodeJS.ProcessEnv): RemoteSettings {
  if (config.url === undefined) {
    throw new GatewayError(
      'CONFIG_INVALID',
      `${WHERE}.url: backend remote needs the server's address: another gateway's HTTP address (url: http://127.0.0.1:9101), or an OpenBrain API (url: https://api.lthn.sh with protocol: openbrain).`,
    );
  }
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.url: ${JSON.stringify(config.url)} is not a URL (https://host:port).`);
  }
  // fetch refuses credentials in a URL, and a key in the query would show in every message.
  if (url.username || url.password) {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.url: user and password in the URL cannot be sent; put the key in the variable named by apiKeyEnv (${config.apiKeyEnv}).`);
  }
  if (url.search || url.hash) {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.url: give the base address without a query or fragment (${url.origin}${url.pathname}); the key goes in $${config.apiKeyEnv}.`);
  }
  if (url.protocol === 'http:' && !config.allowHttp && !isLoopback(url.hostname)) {
    throw new GatewayError(
      'CONFIG_INVALID',
      `${WHERE}.url: plain http to ${url.hostname} would send the key and the memories unencrypted. Use https, or set ${WHERE}.allowHttp: true if the network is trusted.`,
    );
  }
  const apiKey = env[config.apiKeyEnv] || undefined;
  // A header cannot carry it, and fetch's error would quote it: refuse it here without a word of it.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.apiKeyEnv: $${config.apiKeyEnv} holds spaces, line breaks or other characters a key does not have: set it to the key alone.`);
  }
  const base = url.toString().replace(/\/+$/, '');
  return {
    base,
    apiKeyEnv: config.apiKeyEnv,
    apiKey,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
    retryMaxMs: config.retryMaxMs,
    maxResponseBytes: config.maxResponseBytes,
  };
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Not `*.localhost`: the system resolver may ask DNS for those names.
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
