import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { noChromium, processesWhere, startOutsideBrowser, webviewGateway } from './webview-helpers.js';

/** Whether `pid` descends from this test process (other test runs may have browsers too). */
function ours(pid: number): boolean {
  for (let at = pid; at > 1; ) {
    if (at === process.pid) return true;
    at = Number(readFileSync(`/proc/${at}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
  }
  return false;
}

/** Browsers this process launched through Playwright (they talk over a pipe), by pid. */
function pipeBrowsers(): number[] {
  return processesWhere((cmdline, pid) => cmdline.includes('--remote-debugging-pipe') && !cmdline.includes('--type=') && ours(pid));
}

/** A loopback "DevTools endpoint" answering /json/version with `body` after `delayMs`. */
async function fakeEndpoint(body: () => string, delayMs = 0): Promise<string> {
  const server = createHttpServer((_req, res) => {
    setTimeout(() => res.setHeader('content-type', 'application/json').end(body()), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('webview_connect checks the WebSocket URL the endpoint names', { skip: noChromium }, async () => {
  const w = await webviewGateway({ connect: { enabled: true } });
  // "Remote" for the plugin: 127.0.0.2 is loopback, so a name that is not: the test stands a server where it points.
  const hits: string[] = [];
  const remote = createNetServer((socket) => {
    hits.push('connected');
    socket.destroy();
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  after(() => remote.close());
  const remotePort = (remote.address() as AddressInfo).port;

  // The endpoints answer at once; the long timeouts are for a loaded machine, where the
  // process's first fetch (undici loading) alone has taken over 2 s.
  it('refuses a loopback endpoint whose /json/version points elsewhere, without connecting there', async () => {
    const endpoint = await fakeEndpoint(() => JSON.stringify({ webSocketDebuggerUrl: `ws://10.9.8.7:${remotePort}/devtools/browser/x` }));
    const refused = await w.fail('webview_connect', { endpoint, timeoutMs: 10_000 });
    assert.equal(refused.code, 'WEBVIEW_CONNECT_REFUSED');
    assert.deepEqual(hits, []);
  });

  it('says what is wrong with an endpoint that is not a browser, without echoing its answer', async () => {
    const endpoint = await fakeEndpoint(() => 'secret-admin-page '.repeat(10));
    const failed = await w.fail('webview_connect', { endpoint, timeoutMs: 10_000 });
    assert.equal(failed.code, 'WEBVIEW_CONNECT_FAILED');
    assert.doesNotMatch(failed.message, /secret-admin-page/);
  });

  it('a failed connect changes nothing, and does not count in the breaker', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const pid = w.status().browser.pid;
    for (let i = 0; i < 6; i++) {
      assert.equal((await w.fail('webview_connect', { endpoint: 'http://127.0.0.1:1', timeoutMs: 500 })).code, 'WEBVIEW_CONNECT_FAILED');
    }
    assert.equal(w.status().browser.pid, pid, 'the browser was let go');
    const tabs = await w.call('webview_tabs', { action: 'list' });
    assert.equal(tabs.tabs.length, 1, 'the session was closed');
    assert.equal((await w.call('webview_snapshot')).title, 'Form');
  });
});

describe('webview_disconnect closes only the caller’s sessions', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it("leaves another client's session and the browser alone; the last one lets the browser go", async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const b = await w.session('other-client');
    await b.call('webview_navigate', { url: `${w.pages.url}/form` });
    const first = await b.call('webview_disconnect');
    assert.equal(first.disconnected, false);
    assert.equal(first.closedSessions, 1);
    assert.match(first.message, /the browser stays/);
    const mine = await w.call('webview_tabs', { action: 'list' });
    assert.equal(mine.tabs.length, 1, "A's tab is still there");
    const last = await w.call('webview_disconnect');
    assert.deepEqual(last, { disconnected: true, closedSessions: 1, message: 'The browser is closed; the next call launches it again.' });
  });
});

describe('webview_connect racing a first launch', { skip: noChromium }, async () => {
  const { endpoint } = await startOutsideBrowser();
  const version = (await (await fetch(`${endpoint}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const slow = await fakeEndpoint(() => JSON.stringify({ webSocketDebuggerUrl: version.webSocketDebuggerUrl }), 3000);
  const w = await webviewGateway({ connect: { enabled: true } });

  it('leaves no launched Chromium alive after shutdown', async () => {
    const before = new Set(pipeBrowsers());
    const connecting = w.call('webview_connect', { endpoint: slow }).catch((err: Error) => err);
    const other = await w.session('other');
    // The attach closes every session when it lands: this navigation may be cut short by it.
    await other.call('webview_navigate', { url: `${w.pages.url}/form` }).catch(() => undefined);
    // Launched, whether or not the attach has closed it again by now (it may have, on a slow machine).
    assert.ok(w.status().browser.launches >= 1, 'the navigation launched a browser');
    assert.ok(!((await connecting) instanceof Error), String(await connecting));
    assert.equal(w.status().browser.mode, 'connected');
    await w.gateway.close();
    const left = pipeBrowsers().filter((pid) => !before.has(pid));
    for (const pid of left) process.kill(pid, 'SIGKILL');
    assert.deepEqual(left, [], 'the launched Chromium outlived the gateway');
  });
});
