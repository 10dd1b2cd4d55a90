// Two Host headers on one request. Node keeps the first (req.headers.host) and a proxy in front
// may route by the last, so the gateway answers 400 DUPLICATE_HOST_HEADER on every route,
// whichever of the two is allowed. Sent byte for byte over a raw socket: an HTTP client
// library would merge or refuse the second header before it left.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { listenHttp } from '../../../core/http/http-server.js';
import { startGateway } from '../../helpers.js';

interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends the request lines `head` (and `body`) on a new connection, and reads the answer: its
 * whole body when it has a Content-Length, else only the head for a success (an upgraded
 * socket, or the SSE stream of /mcp, stays open), else up to the close.
 */
function rawRequest(port: number, head: string[], body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const parse = (): (RawAnswer & { complete: boolean }) | undefined => {
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const headText = received.subarray(0, end).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1]);
      const length = /\r\ncontent-length: *(\d+)/i.exec(headText)?.[1];
      const rest = received.subarray(end + 4);
      const complete = length === undefined ? status < 300 : rest.length >= Number(length);
      return { status, body: rest.toString('utf8'), complete };
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = parse();
      if (answer?.complete) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = parse();
      if (answer) resolve(answer);
      else reject(new Error(`no HTTP answer: ${JSON.stringify(received.toString('utf8').slice(0, 200))}`));
    });
    const length = body === '' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
    socket.write(`${[...head, ...length, '', ''].join('\r\n')}${body}`);
  });
}

/** The error code in a REST envelope, a JSON-RPC error (/mcp), or a chunked body. */
function codeOf(body: string): string | undefined {
  return /"code":"([A-Z_]+)"/.exec(body)?.[1];
}

const CALL = JSON.stringify({ text: 'hi' });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** Each route family, with the lines of its request apart from the Host headers. */
const ROUTES: Array<{ label: string; line: string; headers: string[]; body?: string; ok: number }> = [
  { label: 'a REST call (the path ahead of fastify)', line: 'POST /tools/echo HTTP/1.1', headers: ['Content-Type: application/json', 'Connection: close'], body: CALL, ok: 200 },
  { label: 'GET /tools (fastify)', line: 'GET /tools HTTP/1.1', headers: ['Connection: close'], ok: 200 },
  { label: 'GET /health (public)', line: 'GET /health HTTP/1.1', headers: ['Connection: close'], ok: 200 },
  {
    label: 'POST /mcp',
    line: 'POST /mcp HTTP/1.1',
    headers: ['Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Connection: close'],
    body: INITIALIZE,
    ok: 200,
  },
  {
    label: 'the /events upgrade',
    line: 'GET /events HTTP/1.1',
    headers: ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='],
    ok: 101,
  },
];

describe('two Host headers', async () => {
  const gateway = await startGateway();
  const listener = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  after(() => listener.close());
  const { port } = listener.address;

  for (const route of ROUTES) {
    it(`${route.label}: 400 DUPLICATE_HOST_HEADER, and with one Host it is served`, async () => {
      const head = (hosts: string[]) => [route.line, ...hosts, ...route.headers];
      const pairs = [
        ['Host: evil.example', `Host: 127.0.0.1:${port}`],
        [`Host: 127.0.0.1:${port}`, 'host: evil.example'],
        [`Host: 127.0.0.1:${port}`, `HOST: 127.0.0.1:${port}`],
      ];
      for (const hosts of pairs) {
        const answer = await rawRequest(port, head(hosts), route.body);
        assert.equal(answer.status, 400, `${hosts.join(' + ')}: ${answer.body.slice(0, 300)}`);
        assert.equal(codeOf(answer.body), 'DUPLICATE_HOST_HEADER', hosts.join(' + '));
      }
      const served = await rawRequest(port, head([`Host: 127.0.0.1:${port}`]), route.body);
      assert.equal(served.status, route.ok, served.body.slice(0, 300));
    });
  }

  it('names what to do, and the gateway keeps serving', async () => {
    const answer = await rawRequest(port, ['GET /health HTTP/1.1', 'Host: localhost', 'Host: localhost', 'Connection: close']);
    assert.match(answer.body, /more than one Host header; send exactly one/);
    const echoed = await rawRequest(port, ['POST /tools/echo HTTP/1.1', 'Host: localhost', 'Content-Type: application/json', 'Connection: close'], CALL);
    assert.equal(echoed.status, 200);
  });
});
