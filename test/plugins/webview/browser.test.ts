import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { waitFor } from '../../helpers.js';
import { noChromium, processesWhere, startOutsideBrowser, webviewGateway } from './webview-helpers.js';

/** Whether a process with this id runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of the processes whose command line mentions `text`. */
function processesWith(text: string): number[] {
  return processesWhere((cmdline) => cmdline.includes(text));
}

/** The --user-data-dir a browser process was started with: its children share it. */
function profileOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const flag = args.find((arg) => arg.startsWith('--user-data-dir='));
  assert.ok(flag, `browser ${pid} has a --user-data-dir`);
  return flag.slice('--user-data-dir='.length);
}

describe('webview without a browser', async () => {
  const w = await webviewGateway({ executablePath: '/nonexistent/chromium' });

  it('still loads, and every page tool says how to install one', async () => {
    for (const [tool, args] of [['webview_navigate', { url: 'https://example.com/' }], ['webview_snapshot', {}], ['webview_click', { selector: 'a' }]] as const) {
      const error = await w.fail(tool, args);
      assert.equal(error.code, 'WEBVIEW_BROWSER_MISSING');
      assert.match(error.message, /apt-get install chromium/);
      assert.match(error.message, /executablePath/);
    }
    // Telling the caller is not a failure of the browser: the breaker stays closed.
    assert.equal(w.breaker().state, 'closed');
    assert.equal(w.breaker().stats.failures, 0);
  });
});

describe('webview browser lifecycle', { skip: noChromium }, async () => {
  it('a Chromium killed mid-call: WEBVIEW_BROWSER_FAILED, counted by the breaker; the next call launches a new one', async () => {
    const w = await webviewGateway();
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const { pid } = w.status().browser;
    assert.ok(pid && alive(pid));
    const slow = w.fail('webview_navigate', { url: `${w.pages.url}/slow?ms=60000` });
    await waitFor(() => w.pages.seen.some((path) => path.startsWith('/slow')));
    process.kill(pid, 'SIGKILL');
    const error = await slow;
    assert.equal(error.code, 'WEBVIEW_BROWSER_FAILED');
    assert.equal(w.breaker().stats.failures, 1);
    await waitFor(() => !w.status().browser.running);
    assert.equal(w.status().sessions, 0, 'the dead browser took its contexts along');

    const again = await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal(again.title, 'Form');
    assert.equal(again.tab, 't1', 'a new context, a new first tab');
    const state = w.status().browser;
    assert.equal(state.launches, 2);
    assert.equal(state.crashes, 1);
    assert.notEqual(state.pid, pid);
  });

  it('leaves no Chromium process behind after shutdown', async () => {
    const w = await webviewGateway();
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    await w.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'second' });
    const { pid } = w.status().browser;
    const profile = profileOf(pid!);
    assert.ok(processesWith(profile).length > 1, 'the browser runs with helper processes');
    await w.gateway.close();
    assert.equal(alive(pid!), false);
    await waitFor(() => processesWith(profile).length === 0);
  });
});

describe('webview_connect and webview_disconnect', { skip: noChromium }, async () => {
  // A browser somebody else started, with its DevTools port open: the gateway only attaches.
  const { endpoint, child: outside } = await startOutsideBrowser();
  const w = await webviewGateway({ connect: { enabled: true } });

  it('attaches to it: pages open there; disconnect detaches and it keeps running', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const launchedPid = w.status().browser.pid!;
    const connected = await w.call('webview_connect', { endpoint });
    assert.equal(connected.connected, true);
    assert.equal(connected.browser.mode, 'connected');
    assert.equal(connected.closedSessions, 1);
    await waitFor(() => !alive(launchedPid));

    const page = await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal(page.title, 'Form');
    assert.equal(w.status().browser.mode, 'connected');

    const gone = await w.call('webview_disconnect');
    assert.deepEqual(gone, { disconnected: true, closedSessions: 1, message: 'Detached from the browser; it keeps running.' });
    assert.equal(outside.exitCode, null, 'the outside browser still runs');
    assert.ok(alive(outside.pid!));
    assert.deepEqual(await w.call('webview_disconnect'), { disconnected: false, closedSessions: 0, message: 'No browser was running.' });

    // The next call launches the gateway's own browser again.
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal(w.status().browser.mode, 'launched');
  });

  it('refuses endpoints on other machines, and says when nobody answers', async () => {
    const remote = await w.fail('webview_connect', { endpoint: 'http://10.1.2.3:9222' });
    assert.equal(remote.code, 'WEBVIEW_CONNECT_REFUSED');
    assert.equal((await w.fail('webview_connect', { endpoint: 'file:///tmp/x' })).code, 'INVALID_ARGUMENTS');
    const nobody = await w.fail('webview_connect', { endpoint: `${w.pages.url.replace(/:\d+$/, ':1')}`, timeoutMs: 2000 });
    assert.equal(nobody.code, 'WEBVIEW_CONNECT_FAILED');
  });
});

describe('webview_connect switched off (the default)', async () => {
  const w = await webviewGateway();
  it('answers WEBVIEW_CONNECT_REFUSED, saying how to switch it on', async () => {
    const off = await w.fail('webview_connect', {});
    assert.equal(off.code, 'WEBVIEW_CONNECT_REFUSED');
    assert.match(off.message, /connect\.enabled to true/);
  });
});
