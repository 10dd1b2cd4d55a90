import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { startGateway } from '../../helpers.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * `POST /mcp` of an open session is served ahead of fastify (McpRoutes.post in mcp-http.ts);
 * fastify's route still serves it once the server is closing, and `inject` reaches it
 * directly. Both must give the same answer to every request: each case is sent over a real
 * connection (the fast path) and through `inject` (fastify's route).
 */
describe('POST /mcp of a session: the fast path answers as fastify does', async () => {
  const owner = createApiKey();
  const other = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [
      { name: 'first', hash: owner.hash, scopes: ['*'] },
      { name: 'other', hash: other.hash, scopes: ['*'] },
    ],
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0, bodyLimitBytes: 2048 } },
  });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  const { port } = listener.address;
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  const overSocket = (headers: Record<string, string>, body: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      });
      // A refusal before the whole body is read closes the connection under the writer.
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
      req.end(body);
    });
  const throughFastify = async (headers: Record<string, string>, body: string): Promise<Answer> => {
    const res = await listener.app.inject({ method: 'POST', url: '/mcp', headers: { host: `127.0.0.1:${port}`, ...headers }, payload: body });
    return { status: res.statusCode, headers: res.headers as Answer['headers'], text: res.body };
  };

  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fast-path', version: '1' } } });
  const opened = await overSocket({ ...mcpHeaders, ...bearer(owner.key) }, initialize);
  const session = opened.headers['mcp-session-id'] as string;
  const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });

  it('the owner of the session calls a tool over it', async () => {
    assert.equal(opened.status, 200);
    assert.equal(typeof session, 'string');
    const answer = await overSocket({ ...mcpHeaders, ...bearer(owner.key), 'mcp-session-id': session }, call);
    assert.equal(answer.status, 200);
    assert.match(answer.text, /\\"text\\":\\"x\\"/);
  });

  const cases: Array<[string, () => Record<string, string>, string, number, string]> = [
    ['another API key', () => ({ ...bearer(other.key), 'mcp-session-id': session }), call, 403, 'FORBIDDEN'],
    ['no key', () => ({ 'mcp-session-id': session }), call, 401, 'UNAUTHORIZED'],
    ['an unknown key', () => ({ ...bearer('mgw_not-a-real-key'), 'mcp-session-id': session }), call, 401, 'UNAUTHORIZED'],
    ['a foreign Host', () => ({ ...bearer(owner.key), 'mcp-session-id': session, host: 'evil.example' }), call, 403, 'HOST_NOT_ALLOWED'],
    ['a foreign Origin', () => ({ ...bearer(owner.key), 'mcp-session-id': session, origin: 'http://evil.example' }), call, 403, 'HOST_NOT_ALLOWED'],
    ['an unknown session', () => ({ ...bearer(owner.key), 'mcp-session-id': 'no-such-session' }), call, 404, 'SESSION_NOT_FOUND'],
    ['a body that is not JSON', () => ({ ...bearer(owner.key), 'mcp-session-id': session }), '{"jsonrpc":', 400, 'PARSE_ERROR'],
    ['a __proto__ key', () => ({ ...bearer(owner.key), 'mcp-session-id': session }), '{"__proto__":{"x":1}}', 400, 'INVALID_REQUEST'],
    ['a body over bodyLimitBytes', () => ({ ...bearer(owner.key), 'mcp-session-id': session }), JSON.stringify({ pad: 'x'.repeat(4096) }), 413, 'MESSAGE_TOO_LARGE'],
  ];
  for (const [label, headers, body, status, code] of cases) {
    it(`${label}: ${status} ${code}, on both paths`, async () => {
      for (const [path, send] of [['fast path', overSocket], ['fastify', throughFastify]] as const) {
        const answer = await send({ ...mcpHeaders, ...headers() }, body);
        assert.equal(answer.status, status, `${path}: ${answer.text}`);
        const error = JSON.parse(answer.text) as { jsonrpc: string; error: { data: { code: string } } };
        assert.equal(error.jsonrpc, '2.0', path);
        assert.equal(error.error.data.code, code, path);
        // The rate limit's headers go with every refusal after the admission, as fastify sends them.
        assert.equal(answer.headers['x-ratelimit-limit'] !== undefined, status !== 401 && code !== 'HOST_NOT_ALLOWED', path);
      }
    });
  }

  it('the session stays usable by its owner after the refusals', async () => {
    const answer = await overSocket({ ...mcpHeaders, ...bearer(owner.key), 'mcp-session-id': session }, call);
    assert.equal(answer.status, 200);
  });
});
