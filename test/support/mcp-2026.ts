import { after } from 'node:test';
import { createApiKey } from '../../core/auth/api-keys.js';
import { listenHttp } from '../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, startGateway } from '../helpers.js';

/**
 * One 2026-07-28 request to `base`/mcp by hand, with the headers the revision asks for
 * (`Mcp-Name`: the tool, the URI or the task), as a client that is not the SDK sends it. A reply
 * that streamed (SSE) is read to its end: `messages` holds each message, `body` the last.
 */
export async function post2026(
  base: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; type: string | null; messages: any[]; body: any }> {
  const name = (params.name ?? params.uri ?? params.taskId) as string | undefined;
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': String(name) }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params }),
    signal,
  });
  const text = await res.text();
  const lines = text.startsWith('{') ? [text] : text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  const messages = lines.map((line) => JSON.parse(line));
  return { status: res.status, type: res.headers.get('content-type'), messages, body: messages.at(-1) };
}

/** A gateway with the conformance plugin over HTTP, and two API keys that reach it: `first` and `second`. */
export async function conformanceWithTwoKeys(): Promise<{ base: string; first: string; second: string }> {
  const [first, second] = [createApiKey(), createApiKey()];
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [
      { name: 'first', hash: first.hash, scopes: ['plugin:conformance'] },
      { name: 'second', hash: second.hash, scopes: ['plugin:conformance'] },
    ],
    registries: [CONFORMANCE_REGISTRY],
    plugins: { conformance: {} },
  });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => http.close());
  return { base: `http://127.0.0.1:${http.address.port}`, first: first.key, second: second.key };
}
