import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTICE_BURST, NOTICES_PER_SECOND } from '../../../plugins/webview/notice-gate.js';
import { Ring } from '../../../plugins/webview/ring.js';
import { recordNotifications, waitFor } from '../../helpers.js';
import { noChromium, webviewGateway } from './webview-helpers.js';

/** The most a browsing session may send in `ms`: the burst, the rate, and one summary a second. */
const allowed = (ms: number) => NOTICE_BURST + Math.ceil((ms / 1000) * NOTICES_PER_SECOND) + Math.ceil(ms / 1000) + 1;

describe('webview: the console ring', () => {
  it('keeps the last `capacity` items, oldest first, and counts what it dropped', () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 7; i++) ring.push(i);
    assert.deepEqual(ring.items(), [5, 6, 7]);
    assert.equal(ring.dropped, 4);
    ring.clear();
    ring.push(8);
    assert.deepEqual([ring.items(), ring.dropped], [[8], 0]);
  });
});

describe('webview: floods from one page', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it('closes a tab that raises dialogs in a loop, and says why in the console', async () => {
    const s = await w.session('alert-loop');
    let dialogs = 0;
    const off = w.gateway.events.subscribe('webview.dialog', () => dialogs++);
    await s.call('webview_navigate', { url: `${w.pages.url}/alert-loop`, waitUntil: 'commit' });
    await waitFor(() => w.status().tabs === 0, 20_000);
    off();
    assert.ok(dialogs <= 20, `${dialogs} dialog events`);
    const { messages } = await s.call('webview_console', { types: ['warning'] });
    assert.ok(messages.some((m: { text: string }) => /tab t1 was closed: its page raised more than 20 dialogs/.test(m.text)), JSON.stringify(messages));
  });

  it('sends a bounded number of notifications and events for a console.error loop, keeps every message in the console, and says how many it held back', async () => {
    const s = await w.session('error-flood');
    const received = recordNotifications(s.client);
    let events = 0;
    const off = w.gateway.events.subscribe('webview.console', () => events++);
    const started = Date.now();
    await s.call('webview_navigate', { url: `${w.pages.url}/error-flood`, waitUntil: 'commit' });
    const { messages } = await s.call('webview_console', { limit: 100_000 });
    await waitFor(() => received.some((n) => /more console messages and page events were not sent/.test(n.params?.data?.text ?? '')), 20_000);
    const notes = received.filter((n) => n.params?.data?.event === 'webview.console').length;
    const seen = events;
    const ms = Date.now() - started;
    off();
    await s.call('webview_tabs', { action: 'close' });
    assert.ok(notes <= allowed(ms), `${notes} notifications in ${ms} ms`);
    assert.ok(seen <= allowed(ms), `${seen} events in ${ms} ms`);
    // The record has them all (up to limits.consoleMessages): the page logs 20 per tick.
    const recorded = (await s.call('webview_console', { limit: 100_000 })).messages.length;
    assert.ok(recorded > notes && recorded >= messages.length, `${recorded} recorded, ${notes} notified`);
  });
});

describe('webview: the missing favicon', { skip: noChromium }, async () => {
  const w = await webviewGateway({ events: 'full' });

  it("keeps Chromium's missing-favicon error in the console but sends it as no event or notification", async () => {
    const received = recordNotifications(w.client);
    const published: Array<{ text?: string; url?: string }> = [];
    const off = w.gateway.events.subscribe('webview.console', (event) => published.push(event.data as { text?: string; url?: string }));
    await w.call('webview_navigate', { url: `${w.pages.url}/no-favicon` });
    // Chromium asks for the icon on its own time: wait until the console has its error.
    const deadline = Date.now() + 20_000;
    const favicon = () => w.call('webview_console', { types: ['error'] }).then(({ messages }) => messages.some((m: { url?: string }) => m.url?.endsWith('/favicon.ico')));
    while (!(await favicon())) {
      assert.ok(Date.now() < deadline, 'Chromium never logged the missing favicon');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // An error of the page's own, after it: events and notifications come in order, so once it is here the favicon's would be too.
    await w.call('webview_eval', { script: "console.error('after the icon')" });
    await waitFor(() => received.some((n) => n.params?.data?.text === 'after the icon'), 20_000);
    off();
    assert.ok(!received.some((n) => String(n.params?.data?.url).endsWith('/favicon.ico')), 'notified of the favicon');
    assert.ok(published.some((data) => data.text === 'after the icon'));
    assert.ok(!published.some((data) => String(data.url).endsWith('/favicon.ico')), JSON.stringify(published));
  });
});
