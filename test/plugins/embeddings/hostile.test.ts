import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { maxAnswerBytes } from '../../../plugins/embeddings/provider-client.js';
import { resultJson, waitFor } from '../../helpers.js';
import { bootEmbeddings, providerConfig } from './embeddings-helpers.js';

const embed = (texts: string[]) => ({ name: 'embeddings_embed', arguments: { texts } });
const breakerState = (booted: { gateway: { status(): { breakers: Array<{ name: string; state: string }> } } }) =>
  booted.gateway.status().breakers.find((b) => b.name === 'embeddings:provider')!.state;

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}

/** A local HTTP server answering every request with `answer`; closed when the test ends. */
async function serve(t: { after(fn: () => unknown): void }, answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, dimensions: 8, requests };
}

describe('embeddings: a provider that misbehaves', () => {
  it('a redirect (307 to another origin) is refused: the second server gets no request, so neither the headers nor the texts', async (t) => {
    const elsewhere = await serve(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
    const provider = await serve(t, (_req, res) => res.writeHead(307, { location: `${elsewhere.url}/v1/embeddings?sig=query-secret-77` }).end());
    const booted = await bootEmbeddings(t, { config: providerConfig(provider, 'openai', { headers: { 'api-key': 'azure-secret-123' } }) });
    for (let i = 0; i < 3; i++) {
      const failed = resultJson(await booted.client.callTool(embed([`private text ${i}`])));
      assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
      assert.equal(failed.message, `The embedding provider ${provider.url}/v1 redirected to ${elsewhere.url}/v1/embeddings (307). Redirects are not followed, so that the key, the headers and the texts go nowhere else: set url to the final address.`);
      assert.deepEqual(failed.details, { provider: 'openai', url: `${provider.url}/v1`, status: 307, location: `${elsewhere.url}/v1/embeddings` });
    }
    assert.equal(provider.requests.length, 3);
    assert.equal(provider.requests[0]!.headers['api-key'], 'azure-secret-123', 'the provider itself got the header');
    assert.equal(elsewhere.requests.length, 0, 'nothing reached the other server');
    // The provider is up and answering: a config mistake, not an outage.
    assert.equal(breakerState(booted), 'closed');
  });

  it('a redirect without a location, and a relative one: refused too, the location resolved against the url', async (t) => {
    let location: string | undefined;
    const provider = await serve(t, (_req, res) => res.writeHead(308, location ? { location } : {}).end());
    const booted = await bootEmbeddings(t, { config: providerConfig(provider, 'ollama') });
    let failed = resultJson(await booted.client.callTool(embed(['a'])));
    assert.match(failed.message, /redirected to \(no location\) \(308\)\. Redirects are not followed/);
    location = '/elsewhere/api/embed';
    failed = resultJson(await booted.client.callTool(embed(['b'])));
    assert.match(failed.message, new RegExp(`redirected to ${provider.url}/elsewhere/api/embed \\(308\\)`));
  });

  it('a body past the cap (streamed without end) is cut off there: EMBEDDINGS_PROVIDER_FAILED, the connection closed', async (t) => {
    let written = 0;
    let closed = 0;
    const provider = await serve(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[{"index":0,"embedding":[');
      const chunk = Buffer.from('0.1234567890123456,'.repeat(3449)); // ~64 KiB
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', () => closed++);
      pump();
    });
    const booted = await bootEmbeddings(t, { config: providerConfig(provider, 'openai') });
    const cap = maxAnswerBytes(1, 8);
    const failed = resultJson(await booted.client.callTool(embed(['flood'])));
    assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
    assert.equal(failed.message, `The embedding provider ${provider.url}/v1 answered more than ${cap} bytes (status 200), more than 1 vector of 8 numbers can need; the rest was not read.`);
    assert.equal(failed.details.limit, cap);
    await waitFor(() => closed === 1);
    assert.ok(written < cap + 32 * 1024 * 1024, `the provider stopped being read (${written} bytes written)`);
  });

  it('a Content-Length past the cap is refused before the body is read', async (t) => {
    const provider = await serve(t, (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'content-length': String(10 * 1024 ** 3) });
      res.write('the start of ten gigabytes');
    });
    const booted = await bootEmbeddings(t, { config: providerConfig(provider, 'ollama') });
    const failed = resultJson(await booted.client.callTool(embed(['x', 'y'])));
    assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
    assert.match(failed.message, new RegExp(`answered more than ${maxAnswerBytes(2, 8)} bytes \\(status 503\\), more than 2 vectors of 8 numbers can need`));
    assert.equal(failed.details.status, 503);
  });

  it("a provider that echoes a configured header's value: masked like the key, in the message and details", async (t) => {
    const secrets = ['azure-secret-123', 'sk-bearer-token-99', 'sk-the-api-key-42'];
    let body = '';
    let status = 400;
    const provider = await serve(t, (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    process.env.EMB_HOSTILE_KEY = secrets[2];
    t.after(() => delete process.env.EMB_HOSTILE_KEY);
    const booted = await bootEmbeddings(t, {
      config: providerConfig(provider, 'openai', { apiKeyEnv: 'EMB_HOSTILE_KEY', headers: { 'api-key': secrets[0], 'x-upstream-auth': `Bearer ${secrets[1]}`, 'x-team': 'red' } }),
    });
    body = JSON.stringify({ error: { message: `bad api-key ${secrets[0]} (upstream said: Bearer ${secrets[1]}; token ${secrets[1]}; key ${secrets[2]}; team red)` } });
    let result = await booted.client.callTool(embed(['x']));
    let failed = resultJson(result);
    assert.equal(failed.code, 'EMBEDDINGS_PROVIDER_FAILED');
    assert.match(failed.message, /answered 400: bad api-key \*\*\* \(upstream said: \*\*\*; token \*\*\*; key \*\*\*; team red\)\./);
    for (const secret of secrets) assert.ok(!JSON.stringify(result).includes(secret), `${secret} is not in the result`);

    status = 200;
    body = `<html>proxy error for api-key=${secrets[0]}</html>`;
    result = await booted.client.callTool(embed(['y']));
    failed = resultJson(result);
    assert.match(failed.message, /answered 200 with a body that is not JSON: <html>proxy error for api-key=\*\*\*<\/html>/);
    for (const secret of secrets) assert.ok(!JSON.stringify(result).includes(secret));
    const rest = await booted.rest('POST', '/tools/embeddings_embed', { texts: ['z'] });
    assert.equal(rest.status, 502);
    for (const secret of secrets) assert.ok(!rest.text.includes(secret));
  });
});
