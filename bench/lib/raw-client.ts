import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import type { InMemoryTransport, JSONRPCMessage } from '@modelcontextprotocol/client';

/** The revision the raw client's sessions open with (`initialize`, 2025-11-25). */
const SESSION_PROTOCOL_VERSION = '2025-11-25';

/** The stateless revision: no initialize, its protocol version and client in every request's `_meta`. */
export const MODERN_REVISION = '2026-07-28';
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-gateway-bench', version: '1.0.0' },
};

/**
 * A deliberately thin MCP client: JSON-RPC requests matched to responses by id, no schema
 * parsing of results. The SDK's Client parses every result with zod, which in a benchmark
 * would be a large fixed cost on both sides and would flatten every ratio towards 1. With this
 * client the server, not the client, is what the numbers measure. Both sides of every
 * comparison use the same client code.
 */
export interface RawChannel {
  send(message: JSONRPCMessage): void;
  /** Set once by the client; every incoming message goes here. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set once by the client; called when the server side goes away (a child that died). */
  onend?: () => void;
  close(): Promise<void>;
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(value: any): void;
  reject(err: Error): void;
}

export class RawMcpClient {
  readonly #channel: RawChannel;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** Called with every notification the server sends (the collab bench times their arrival). */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;

  /** With `modern`, every request speaks 2026-07-28: the envelope goes into its `_meta`, and there is no initialize. */
  readonly #envelope: Record<string, unknown> | undefined;

  constructor(channel: RawChannel, options: { modern?: boolean } = {}) {
    this.#channel = channel;
    this.#envelope = options.modern ? MODERN_ENVELOPE : undefined;
    channel.onmessage = (message) => this.#receive(message);
    // A server that died answers nothing more: its requests fail instead of waiting for ever.
    channel.onend = () => this.#failPending(new Error('the server closed the connection'));
  }

  request<T = any>(method: string, params?: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('client closed'));
    const id = this.#nextId++;
    if (this.#envelope) params = { ...params, _meta: { ...(params?._meta as object | undefined), ...this.#envelope } };
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#channel.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.#channel.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
  }

  /** The 2026-07-28 opening, `server/discover` (with `apiKey` in its `_meta`, as TCP with keys wants it). */
  discover(apiKey?: string): Promise<{ supportedVersions: string[] }> {
    return this.request('server/discover', apiKey === undefined ? {} : { _meta: { apiKey } });
  }

  /** initialize + notifications/initialized; resolves with the server's initialize result. */
  async initialize(name = 'mcp-gateway-bench', apiKey?: string): Promise<{ serverInfo: { name: string } }> {
    const result = await this.request('initialize', {
      ...(apiKey === undefined ? {} : { _meta: { apiKey } }),
      protocolVersion: SESSION_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name, version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  listTools(): Promise<{ tools: Array<{ name: string }> }> {
    return this.request('tools/list', {});
  }

  /** tools/call; a tool result with isError rejects, so a benchmark never counts failures. */
  async callTool(name: string, args: Record<string, unknown>): Promise<{ content: Array<{ type: string; text?: string }> }> {
    const result = await this.request('tools/call', { name, arguments: args });
    if (result?.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text ?? 'isError'}`);
    return result;
  }

  async close(): Promise<void> {
    this.#failPending(new Error('client closed'));
    await this.#channel.close();
  }

  #failPending(err: Error): void {
    this.#closed = true;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }

  #receive(message: JSONRPCMessage): void {
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id === undefined && typeof method === 'string') {
      this.onNotification?.(method, (message as { params?: Record<string, unknown> }).params);
      return;
    }
    if (typeof id !== 'number') return; // server requests are not expected here
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    const { error, result } = message as { error?: { code: number; message: string; data?: unknown }; result?: unknown };
    if (error) pending.reject(new RpcError(error.code, error.message, error.data));
    else pending.resolve(result);
  }
}

/** The client side of the SDK's in-memory pair. */
export function memoryChannel(transport: InMemoryTransport): RawChannel {
  const channel: RawChannel = {
    send: (message) => void transport.send(message).catch(() => {}),
    close: () => transport.close(),
  };
  transport.onmessage = (message) => channel.onmessage?.(message);
  void transport.start();
  return channel;
}

/** Newline-delimited JSON-RPC over a pair of streams: a child's stdio, a TCP or unix socket. */
export function ndjsonChannel(input: Readable, output: Writable, close: () => Promise<void>): RawChannel {
  let pending = '';
  const channel: RawChannel = {
    send: (message) => void output.write(`${JSON.stringify(message)}\n`),
    close,
  };
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    if (newline === -1) return;
    let start = 0;
    while (newline !== -1) {
      const line = pending.slice(start, newline);
      start = newline + 1;
      if (line.trim() !== '') channel.onmessage?.(JSON.parse(line) as JSONRPCMessage);
      newline = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
  });
  input.once('close', () => channel.onend?.());
  return channel;
}

/**
 * MCP Streamable HTTP: one POST per message on a keep-alive agent, the session id taken from
 * the initialize answer; replies are read whether they come as JSON or as an SSE stream. With
 * `modern`, each POST carries the 2026-07-28 headers its message calls for.
 */
export function httpChannel(url: string, maxSockets = 32, extraHeaders: Record<string, string> = {}, modern = false): RawChannel {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets });
  let sessionId: string | undefined;
  const channel: RawChannel = {
    send(message) {
      const body = JSON.stringify(message);
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
        'mcp-protocol-version': SESSION_PROTOCOL_VERSION,
        ...extraHeaders,
      };
      if (sessionId) headers['mcp-session-id'] = sessionId;
      if (modern && 'method' in message) {
        headers['mcp-protocol-version'] = MODERN_REVISION;
        headers['mcp-method'] = message.method;
        const name = (message.params as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string') headers['mcp-name'] = name;
      }
      const req = httpRequest(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers },
        (res) => {
          const id = res.headers['mcp-session-id'];
          if (typeof id === 'string') sessionId = id;
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => deliver(res.statusCode ?? 0, res.headers, text, message));
        },
      );
      req.on('error', (err) => fail(message, err.message));
      req.end(body);
    },
    async close() {
      agent.destroy();
    },
  };
  const fail = (message: JSONRPCMessage, why: string) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'number') channel.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32000, message: why } });
  };
  const deliver = (status: number, headers: IncomingHttpHeaders, text: string, sent: JSONRPCMessage) => {
    if (status === 202) return;
    if (status !== 200) return fail(sent, `HTTP ${status}: ${text.slice(0, 200)}`);
    if (String(headers['content-type']).startsWith('text/event-stream')) {
      for (const line of text.split('\n')) {
        if (line.startsWith('data: ') || line.startsWith('data:')) {
          const data = line.slice(line.indexOf(':') + 1).trim();
          if (data) channel.onmessage?.(JSON.parse(data) as JSONRPCMessage);
        }
      }
    } else if (text.trim() !== '') {
      const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) channel.onmessage?.(message);
    }
  };
  return channel;
}

/**
 * The HTTP+SSE transport of MCP 2024-11-05 (superseded by Streamable HTTP in 2025-03-26, still
 * the only one some servers speak): a GET opens an event stream whose first event, `endpoint`,
 * names where to POST each message; a POST is answered 202 and its reply comes as a `message`
 * event on the stream. Resolves once the endpoint is known.
 */
export async function sseChannel(url: string, maxSockets = 32): Promise<RawChannel> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets });
  // Requests sent and not yet answered: if the stream ends they would wait for ever.
  const waiting = new Set<number>();
  let stream: ClientRequest | undefined;
  let closing = false;
  let endpoint: URL | undefined;
  const fail = (id: number, why: string) => {
    waiting.delete(id);
    channel.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32000, message: why } });
  };
  const channel: RawChannel = {
    send(message) {
      const id = (message as { id?: unknown }).id;
      if (typeof id === 'number') waiting.add(id);
      const body = JSON.stringify(message);
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = httpRequest({ host: endpoint!.hostname, port: endpoint!.port, path: endpoint!.pathname + endpoint!.search, method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode !== 202 && res.statusCode !== 200 && typeof id === 'number') fail(id, `HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
        });
      });
      req.on('error', (err) => typeof id === 'number' && fail(id, err.message));
      req.end(body);
    },
    async close() {
      closing = true;
      stream?.destroy();
      agent.destroy();
    },
  };
  endpoint = await new Promise<URL>((resolve, reject) => {
    stream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'GET', agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`HTTP ${res.statusCode} on GET ${url}`));
      }
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk.replace(/\r\n?/g, '\n');
        for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n')) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (event === 'endpoint') resolve(new URL(data.join('\n'), target));
          else if (event === 'message' && data.length > 0) {
            const message = JSON.parse(data.join('\n')) as JSONRPCMessage;
            const id = (message as { id?: unknown }).id;
            if (typeof id === 'number') waiting.delete(id);
            channel.onmessage?.(message);
          }
        }
      });
      res.on('close', () => {
        reject(new Error(`the event stream of ${url} ended before naming an endpoint`));
        if (!closing) for (const id of [...waiting]) fail(id, `the event stream of ${url} ended`);
      });
    });
    stream.on('error', reject);
    stream.end();
  });
  return channel;
}
