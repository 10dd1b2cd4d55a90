import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { sandboxed } from '../../../plugins/webview/browser-host.js';
import { canonicalIp, IpRanges } from '../../../plugins/webview/ip-ranges.js';
import { PolicyProxy } from '../../../plugins/webview/policy-proxy.js';
import { UrlPolicy } from '../../../plugins/webview/url-policy.js';
import { noChromium, webviewGateway } from './webview-helpers.js';

/** A port nothing listens on (one just let go; Chromium refuses low "unsafe" ports such as 1 itself). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Host rules hold for every spelling of an address, and for the addresses a name resolves to.
describe('webview host rules: addresses in every spelling', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { denyHosts: ['127.0.0.1', 'localhost'] } });
  const port = new URL(w.pages.url).port;

  const spellings = ['0.0.0.0', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '127.0.0.2', '[::1]', '[::]', '2130706433', '0x7f.1'];
  for (const host of spellings) {
    it(`refuses http://${host}:${port}/ as 127.0.0.1 or localhost`, async () => {
      const refused = await w.fail('webview_navigate', { url: `http://${host}:${port}/form?via=${encodeURIComponent(host)}` });
      assert.equal(refused.code, 'WEBVIEW_URL_REFUSED');
      assert.match(refused.details.reason, /denyHosts/);
      assert.ok(!w.pages.seen.some((path) => path.includes('via=')), 'the server was reached');
    });
  }
});

describe('webview host rules: ranges, and what a name resolves to', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { denyHosts: ['127.0.0.0/8', '::1/128'] } });
  const port = new URL(w.pages.url).port;

  it('refuses a name that resolves into a denied range, in the proxy, as WEBVIEW_URL_REFUSED', async () => {
    const refused = await w.fail('webview_navigate', { url: `http://localhost:${port}/form?by=name` });
    assert.equal(refused.code, 'WEBVIEW_URL_REFUSED');
    assert.match(refused.details.reason, /localhost resolves to (127\.0\.0\.1|::1), which is in urls\.denyHosts/);
    assert.equal(refused.details.hop, `http://localhost:${port}/form?by=name`);
    assert.ok(!w.pages.seen.includes('/form?by=name'));
  });

  it('shows the blocked request once in webview_network, on the tab that asked', async () => {
    const net = await w.call('webview_network', {});
    const entries = net.requests.filter((entry: { url: string }) => entry.url.includes('by=name'));
    assert.equal(entries.length, 1, JSON.stringify(entries));
    assert.equal(entries[0].method, 'GET');
    assert.equal(entries[0].tab, 't1');
    assert.match(entries[0].failure, /blocked by the URL policy/);
  });
});

describe('webview urls.denyPrivate', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { denyPrivate: true } });
  const port = new URL(w.pages.url).port;

  it('refuses loopback by address and by name', async () => {
    assert.match((await w.fail('webview_navigate', { url: `${w.pages.url}/form` })).details.reason, /urls\.denyPrivate/);
    const byName = await w.fail('webview_navigate', { url: `http://localhost:${port}/form` });
    assert.equal(byName.code, 'WEBVIEW_URL_REFUSED');
    assert.match(byName.details.reason, /private address \(urls\.denyPrivate\)/);
    for (const url of ['http://169.254.169.254/', 'http://10.1.2.3/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://192.168.1.1/']) {
      assert.equal((await w.fail('webview_navigate', { url })).code, 'WEBVIEW_URL_REFUSED', url);
    }
  });
});

describe('webview host rules: spellings and ranges (no browser)', () => {
  it('spells each address one way', () => {
    assert.equal(canonicalIp('[::ffff:7f00:1]'), '127.0.0.1');
    assert.equal(canonicalIp('::FFFF:10.0.0.1'), '10.0.0.1');
    assert.equal(canonicalIp('0.0.0.0'), '127.0.0.1');
    assert.equal(canonicalIp('[::]'), '::1');
    assert.equal(canonicalIp('0:0:0:0:0:0:0:1'), '::1');
    assert.equal(canonicalIp('example.com'), undefined);
  });

  it('matches ranges and refuses what is not one', () => {
    const ranges = new IpRanges();
    assert.equal(ranges.add('169.254.0.0/16'), true);
    assert.equal(ranges.add('::ffff:10.0.0.0/104'), true);
    assert.equal(ranges.add('example.com'), false);
    assert.equal(ranges.add('10.0.0.0/33'), false);
    assert.equal(ranges.has('169.254.169.254'), true);
    assert.equal(ranges.has('10.200.0.1'), true);
    assert.equal(ranges.has('11.0.0.1'), false);
    assert.equal(IpRanges.private().has('fd12::3'), true);
  });

  it('says a URL without a scheme lacks one', () => {
    const policy = new UrlPolicy({ schemes: ['http', 'https'], allowHosts: [], denyHosts: [], denyPrivate: false });
    const verdict = policy.checkNavigation('localhost:18765');
    assert.equal(verdict.ok, false);
    assert.match(!verdict.ok ? verdict.reason : '', /has no scheme; did you mean http:\/\/localhost:18765\/\?/);
  });
});

describe('webview policy proxy: only its own browser context may use it', () => {
  it('answers 407 without the credentials, for plain requests and tunnels', async () => {
    const policy = new UrlPolicy({ schemes: ['http', 'https'], allowHosts: [], denyHosts: ['blocked.test'], denyPrivate: false });
    const proxy = await PolicyProxy.start(policy, { blocked: () => undefined, failed: () => undefined });
    after(() => proxy.close());
    const { port } = new URL(proxy.address);
    const ask = (method: string, path: string, auth?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, headers: auth ? { 'proxy-authorization': auth } : {} });
        req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('connect', (res, socket) => (socket.destroy(), resolve(res.statusCode ?? 0)));
        req.on('error', reject);
        req.end();
      });
    const wrong = `Basic ${Buffer.from('someone:guess').toString('base64')}`;
    const right = `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`;
    assert.equal(await ask('GET', 'http://blocked.test/'), 407);
    assert.equal(await ask('GET', 'http://blocked.test/', wrong), 407);
    assert.equal(await ask('CONNECT', 'blocked.test:443'), 407);
    assert.equal(await ask('GET', 'http://blocked.test/', right), 403, 'the right credentials get to the policy');
    assert.equal(await ask('CONNECT', 'blocked.test:443', right), 403);
  });
});

describe('webview WebRTC stays behind the policy proxy', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { allowHosts: ['localhost'] } });
  const udp = createSocket('udp4');
  const packets: string[] = [];
  udp.on('message', (_msg, from) => packets.push(`${from.address}:${from.port}`));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  after(() => udp.close());

  it('launches Chromium with non-proxied UDP off, so a page sends no STUN packet', async () => {
    // The script is what a hostile page on an allowed host would run; 127.0.0.1 is not allowed.
    await w.call('webview_navigate', { url: `http://localhost:${new URL(w.pages.url).port}/form` });
    const cmdline = readFileSync(`/proc/${w.status().browser.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(cmdline.includes('--webrtc-ip-handling-policy=disable_non_proxied_udp'), cmdline.join(' '));
    await w.call('webview_eval', {
      script: `(async () => {
        const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udp.address().port}' }] });
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
        await new Promise((r) => setTimeout(r, 1500));
        return pc.iceGatheringState;
      })()`,
    });
    assert.deepEqual(packets, [], 'a STUN packet went around the proxy');
  });
});

describe('webview through the proxy: real causes, retries', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { denyHosts: ['blocked.test'] } });
  const closed = `http://127.0.0.1:${await closedPort()}/`;

  it('a server that is down answers WEBVIEW_NAVIGATION_FAILED with the real cause', async () => {
    const down = await w.fail('webview_navigate', { url: closed });
    assert.equal(down.code, 'WEBVIEW_NAVIGATION_FAILED');
    assert.equal(down.details.error, 'net::ERR_CONNECTION_REFUSED');
    assert.match(down.message, /net::ERR_CONNECTION_REFUSED/);
    const tab = await w.fail('webview_tabs', { action: 'new', url: closed });
    assert.equal(tab.details.error, 'net::ERR_CONNECTION_REFUSED');
  });

  it('a redirect to a denied host answers WEBVIEW_URL_REFUSED naming the hop, for navigate and tabs new', async () => {
    const to = 'http://blocked.test/secret';
    const start = `${w.pages.url}/redirect?to=${encodeURIComponent(to)}`;
    const refused = await w.fail('webview_navigate', { url: start });
    assert.equal(refused.code, 'WEBVIEW_URL_REFUSED');
    assert.deepEqual(refused.details, { url: start, reason: 'the host blocked.test is in urls.denyHosts', hop: to });
    assert.equal((await w.fail('webview_tabs', { action: 'new', url: start })).code, 'WEBVIEW_URL_REFUSED');
  });
});

describe('webview: navigating right after a failed navigation', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const port = await closedPort();

  it('loads the next page instead of failing as interrupted by the error page', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await w.fail('webview_navigate', { url: `http://127.0.0.1:${port}/` })).code, 'WEBVIEW_NAVIGATION_FAILED');
      assert.equal((await w.call('webview_navigate', { url: `${w.pages.url}/form?${i}` })).title, 'Form');
    }
  });
});

describe('webview sandbox setting', () => {
  it('auto keeps the sandbox except as root', () => {
    assert.equal(sandboxed('auto', 1000), true);
    assert.equal(sandboxed('auto', 0), false);
    assert.equal(sandboxed(true, 0), true);
    assert.equal(sandboxed(false, 1000), false);
  });
});

describe('webview sandbox: the launched Chromium', { skip: noChromium }, async () => {
  const w = await webviewGateway({ sandbox: 'auto' });
  it('runs with --no-sandbox only when the gateway is root', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const cmdline = readFileSync(`/proc/${w.status().browser.pid}/cmdline`, 'utf8').split('\0');
    assert.equal(cmdline.includes('--no-sandbox'), process.getuid?.() === 0, cmdline.join(' '));
  });
});
