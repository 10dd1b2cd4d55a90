// The host lists enforced on every request a browsing session's pages make: a forward proxy
// on loopback that the session's browser context must use. Playwright's request routing
// never sees redirects (by design), so a page on an allowed host could redirect the browser
// to a denied one; through the proxy every hop is a request of its own, checked here —
// redirects, IP literals, WebSockets and HTTPS tunnels alike.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { UrlPolicy } from './url-policy.js';

/** Headers about the hop to the proxy, not for the server behind it. */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

export type BlockedHandler = (url: string, reason: string) => void;

export class PolicyProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server) {
    this.#server = server;
  }

  /** A proxy on 127.0.0.1 (a port of its own) that lets through what `policy` allows and tells `blocked` the rest. */
  static async start(policy: UrlPolicy, blocked: BlockedHandler): Promise<PolicyProxy> {
    const server = createServer((req, res) => forward(policy, blocked, req, res));
    const proxy = new PolicyProxy(server);
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => proxy.#tunnel(policy, blocked, req, client, head));
    server.on('connection', (socket: Socket) => proxy.#track(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** What the browser context's `proxy.server` is set to. */
  get address(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** CONNECT host:port — HTTPS and WebSockets: checked by host, then bytes both ways. */
  #tunnel(policy: UrlPolicy, blocked: BlockedHandler, req: IncomingMessage, client: Socket, head: Buffer): void {
    const authority = req.url ?? '';
    const verdict = policy.checkRequest(`https://${authority}/`);
    if (!verdict.ok) {
      blocked(`https://${authority}/`, verdict.reason);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nBlocked by the gateway's URL policy: ${verdict.reason}\n`);
      return;
    }
    const target = new URL(`https://${authority}/`);
    const upstream = connect(Number(target.port || 443), target.hostname.replace(/^\[(.*)\]$/, '$1'), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.#track(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}

/** A plain http:// request in absolute form: checked by host, then passed on. */
function forward(policy: UrlPolicy, blocked: BlockedHandler, req: IncomingMessage, res: ServerResponse): void {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a proxy: send absolute URLs.\n');
    return;
  }
  const verdict = policy.checkRequest(target.href);
  if (!verdict.ok || target.protocol !== 'http:') {
    const reason = verdict.ok ? `${target.protocol} is not proxied` : verdict.reason;
    blocked(target.href, reason);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`Blocked by the gateway's URL policy: ${reason}\n`);
    return;
  }
  const upstream = httpRequest({ host: target.hostname.replace(/^\[(.*)\]$/, '$1'), port: target.port || 80, method: req.method, path: target.pathname + target.search, headers: stripHop(req.headers) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, stripHop(answer.headers));
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  req.pipe(upstream);
  res.on('close', () => upstream.destroy());
}

function stripHop(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name)));
}
