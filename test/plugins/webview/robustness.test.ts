// Pages that fight back: a script that never ends, an attachment, a crashed renderer, refs of
// frames the snapshot does not have, elements that cannot be acted on. Each call answers a
// WEBVIEW_* code that says what to do, and none of it counts against the browser's breaker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../helpers.js';
import { noChromium, processesWhere, webviewGateway } from './webview-helpers.js';

const html = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const PAGES: Record<string, string> = {
  '/plain': html('Plain', '<p>plain</p>'),
  // Loads (and answers the navigation's title), then holds the page's only thread for ever.
  '/hang': html('Hang', '<p>about to hang</p><script>setTimeout(() => { for (;;) {} }, 1500)</script>'),
  '/states': html(
    'States',
    `<button id="hidden" style="display: none">Hidden</button>
<button id="disabled" disabled>Disabled</button>
<div style="position: relative"><button id="covered">Covered</button><div id="cover" style="position: absolute; inset: 0; background: #fff"></div></div>`,
  ),
};

/** The pages above, and /download: an attachment; `seen` lists the paths asked for. */
async function hostilePages(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push(path);
    if (path === '/download') {
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-disposition', 'attachment; filename="x.bin"');
      res.end('0123456789');
      return;
    }
    res.statusCode = PAGES[path] ? 200 : 404;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(PAGES[path] ?? html('404', 'none'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The renderer processes of the browser whose process id is `pid` (they share its profile). */
function renderersOf(pid: number): number[] {
  const profile = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((arg) => arg.startsWith('--user-data-dir='))!;
  return processesWhere((cmdline) => cmdline.includes(profile) && cmdline.includes('--type=renderer'));
}

describe('webview: a page whose script never ends', { skip: noChromium }, async () => {
  // Short budgets for what the hung page is asked; loading it (and launching the browser with
  // the first navigate) gets a loaded CI machine's time: under load a 1 s load timed out.
  const w = await webviewGateway({ limits: { navigationTimeoutMs: 15_000, actionTimeoutMs: 1000, evalTimeoutMs: 1000, sessionIdleMs: 4000 } });
  const { url } = await hostilePages();

  it('webview_query answers WEBVIEW_TIMEOUT within its budget and closes the tab; the breaker stays closed; the session idles out', async () => {
    await w.call('webview_navigate', { url: `${url}/hang` });
    // The page's own clock: its loop starts 1.5 s after load; this query must not find it still free.
    // (Well within sessionIdleMs, or the sweep would close the session first.)
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const error = await w.fail('webview_query', { selector: 'p' });
    assert.equal(error.code, 'WEBVIEW_TIMEOUT', JSON.stringify(error));
    assert.match(error.message, /tab t1 does not answer/);
    assert.match(error.message, /closed/);
    assert.equal(error.details.tab, 't1');
    assert.equal(w.breaker().state, 'closed');
    assert.equal(w.breaker().stats.failures, 0, 'a hostile page is not the browser in trouble');
    const { tabs } = await w.call('webview_tabs', { action: 'list' });
    assert.deepEqual(tabs, [], 'the hung tab was closed');
    // Nothing holds the session busy any more: the idle sweep (sessionIdleMs 4 s) closes it.
    await waitFor(() => w.status().sessions === 0, 20_000);
  });

  it('the next call works in a new tab', async () => {
    const page = await w.call('webview_navigate', { url: `${url}/plain` });
    assert.equal(page.title, 'Plain');
  });
});

describe('webview: downloads', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const { url } = await hostilePages();

  it('navigating to an attachment is WEBVIEW_NAVIGATION_FAILED, never counted: another client still browses', async () => {
    for (let i = 0; i < 5; i++) {
      const error = await w.fail('webview_navigate', { url: `${url}/download?${i}` });
      assert.equal(error.code, 'WEBVIEW_NAVIGATION_FAILED');
      assert.match(error.message, /downloads are off in this gateway/);
      assert.equal(error.details.error, 'download');
    }
    assert.equal(w.breaker().stats.failures, 0);
    const other = await w.session('innocent');
    assert.equal((await other.call('webview_navigate', { url: `${url}/plain` })).title, 'Plain');
  });
});

describe('webview: a crashed tab', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const { url, seen } = await hostilePages();

  it('a call in flight answers WEBVIEW_TAB_CRASHED; the tab is gone, the console says why, the next call opens a new tab', async () => {
    await w.call('webview_navigate', { url: `${url}/plain` });
    // A script that tells the server it runs, then never ends: the call is in the page when the renderer dies.
    const waiting = w.fail('webview_eval', { script: "fetch('/running').then(() => new Promise(() => {}))", timeoutMs: 30_000 });
    await waitFor(() => seen.includes('/running'), 20_000);
    const renderers = renderersOf(w.status().browser.pid!);
    assert.ok(renderers.length > 0, 'found the renderer');
    for (const pid of renderers) process.kill(pid, 'SIGKILL');
    const error = await waiting;
    assert.equal(error.code, 'WEBVIEW_TAB_CRASHED', JSON.stringify(error));
    assert.match(error.message, /crashed/);

    await waitFor(() => w.status().tabs === 0);
    const { messages } = await w.call('webview_console', { types: ['error'] });
    assert.ok(messages.some((m: { tab: string; text: string }) => m.tab === 't1' && /crashed/.test(m.text)), JSON.stringify(messages));
    assert.equal((await w.fail('webview_snapshot', { tab: 't1' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    const again = await w.call('webview_navigate', { url: `${url}/plain` });
    assert.equal(again.tab, 't2');
    assert.equal(again.title, 'Plain');
    assert.equal(w.breaker().stats.failures, 0);
    assert.ok(w.status().browser.running, 'the browser itself is fine');
  });
});

describe('webview: elements that cannot be acted on', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const { url } = await hostilePages();

  it('a ref of a frame the snapshot does not have is WEBVIEW_ELEMENT_NOT_FOUND', async () => {
    await w.call('webview_navigate', { url: `${url}/plain` });
    await w.call('webview_snapshot');
    for (const ref of ['f5e4', 'f99e1']) {
      const error = await w.fail('webview_click', { ref });
      assert.equal(error.code, 'WEBVIEW_ELEMENT_NOT_FOUND', JSON.stringify(error));
      assert.match(error.message, /take webview_snapshot again/);
    }
  });

  for (const [id, state, says] of [
    ['hidden', 'hidden', /is not visible/],
    ['disabled', 'disabled', /is disabled/],
    ['covered', 'covered', /is covered by another element, <div id="cover"/],
  ] as const) {
    it(`a click on a ${id} element times out saying so (details.state ${state})`, async () => {
      await w.call('webview_navigate', { url: `${url}/states` });
      const error = await w.fail('webview_click', { selector: `#${id}`, timeoutMs: 3000 });
      assert.equal(error.code, 'WEBVIEW_TIMEOUT');
      assert.match(error.message, says);
      assert.equal(error.details.state, state);
    });
  }
});
