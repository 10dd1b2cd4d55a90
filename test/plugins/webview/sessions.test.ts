import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startGateway, tempDir, waitFor } from '../../helpers.js';
import { noChromium, webviewGateway } from './webview-helpers.js';

describe('webview: opening and closing browsing sessions', { skip: noChromium }, async () => {
  const w = await webviewGateway({ limits: { sessionsPerClient: 2 } });

  it('answers webview_tabs list, and close with nothing open, without launching the browser', async () => {
    assert.deepEqual(await w.call('webview_tabs', { action: 'list' }), { tabs: [], selected: null });
    assert.equal((await w.fail('webview_tabs', { action: 'close' })).code, 'WEBVIEW_TAB_NOT_FOUND');
    assert.deepEqual([w.status().browser.launches, w.status().sessions], [0, 0]);
  });

  it('opens one first tab for two first calls at once', async () => {
    const s = await w.session('two-at-once');
    await Promise.all([s.call('webview_snapshot'), s.call('webview_snapshot')]);
    const { tabs } = await s.call('webview_tabs', { action: 'list' });
    assert.deepEqual(tabs.map((t: { tab: string }) => t.tab), ['t1']);
  });

  it('limits the sessions one client holds (limits.sessionsPerClient), and webview_close frees one', async () => {
    const s = await w.session('greedy');
    await s.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'a' });
    await s.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'b' });
    const refused = await s.fail('webview_navigate', { url: `${w.pages.url}/form`, session: 'c' });
    assert.equal(refused.code, 'WEBVIEW_LIMIT');
    assert.deepEqual(refused.details, { limit: 'sessionsPerClient', max: 2 });
    assert.match(refused.message, /webview_close/);
    // Another client is not held back by this one.
    const other = await w.session('other');
    assert.equal((await other.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'c' })).tab, 't1');

    assert.deepEqual(await s.call('webview_close', { session: 'a' }), { closed: true, tabs: 1 });
    assert.deepEqual(await s.call('webview_close', { session: 'a' }), { closed: false, tabs: 0 });
    assert.equal((await s.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'c' })).tab, 't1');
    // The other client's session of the same name was not touched.
    assert.deepEqual((await other.call('webview_tabs', { action: 'list', session: 'c' })).tabs.length, 1);
  });

  it('tells of a tab a page opened without selecting it, once', async () => {
    const s = await w.session('popups');
    await s.call('webview_navigate', { url: `${w.pages.url}/popup` });
    // The popup joins a moment after the click: in the click's answer, or a later one, once.
    const told: string[] = [...((await s.call('webview_click', { selector: 'button' })).opened ?? [])];
    const deadline = Date.now() + 10_000;
    while (told.length === 0 && Date.now() < deadline) told.push(...((await s.call('webview_snapshot')).opened ?? []));
    assert.deepEqual(told, ['t2']);
    const next = await s.call('webview_snapshot');
    assert.deepEqual([next.tab, next.opened], ['t1', undefined]);
  });
});

describe('webview: a first session that fails to open', { skip: noChromium }, async () => {
  const w = await webviewGateway({ browserIdleMs: 1000 });

  it('lets the browser it launched idle away', async () => {
    const s = await w.session('leaving');
    // The MCP session closes while the browser launches: its first browsing session never opens.
    const calling = s.client.callTool({ name: 'webview_navigate', arguments: { url: `${w.pages.url}/form` } }).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    await s.client.close();
    await calling;
    await waitFor(() => w.status().browser.running, 20_000);
    await waitFor(() => w.status().sessions === 0 && !w.status().browser.running, 20_000);
  });
});

describe('webview: no browser at executablePath', async () => {
  const gateway = await startGateway({ plugins: { webview: { config: { executablePath: '/nonexistent/chromium' } } }, dataDir: join(tempDir(), 'data') });
  const webview = () => gateway.status().plugins.find((p) => p.name === 'webview')!.status!;

  it('says so at start: browser.missing and not ok', async () => {
    await waitFor(() => (webview().detail as { browser: { missing?: boolean } }).browser.missing === true);
    assert.equal(webview().ok, false);
  });
});
