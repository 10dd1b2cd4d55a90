import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noChromium, webviewGateway } from './webview-helpers.js';

// The URL policy: what a caller may send the browser to, and what pages may load.
describe('webview URL policy', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  const refused = [
    'file:///etc/passwd',
    'chrome://settings',
    'view-source:https://example.com/',
    'javascript:alert(1)',
    'data:text/html,<h1>hi</h1>',
    'ftp://example.com/file',
    'about:config',
    'blob:https://example.com/uuid',
    'not a url',
    '/relative/path',
  ];
  for (const url of refused) {
    it(`refuses ${url} before the browser sees it`, async () => {
      const error = await w.fail('webview_navigate', { url });
      assert.equal(error.code, 'WEBVIEW_URL_REFUSED');
      assert.ok(error.details.reason.length > 0);
    });
  }

  it('lets about:blank through whatever the schemes say', async () => {
    const blank = await w.call('webview_navigate', { url: 'about:blank' });
    assert.equal(blank.url, 'about:blank');
    assert.equal(blank.status, null);
  });

  it('says the scheme and the config key that refused it', async () => {
    const error = await w.fail('webview_navigate', { url: 'file:///etc/passwd' });
    assert.match(error.message, /file: is not allowed \(urls\.schemes: http, https\)/);
  });

  it('cannot reach a file by a script navigation either: Chromium keeps web pages off file:', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/to-file` });
    // Give the script its chance, then the tab is still on the web page, with no file shown.
    await w.call('webview_navigate', { url: `${w.pages.url}/to-file`, waitUntil: 'networkidle' });
    const snap = await w.call('webview_snapshot');
    assert.match(snap.url, /^http:/);
    assert.doesNotMatch(snap.snapshot, /root:x:0/);
  });
});

describe('webview host lists', { skip: noChromium }, async () => {
  const w = await webviewGateway({ urls: { denyHosts: ['blocked.example.test'], allowHosts: ['127.0.0.1', '*.example.test'] } });
  const port = new URL(w.pages.url).port;

  it('refuses a navigation to a denied host, and one to a host not allowed', async () => {
    const denied = await w.fail('webview_navigate', { url: 'http://blocked.example.test/' });
    assert.equal(denied.code, 'WEBVIEW_URL_REFUSED');
    assert.match(denied.details.reason, /denyHosts/);
    const other = await w.fail('webview_navigate', { url: 'http://example.com/' });
    assert.match(other.details.reason, /allowHosts/);
    const subdomainRule = await w.fail('webview_navigate', { url: 'http://example.test/' });
    assert.match(subdomainRule.details.reason, /allowHosts/, '*.example.test does not match example.test itself');
  });

  it('blocks a redirect from an allowed host to a denied one', async () => {
    const hop = `http://blocked.example.test:${port}/secret-by-redirect`;
    const refused = await w.fail('webview_navigate', { url: `${w.pages.url}/redirect?to=${encodeURIComponent(hop)}` });
    assert.equal(refused.code, 'WEBVIEW_URL_REFUSED');
    assert.equal(refused.details.hop, hop);
    assert.match(refused.details.reason, /the host blocked\.example\.test is in urls\.denyHosts/);
    assert.ok(!w.pages.seen.some((path) => path.startsWith('/secret')), 'the redirect never reached the server');
  });

  it("blocks the page's own requests to a denied host", async () => {
    const page = await w.call('webview_navigate', { url: `${w.pages.url}/fetch?to=${encodeURIComponent(`http://blocked.example.test:${port}/secret`)}`, waitUntil: 'networkidle' });
    assert.equal(page.title, 'Fetch');
    const snap = await w.call('webview_snapshot');
    assert.match(snap.snapshot, /blocked: Failed to fetch/);
    assert.ok(!w.pages.seen.some((path) => path.startsWith('/secret')), 'the request never reached the server');
  });
});
