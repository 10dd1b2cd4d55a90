// The host rules enforced on every request a browsing session's pages make: a forward proxy
// on loopback that the session's browser context must use. Playwright's request routing
// never sees redirects (by design), so a page on an allowed host could redirect the browser
// to a denied one; through the proxy every hop is a request of its own, checked here —
// redirects, IP literals, WebSockets and HTTPS tunnels alike. A name is resolved here, every
// address checked, and the connection made to the checked address, so DNS cannot answer
// differently between the check and the connection.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import { canonicalIp } from './ip-ranges.js';
import type { UrlPolicy } from './url-policy.js';

/** Headers about the hop to the proxy, not for the server behind it. */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

/** What the proxy tells the browsing session: a request it refused, or one whose server it could not reach. */
export interface ProxyReport {
  blocked(url: string, reason: string): void;
  failed(url: string, error: string): void;
}

/** A socket error as the net:: error Chromium would have shown without the proxy. */
const NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ENOTFOUND: 'net::ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'net::ERR_NAME_NOT_RESOLVED',
  ETIMEDOUT: 'net::ERR_CONNECTION_TIMED_OUT',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
};

export function netError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  return NET_ERRORS[code] ?? `net::ERR_FAILED (${code || String(err)})`;
}

type Target = { ok: true; address: string } | { ok: false; reason: string } | { ok: false; error: string };

export class PolicyProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #policy: UrlPolicy;
  readonly #report: ProxyReport;
  /** Only the session's own browser context knows these: anything else on loopback gets 407. */
  readonly username = randomBytes(9).toString('base64url');
  readonly password = randomBytes(18).toString('base64url');
  readonly #expected: Buffer;

  private constructor(server: Server, policy: UrlPolicy, report: ProxyReport) {
    this.#server = server;
    this.#policy = policy;
    this.#report = report;
    this.#expected = Buffer.from(`Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`);
  }

  /** A proxy on 127.0.0.1 (a port of its own) that lets through what `policy` allows and reports the rest. */
  static async start(policy: UrlPolicy, report: ProxyReport): Promise<PolicyProxy> {
    const server = createServer();
    const proxy = new PolicyProxy(server, policy, report);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void proxy.#forward(req, res));
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => void proxy.#tunnel(req, client, head));
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

  #authorised(req: IncomingMessage): boolean {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === this.#expected.length && timingSafeEqual(given, this.#expected);
  }

  /** The address to connect to for `url`, after the URL and every address its host resolves to passed. */
  async #target(url: URL): Promise<Target> {
    const verdict = this.#policy.checkRequest(url.href);
    if (!verdict.ok) return verdict;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);
    } catch (err) {
      // Not allowed by name, and no address to allow it by: a refusal, not a DNS failure.
      if (!this.#policy.allowsName(host)) return { ok: false, reason: `the host ${host} is not in urls.allowHosts` };
      return { ok: false, error: netError(err) };
    }
    const checked = this.#policy.checkAddresses(host, addresses.map((address) => canonicalIp(address) ?? address));
    return checked.ok ? { ok: true, address: addresses[0]! } : checked;
  }

  /** CONNECT host:port — HTTPS and WebSockets: checked by host and address, then bytes both ways. */
  async #tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => undefined);
    if (!this.#authorised(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="webview"\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const url = new URL(`https://${req.url ?? ''}/`);
    const target = await this.#target(url);
    if (!target.ok) {
      if ('reason' in target) this.#report.blocked(url.href, target.reason);
      else this.#report.failed(url.href, target.error);
      const why = 'reason' in target ? `403 Forbidden\r\ncontent-type: text/plain\r\n\r\nBlocked by the gateway's URL policy: ${target.reason}\n` : '502 Bad Gateway\r\n\r\n';
      client.end(`HTTP/1.1 ${why}`);
      return;
    }
    const upstream = connect(Number(url.port || 443), target.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    this.#track(upstream);
    upstream.on('error', (err) => {
      this.#report.failed(url.href, netError(err));
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  }

  /** A plain http:// request in absolute form: checked by host and address, then passed on. */
  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.#authorised(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="webview"', 'content-type': 'text/plain' }).end('Proxy authentication required.\n');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a proxy: send absolute URLs.\n');
      return;
    }
    const target: Target = url.protocol === 'http:' ? await this.#target(url) : { ok: false, reason: `${url.protocol} is not proxied` };
    if (!target.ok && 'reason' in target) {
      this.#report.blocked(url.href, target.reason);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`Blocked by the gateway's URL policy: ${target.reason}\n`);
      return;
    }
    const failed = (error: string) => {
      this.#report.failed(url.href, error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The gateway's proxy could not reach ${url.host}: ${error}\n`);
    };
    if (!target.ok) return failed(target.error);
    // The checked address, with the Host header the page sent: the name is not looked up again.
    const upstream = httpRequest({ host: target.address, port: url.port || 80, method: req.method, path: url.pathname + url.search, headers: stripHop(req.headers) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, stripHop(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', (err) => failed(netError(err)));
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}

function stripHop(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name)));
}
