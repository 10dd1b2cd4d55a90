import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noChromium, webviewGateway, type WebviewSession } from './webview-helpers.js';

/** The session's tabs once there are `count` of them (polled: a page that opens a tab does so on its own time). */
async function tabsOnce(s: WebviewSession, count: number): Promise<{ tabs: Array<{ tab: string }> }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const listed = await s.call('webview_tabs', { action: 'list' });
    if (listed.tabs.length === count) return listed;
    if (Date.now() > deadline) throw new Error(`not ${count} tabs: ${JSON.stringify(listed)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webview: tabs', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it('lists, opens (at a URL), selects and closes tabs; tools act on the selected one', async () => {
    const s = await w.session('tabs-client');
    assert.deepEqual(await s.call('webview_tabs', { action: 'list' }), { tabs: [], selected: null });
    await s.call('webview_navigate', { url: `${w.pages.url}/form` });

    const opened = await s.call('webview_tabs', { action: 'new', url: `${w.pages.url}/list` });
    assert.deepEqual(opened, {
      tabs: [
        { tab: 't1', url: `${w.pages.url}/form`, title: 'Form', selected: false },
        { tab: 't2', url: `${w.pages.url}/list`, title: 'List', selected: true },
      ],
      selected: 't2',
    });
    assert.equal((await s.call('webview_snapshot')).tab, 't2');

    assert.equal((await s.call('webview_tabs', { action: 'select', tab: 't1' })).selected, 't1');
    const read = await s.call('webview_query', { selector: 'h1' });
    assert.deepEqual([read.tab, read.elements[0].text], ['t1', 'Sign up']);
    assert.equal((await s.call('webview_query', { selector: 'li', tab: 't2' })).count, 3);

    const blank = await s.call('webview_tabs', { action: 'new' });
    assert.deepEqual(blank.tabs.at(-1), { tab: 't3', url: 'about:blank', title: '', selected: true });

    const closed = await s.call('webview_tabs', { action: 'close', tab: 't2' });
    assert.deepEqual(closed.tabs.map((t: { tab: string }) => t.tab), ['t1', 't3']);
    assert.equal(closed.selected, 't3');
    const closedSelected = await s.call('webview_tabs', { action: 'close' });
    assert.deepEqual([closedSelected.tabs.map((t: { tab: string }) => t.tab), closedSelected.selected], [['t1'], 't1']);
    assert.deepEqual(await s.call('webview_tabs', { action: 'close' }), { tabs: [], selected: null });
    assert.equal((await s.fail('webview_tabs', { action: 'close' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    // With no tab left, the next page tool opens a new one.
    assert.equal((await s.call('webview_navigate', { url: `${w.pages.url}/form` })).tab, 't4');
  });

  it('refuses a URL the policy refuses before opening anything, and closes a tab whose page fails to load', async () => {
    const s = await w.session('refusals-client');
    await s.call('webview_navigate', { url: `${w.pages.url}/form` });
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings', 'view-source:https://example.com/', 'not a url']) {
      const refused = await s.fail('webview_tabs', { action: 'new', url });
      assert.equal(refused.code, 'WEBVIEW_URL_REFUSED', url);
      assert.ok(refused.details.reason, url);
    }
    const failed = await s.fail('webview_tabs', { action: 'new', url: 'http://127.0.0.1:1/' });
    assert.equal(failed.code, 'WEBVIEW_NAVIGATION_FAILED');
    assert.deepEqual((await s.call('webview_tabs', { action: 'list' })).tabs.map((t: { tab: string }) => t.tab), ['t1']);
  });

  it('says an unknown tab is WEBVIEW_TAB_NOT_FOUND, and refuses arguments that do not go with the action', async () => {
    const s = await w.session('unknown-tab-client');
    await s.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal((await s.fail('webview_tabs', { action: 'select', tab: 't99' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    assert.equal((await s.fail('webview_tabs', { action: 'close', tab: 't99' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    assert.equal((await s.fail('webview_query', { selector: 'h1', tab: 't99' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    for (const args of [{ action: 'select' }, { action: 'list', tab: 't1' }, { action: 'close', url: `${w.pages.url}/form` }, { action: 'new', tab: 't1' }, { action: 'open' }]) {
      assert.equal((await s.fail('webview_tabs', args)).code, 'INVALID_ARGUMENTS', JSON.stringify(args));
    }
  });

  it('makes a page that the page opens (window.open) a tab, not selected', async () => {
    const s = await w.session('popup-client');
    await s.call('webview_navigate', { url: `${w.pages.url}/popup` });
    await s.call('webview_click', { selector: 'button' });
    // The popup joins as a tab a moment after the click, then loads on its own: wait for both.
    await tabsOnce(s, 2);
    const loaded = await s.call('webview_wait', { tab: 't2', text: 'Sign up', timeoutMs: 10_000 });
    assert.equal(loaded.url, `${w.pages.url}/form`);
    const listed = await s.call('webview_tabs', { action: 'list' });
    assert.deepEqual(listed.tabs, [
      { tab: 't1', url: `${w.pages.url}/popup`, title: 'Popup', selected: true },
      { tab: 't2', url: `${w.pages.url}/form`, title: 'Form', selected: false },
    ]);
  });
});

describe('webview: the tab limit', { skip: noChromium }, async () => {
  const w = await webviewGateway({ limits: { tabsPerSession: 2 } });

  it('refuses a tab beyond limits.tabsPerSession with WEBVIEW_LIMIT, and opens one again once a tab is closed', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    await w.call('webview_tabs', { action: 'new' });
    const limit = await w.fail('webview_tabs', { action: 'new', url: `${w.pages.url}/list` });
    assert.equal(limit.code, 'WEBVIEW_LIMIT');
    assert.deepEqual(limit.details, { limit: 'tabsPerSession', max: 2 });
    await w.call('webview_tabs', { action: 'close' });
    assert.equal((await w.call('webview_tabs', { action: 'new', url: `${w.pages.url}/list` })).selected, 't3');
  });
});
