// Where webview_connect attaches: the browser's WebSocket URL, read from its DevTools
// endpoint by the gateway itself, so that the host rule (loopback unless allowRemote) holds
// for the address actually connected to, not only the one the caller named.
import { isIP } from 'node:net';
import { isGatewayError } from '@mcp-gateway/core';
import { canonicalIp, IpRanges, LOOPBACK } from './ip-ranges.js';
import type { RaiseError } from './declaration.js';

/** More than any /json/version answer: a bigger body is not a DevTools endpoint. */
const MAX_BODY = 64 * 1024;
/** How long /json/version may take at most, whatever the call's timeout. */
const DISCOVERY_MS = 5000;

const loopback = new IpRanges();
for (const range of LOOPBACK) loopback.add(range);

/** Whether `host` (a URL's hostname) is this machine. */
export function isLoopback(host: string): boolean {
  const ip = canonicalIp(host);
  return ip === undefined ? host.toLowerCase() === 'localhost' : isIP(ip) !== 0 && loopback.has(ip);
}

export interface EndpointRules {
  readonly allowRemote: boolean;
  readonly error: RaiseError;
}

/** The endpoint as a URL the caller may name: http(s) or ws(s), on this machine unless remote endpoints are allowed. */
export function checkedEndpoint(raw: string, rules: EndpointRules): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw rules.error('INVALID_ARGUMENTS', `endpoint "${raw.slice(0, 200)}" is not a URL; e.g. http://127.0.0.1:9222.`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw rules.error('INVALID_ARGUMENTS', `endpoint: use http(s):// or ws(s)://, not ${url.protocol}//.`);
  if (!rules.allowRemote && !isLoopback(url.hostname)) {
    throw rules.error('WEBVIEW_CONNECT_REFUSED', `${url.hostname} is not this machine: only loopback endpoints are allowed (plugins.webview.config.connect.allowRemote).`, { host: url.hostname });
  }
  return url;
}

/**
 * The browser's ws:// URL: given as such, or read from `<endpoint>/json/version` (no redirects
 * followed, a short timeout, a small body, never echoed: the endpoint may be anything) and
 * checked by the same rule as the endpoint.
 */
export async function webSocketUrl(endpoint: URL, timeoutMs: number, rules: EndpointRules): Promise<string> {
  if (endpoint.protocol === 'ws:' || endpoint.protocol === 'wss:') return endpoint.href;
  const failed = (why: string) => rules.error('WEBVIEW_CONNECT_FAILED', `No DevTools endpoint at ${endpoint.origin}: ${why}. Start the browser with --remote-debugging-port and check the address.`, { endpoint: endpoint.origin });
  const versionUrl = new URL('/json/version', endpoint);
  let body: string | undefined;
  try {
    const answer = await fetch(versionUrl, { redirect: 'manual', signal: AbortSignal.timeout(Math.min(timeoutMs, DISCOVERY_MS)) });
    if (answer.status !== 200) throw failed(`${versionUrl.pathname} answered HTTP ${answer.status}`);
    body = await readAtMost(answer, MAX_BODY);
  } catch (err) {
    if (isGatewayError(err)) throw err;
    throw failed(err instanceof Error && err.name === 'TimeoutError' ? 'it did not answer in time' : 'nothing answered');
  }
  if (body === undefined) throw failed(`${versionUrl.pathname} answered more than ${MAX_BODY} bytes`);
  let ws: unknown;
  try {
    ws = (JSON.parse(body) as { webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl;
  } catch {
    ws = undefined;
  }
  if (typeof ws !== 'string') throw failed(`${versionUrl.pathname} did not name a webSocketDebuggerUrl`);
  const checked = checkedEndpoint(ws, rules);
  if (checked.protocol !== 'ws:' && checked.protocol !== 'wss:') throw failed('its webSocketDebuggerUrl is not a ws:// URL');
  return checked.href;
}

/** The body as text, or undefined when it is longer than `max` bytes (not read further). */
async function readAtMost(answer: Response, max: number): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return undefined; // leaving the loop cancels the body
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
