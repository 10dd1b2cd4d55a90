import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import { listenHttp } from '../../../core/http/http-server.js';
import { recordNotifications, waitFor, type Received } from '../../helpers.js';
import { noChromium, webviewGateway } from './webview-helpers.js';

/** Every event /events sends on this socket, as they come. */
async function watchEvents(base: string, channels: string[]): Promise<any[]> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/events`);
  after(() => ws.terminate());
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const seen: any[] = [];
  const subscribed = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'subscribed') resolve();
      if (message.type === 'event') seen.push(message);
    }),
  );
  ws.send(JSON.stringify({ type: 'subscribe', channels }));
  await subscribed;
  return seen;
}

/** The webview log notifications a client received. */
const webviewNotes = (received: Received[]) => received.filter((n) => n.method === 'notifications/message' && n.params?.data?.event?.startsWith('webview.')).map((n) => n.params);

describe('webview: events and notifications (events: full)', { skip: noChromium }, async () => {
  const w = await webviewGateway({ events: 'full' }, { transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } } });
  const listener = await listenHttp(w.gateway);
  after(() => listener.close());
  const base = `http://127.0.0.1:${listener.address.port}`;

  it('publishes webview.navigated, webview.console and webview.dialog on /events', async () => {
    const seen = await watchEvents(base, ['webview.*']);
    const consolePage = `${w.pages.url}/console`;
    await w.call('webview_navigate', { url: consolePage, session: 'events' });
    await w.call('webview_navigate', { url: `${w.pages.url}/dialog`, session: 'events' });
    const find = (channel: string, match: (data: any) => boolean) => seen.find((e) => e.channel === channel && match(e.data));
    await waitFor(() => find('webview.console', (d) => d.type === 'pageerror') !== undefined && find('webview.dialog', () => true) !== undefined, 20_000);
    assert.ok(seen.every((e) => e.source === 'webview'));
    const navigated = find('webview.navigated', (d) => d.url === consolePage);
    assert.deepEqual({ ...navigated.data, time: undefined }, { session: 'events', owner: 'mcp', tab: 't1', url: consolePage, time: undefined });
    const error = find('webview.console', (d) => d.text === 'something broke');
    assert.deepEqual([error.data.session, error.data.tab, error.data.type, error.data.url], ['events', 't1', 'error', consolePage]);
    assert.equal(find('webview.console', (d) => d.type === 'pageerror').data.text, 'Error: uncaught boom');
    const dialog = find('webview.dialog', () => true);
    assert.deepEqual({ ...dialog.data, time: undefined }, { session: 'events', owner: 'mcp', tab: 't1', type: 'alert', message: 'Welcome!', time: undefined });
    assert.ok(find('webview.console', (d) => d.type === 'dialog' && d.text === 'alert: Welcome!'));
  });

  it("notifies an MCP session of its own pages' errors and dialogs, and no other session", async () => {
    const mine = await w.session('mine');
    const other = await w.session('other');
    const toMine = recordNotifications(mine.client);
    const toOther = recordNotifications(other.client);
    await mine.call('webview_navigate', { url: `${w.pages.url}/console` });
    await mine.call('webview_navigate', { url: `${w.pages.url}/dialog` });
    await waitFor(() => webviewNotes(toMine).some((n) => n.data.type === 'pageerror') && webviewNotes(toMine).some((n) => n.data.event === 'webview.dialog'), 20_000);
    const notes = webviewNotes(toMine);
    const error = notes.find((n) => n.data.text === 'something broke');
    assert.equal(error.level, 'error');
    assert.equal(error.data.event, 'webview.console');
    const dialog = notes.find((n) => n.data.event === 'webview.dialog');
    assert.equal(dialog.level, 'warning');
    assert.deepEqual([dialog.data.type, dialog.data.message], ['alert', 'Welcome!']);
    assert.ok(!notes.some((n) => n.data.type === 'log' || n.data.type === 'warning'), 'only errors and dialogs are worth a notification');

    // The other session hears of its own page only, once it has one.
    const otherPage = `${w.pages.url}/console?who=other`;
    await other.call('webview_navigate', { url: otherPage });
    await waitFor(() => webviewNotes(toOther).some((n) => n.data.type === 'pageerror'), 20_000);
    const heard = webviewNotes(toOther);
    assert.ok(heard.some((n) => n.data.url === otherPage));
    assert.ok(!heard.some((n) => n.data.url === `${w.pages.url}/console` || n.data.event === 'webview.dialog'), JSON.stringify(heard));
    assert.ok(!webviewNotes(toMine).some((n) => n.data.url === otherPage));
  });
});

describe('webview: events by default (events: metadata)', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it('carry who, which tab, what kind and when, a navigation its origin only: no console text, URL or dialog message', async () => {
    const seen: Array<{ channel: string; data: Record<string, unknown> }> = [];
    const off = w.gateway.events.subscribe('webview.*', (event) => seen.push({ channel: event.channel, data: event.data as Record<string, unknown> }));
    const consolePage = `${w.pages.url}/console?token=secret`;
    await w.call('webview_navigate', { url: consolePage });
    await w.call('webview_navigate', { url: `${w.pages.url}/dialog` });
    await waitFor(() => seen.some((e) => e.channel === 'webview.dialog') && seen.some((e) => e.data.type === 'pageerror'), 20_000);
    off();
    const keys = (channel: string) => [...new Set(seen.filter((e) => e.channel === channel).map((e) => Object.keys(e.data).sort().join(',')))];
    assert.deepEqual(keys('webview.console'), ['owner,session,tab,time,type']);
    assert.deepEqual(keys('webview.dialog'), ['owner,session,tab,time,type']);
    assert.deepEqual(keys('webview.navigated'), ['origin,owner,session,tab,time']);
    const navigated = seen.find((e) => e.channel === 'webview.navigated' && e.data.origin === w.pages.url);
    assert.deepEqual([navigated?.data.session, navigated?.data.owner], ['default', 'mcp']);
    assert.ok(!JSON.stringify(seen).includes('secret'));
  });
});
