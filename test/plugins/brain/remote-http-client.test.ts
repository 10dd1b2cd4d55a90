import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { BreakerOptions } from '../../../core/index.js';
import type { RemoteConfig } from '../../../plugins/brain/config.js';
import { backoffMs, retryAfterMs } from '../../../plugins/brain/remote/backoff.js';
import { isCallerError, RemoteClient, type RemoteRequest } from '../../../plugins/brain/remote/http-client.js';
import { isLoopback, remoteSettings } from '../../../plugins/brain/remote/remote-settings.js';
import { createRemoteBrain } from '../../../plugins/brain/remote/index.js';
import { capturedLog, failure, json, KEY, KEY_ENV, raise, remoteBreaker, remoteConfig, scripted, type Script } from './remote-helpers.js';

const GET: RemoteRequest = { method: 'GET', path: '/v1/brain/list?limit=5', tool: 'brain_list' };
const OK: Script = (_seen, res) => json(res, 200, { memories: [] });

type T = { after(fn: () => unknown): void };

/** A RemoteClient for `url` with `more` config over quick retries, and its breaker. */
function client(t: T, url: string, more: Record<string, unknown> = {}, options: { env?: NodeJS.ProcessEnv; breaker?: BreakerOptions } = {}) {
  const config: RemoteConfig = remoteConfig(url, more);
  const breaker = remoteBreaker(t, config, options.breaker);
  return { client: new RemoteClient(remoteSettings(config, options.env ?? { [KEY_ENV]: KEY }), breaker, raise), breaker };
}

/** Answers `first` to the first request, then 200. */
const thenOk =
  (first: Script): Script =>
  (seen, res, i) =>
    i === 0 ? first(seen, res, i) : OK(seen, res, i);

describe('brain remote HTTP client: retries', () => {
  for (const status of [408, 429, 500, 502, 503, 504]) {
    it(`retries ${status}, then answers what came next`, async (t) => {
      const server = await scripted(t, thenOk((_s, res) => json(res, status, { error: `status ${status}` })));
      const answer = await client(t, server.url).client.request(GET);
      assert.equal(answer.status, 200);
      assert.equal(server.requests.length, 2);
    });
  }

  const notRetried: Array<[number, string | undefined]> = [
    [400, undefined],
    [404, undefined],
    [409, undefined],
    [422, undefined],
    [401, 'BRAIN_REMOTE_REFUSED'],
    [403, 'BRAIN_REMOTE_REFUSED'],
  ];
  for (const [status, code] of notRetried) {
    it(`does not retry ${status}${code ? ` (${code})` : ' (the answer goes to the protocol)'}`, async (t) => {
      const server = await scripted(t, (_s, res) => json(res, status, { error: { code: 'SOMETHING', message: `said ${status}` } }));
      const request = client(t, server.url).client.request(GET);
      if (code) assert.equal((await failure(request)).code, code);
      else {
        const answer = await request;
        assert.equal(answer.status, status);
        assert.equal(answer.message, `said ${status}`);
      }
      assert.equal(server.requests.length, 1);
    });
  }

  it('gives up after 1 + retries attempts: BRAIN_REMOTE_FAILED with the last status and reason', async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 500, { error: 'database on fire' }));
    const err = await failure(client(t, server.url, { retries: 3 }).client.request(GET));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.equal(server.requests.length, 4);
    assert.deepEqual(err.details, { status: 500, reason: 'database on fire', attempts: 4 });
    assert.match(err.message, /^The remote brain http:\/\/127\.0\.0\.1:\d+ answered 500: database on fire\. Gave up after 4 attempts\.$/);
  });

  it('unreachable: retried, then BRAIN_REMOTE_FAILED with the socket error and no status', async (t) => {
    const gone = createServer();
    await new Promise<void>((done) => gone.listen(0, '127.0.0.1', done));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((done) => gone.close(() => done()));
    const { client: remote, breaker } = client(t, `http://127.0.0.1:${port}`);
    const err = await failure(remote.request(GET));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.deepEqual(err.details, { reason: 'ECONNREFUSED', attempts: 3 });
    assert.equal(breaker.status().stats.failures, 3, 'each attempt counts against the remote');
  });

  it('a remote that hangs: each attempt ends at timeoutMs (BREAKER_TIMEOUT), then BRAIN_REMOTE_FAILED', async (t) => {
    const server = await scripted(t, () => undefined);
    const { client: remote, breaker } = client(t, server.url, { timeoutMs: 1000, retries: 1 });
    const err = await failure(remote.request(GET));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.deepEqual(err.details, { reason: 'BREAKER_TIMEOUT', attempts: 2 });
    assert.match(err.message, /did not answer within remote\.timeoutMs \(1000 ms\)\. Gave up after 2 attempts\./);
    assert.equal(server.requests.length, 2);
    assert.equal(breaker.status().stats.timeouts, 2);
  });

  it('a connection dropped in the middle of the answer is retried like one never made', async (t) => {
    const server = await scripted(
      t,
      thenOk((_s, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"memories": [');
        setTimeout(() => res.destroy(), 20);
      }),
    );
    assert.equal((await client(t, server.url).client.request(GET)).status, 200);
    assert.equal(server.requests.length, 2);
  });

  it('honours Retry-After in seconds (here 1 s, though the backoff would wait at most 20 ms)', async (t) => {
    const server = await scripted(t, thenOk((_s, res) => json(res, 503, { error: 'busy' }, { 'retry-after': '1' })));
    await client(t, server.url, { retryMaxMs: 5000 }).client.request(GET);
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 950, 'the retry waited for Retry-After');
  });

  it('honours Retry-After as an HTTP date', async (t) => {
    const server = await scripted(t, thenOk((_s, res) => json(res, 429, { error: 'slow down' }, { 'retry-after': new Date(Date.now() + 2000).toUTCString() })));
    await client(t, server.url, { retryMaxMs: 5000 }).client.request(GET);
    assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 900, 'the retry waited until the date');
  });

  it('caps Retry-After at retryMaxMs (an hour asked, 20 ms waited)', async (t) => {
    const server = await scripted(t, thenOk((_s, res) => json(res, 503, { error: 'maintenance' }, { 'retry-after': '3600' })));
    assert.equal((await client(t, server.url).client.request(GET)).status, 200);
    assert.equal(server.requests.length, 2);
  });

  it("stops at once when the caller aborts while it waits to retry, and sends nothing more", async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 503, { error: 'down' }));
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    const request = client(t, server.url, { retryBaseMs: 60_000, retryMaxMs: 60_000, retries: 5 }).client.request(GET, controller.signal);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(reason);
    assert.equal(await failure(request), reason);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.requests.length, 1);
  });

  it('stops a request in flight when the caller aborts: no retry, not counted against the remote', async (t) => {
    const server = await scripted(t, () => undefined);
    const controller = new AbortController();
    const reason = new Error('cancelled by the client');
    const { client: remote, breaker } = client(t, server.url, { timeoutMs: 30_000 });
    const request = remote.request(GET, controller.signal);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(reason);
    assert.equal(await failure(request), reason);
    assert.equal(server.requests.length, 1);
    assert.equal(breaker.status().stats.failures, 0);
  });
});

describe('brain remote HTTP client: the breaker', () => {
  const QUICK: BreakerOptions = { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 };

  it('opens after its threshold, then answers BREAKER_OPEN at once: no request reaches the remote', async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 503, { error: 'down' }));
    const { client: remote, breaker } = client(t, server.url, { retries: 0 }, { breaker: QUICK });
    for (let i = 0; i < 2; i++) assert.equal((await failure(remote.request(GET))).code, 'BRAIN_REMOTE_FAILED');
    assert.equal(breaker.state, 'open');
    const err = await failure(remote.request(GET));
    assert.equal(err.code, 'BREAKER_OPEN');
    assert.equal(err.details.breaker, 'brain:remote');
    assert.equal(server.requests.length, 2);
  });

  // Retry-After asks for ten minutes: were it waited, the test would time out.
  it('stops retrying when the breaker opens mid-way: BREAKER_OPEN without waiting out Retry-After', { timeout: 60_000 }, async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 500, { error: 'down' }, { 'retry-after': '600' }));
    const { client: remote } = client(t, server.url, { retries: 5, retryMaxMs: 300_000 }, { breaker: { ...QUICK, volumeThreshold: 1 } });
    assert.equal((await failure(remote.request(GET))).code, 'BREAKER_OPEN');
    assert.equal(server.requests.length, 1);
  });

  it('4xx answers, 401/403, redirects and garbage do not count against the remote', async (t) => {
    const answers: Script[] = [
      (_s, res) => json(res, 404, { error: 'no such memory' }),
      (_s, res) => json(res, 401, { error: 'who are you' }),
      (_s, res) => json(res, 403, { error: 'not you' }),
      (_s, res) => (res.writeHead(302, { location: 'https://elsewhere.example/' }), res.end()),
      (_s, res) => (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<html>hello</html>')),
    ];
    const server = await scripted(t, (seen, res, i) => answers[i % answers.length]!(seen, res, i));
    const { client: remote, breaker } = client(t, server.url, {}, { breaker: QUICK });
    for (let i = 0; i < answers.length * 2; i++) await remote.request(GET).catch(() => undefined);
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.status().stats.failures, 0);
    assert.equal(server.requests.length, answers.length * 2, 'none of them was retried');
  });

  it('isCallerError: only unreachable, timeouts, 408, 429 and 5xx count', () => {
    const failed = (details: Record<string, unknown>) => raise('BRAIN_REMOTE_FAILED', 'x', details);
    const table: Array<[string, unknown, boolean]> = [
      ['unreachable', failed({ reason: 'ECONNREFUSED' }), false],
      ['timeout', raise('BREAKER_TIMEOUT', 'x'), false],
      ['408', failed({ status: 408, reason: 'x' }), false],
      ['429', failed({ status: 429, reason: 'x' }), false],
      ['500', failed({ status: 500, reason: 'x' }), false],
      ['503', failed({ status: 503, reason: 'x' }), false],
      ['garbage (200)', failed({ status: 200, reason: 'not JSON' }), true],
      ['a redirect', failed({ status: 302, reason: 'redirect' }), true],
      ['refused (401)', raise('BRAIN_REMOTE_REFUSED', 'x', { status: 401 }), true],
      ['not found', raise('BRAIN_MEMORY_NOT_FOUND', 'x'), true],
      ['a caller abort', raise('CANCELLED', 'x'), true],
      ['anything else', new Error('bug'), true],
    ];
    for (const [what, err, expected] of table) assert.equal(isCallerError(err), expected, what);
  });
});

describe('brain remote HTTP client: what it refuses', () => {
  it('caps the body at maxResponseBytes, declared or streamed, and does not retry', async (t) => {
    const big = JSON.stringify({ memories: [{ content: 'x'.repeat(5000) }] });
    const server = await scripted(t, (_s, res, i) => {
      if (i === 0) return json(res, 200, JSON.parse(big));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(big);
    });
    const remote = client(t, server.url, { maxResponseBytes: 1024 }).client;
    for (let i = 0; i < 2; i++) {
      const err = await failure(remote.request(GET));
      assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
      assert.deepEqual(err.details, { status: 200, reason: 'too large', limit: 1024 });
      assert.match(err.message, /answered more than remote\.maxResponseBytes \(1024 bytes; status 200\)/);
    }
    assert.equal(server.requests.length, 2);
  });

  it('refuses a redirect, naming where it pointed without credentials or query, and the fix', async (t) => {
    const server = await scripted(t, (_s, res) => (res.writeHead(301, { location: 'https://user:pw@brain.example.com/v2?token=s3cret#x' }), res.end()));
    const err = await failure(client(t, server.url).client.request(GET));
    assert.equal(err.code, 'BRAIN_REMOTE_FAILED');
    assert.match(err.message, /redirected to https:\/\/brain\.example\.com\/v2 \(301\)\. Redirects are not followed.*set remote\.url to the final address\./);
    assert.ok(!/s3cret|pw@/.test(JSON.stringify([err.message, err.details])));
    assert.equal(server.requests.length, 1);
  });

  it('a 2xx that is not JSON: BRAIN_REMOTE_FAILED quoting it', async (t) => {
    const server = await scripted(t, (_s, res) => (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<html>Welcome to nginx!</html>')));
    const err = await failure(client(t, server.url).client.request(GET));
    assert.deepEqual(err.details, { status: 200, reason: 'not JSON' });
    assert.match(err.message, /answered 200 with a body that is not JSON: <html>Welcome to nginx!<\/html>/);
  });

  it('sends the key as a bearer token and never shows it, even when the remote repeats it', async (t) => {
    const server = await scripted(t, (seen, res, i) => {
      const given = String(seen.headers.authorization);
      if (i === 0) return json(res, 401, { error: `Invalid key ${given}` });
      json(res, 500, { error: { code: 'INTERNAL_ERROR', message: `crashed on ${given}` } });
    });
    const remote = client(t, server.url, { retries: 0 }).client;
    const refused = await failure(remote.request(GET));
    const crashed = await failure(remote.request(GET));
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(refused.code, 'BRAIN_REMOTE_REFUSED');
    assert.match(refused.message, new RegExp(`refused brain_list \\(401: Invalid key Bearer \\*\\*\\*\\): the key in \\$${KEY_ENV} is wrong or revoked`));
    assert.equal(crashed.details.code, 'INTERNAL_ERROR');
    for (const err of [refused, crashed]) assert.ok(!JSON.stringify([err.message, err.details]).includes(KEY), err.message);
  });

  it('without the key variable: no Authorization header, and a 401 says to set it', async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 401, { success: false, error: { code: 'UNAUTHORIZED', message: 'API keys are configured.' } }));
    const err = await failure(client(t, server.url, {}, { env: {} }).client.request(GET));
    assert.equal(server.requests[0]!.headers.authorization, undefined);
    assert.match(err.message, new RegExp(`no key was sent because \\$${KEY_ENV} is not set: set \\$${KEY_ENV}`));
    assert.deepEqual(err.details, { status: 401, tool: 'brain_list', reason: 'API keys are configured' });
  });

  it("403: the key's scopes on the remote do not allow the tool, named", async (t) => {
    const server = await scripted(t, (_s, res) => json(res, 403, { success: false, error: { code: 'FORBIDDEN', message: 'The key "laptop" may not call brain_forget.' } }));
    const err = await failure(client(t, server.url).client.request({ method: 'POST', path: '/tools/brain_forget', body: {}, tool: 'brain_forget' }));
    assert.equal(err.code, 'BRAIN_REMOTE_REFUSED');
    assert.match(err.message, /its scopes on the remote do not allow brain_forget/);
  });

  it('refuses at setup: no url, plain http to a host that is not loopback, credentials or a query in the url', (t) => {
    const setup = (url: string | undefined, more: Record<string, unknown> = {}) => () =>
      createRemoteBrain({ config: remoteConfig(url, more), breaker: remoteBreaker(t, remoteConfig('https://x.example')), error: raise, log: capturedLog().log, env: {} });
    const refusals: Array<[string | undefined, Record<string, unknown>, RegExp]> = [
      [undefined, {}, /remote\.url: backend remote needs the server's address/],
      ['http://brain.team.internal:9101', {}, /plain http to brain\.team\.internal would send the key and the memories unencrypted.*allowHttp: true/],
      ['http://10.0.0.7:9101', { protocol: 'openbrain' }, /plain http to 10\.0\.0\.7/],
      ['https://user:pw@brain.example.com', {}, /user and password in the URL cannot be sent/],
      ['https://brain.example.com/?key=abc', {}, /without a query or fragment/],
    ];
    for (const [url, more, message] of refusals) assert.throws(setup(url, more), (err: any) => err.code === 'CONFIG_INVALID' && message.test(err.message), url);
    for (const url of ['https://brain.example.com', 'http://localhost:9101', 'http://127.0.0.9:9101', 'http://[::1]:9101']) assert.doesNotThrow(setup(url), url);
    assert.doesNotThrow(setup('http://brain.team.internal:9101', { allowHttp: true }));
  });

  it('loopback: 127.0.0.0/8, ::1 and localhost only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '[::1]', '::1', 'localhost', 'LOCALHOST']) assert.equal(isLoopback(host), true, host);
    for (const host of ['128.0.0.1', '10.0.0.1', 'localhost.example.com', 'evil.localhost', '[::2]', '0.0.0.0']) assert.equal(isLoopback(host), false, host);
  });
});

describe('brain remote backoff', () => {
  it('full jitter: between 0 and the base doubled per retry, capped', () => {
    assert.equal(backoffMs(1, 100, 5000, () => 0), 0);
    assert.equal(backoffMs(1, 100, 5000, () => 0.999), 99);
    assert.equal(backoffMs(3, 100, 5000, () => 0.999), 399);
    assert.equal(backoffMs(20, 100, 5000, () => 0.999), 4995);
  });

  it('Retry-After: seconds or an HTTP date, capped, unreadable ignored', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs('2', 5000, now), 2000);
    assert.equal(retryAfterMs('120', 5000, now), 5000);
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', 5000, now), 3000);
    assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', 5000, now), 0);
    assert.equal(retryAfterMs('soon', 5000, now), undefined);
    assert.equal(retryAfterMs(null, 5000, now), undefined);
  });
});
