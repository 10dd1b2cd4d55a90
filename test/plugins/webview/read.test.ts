import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freePort } from '../../helpers.js';
import { noChromium, webviewGateway, type WebviewSession } from './webview-helpers.js';

/** Calls `name` until its answer satisfies `done` (pages log and request on their own time); generous, never a timing assertion. */
async function until(w: WebviewSession, name: string, args: Record<string, unknown>, done: (answer: any) => boolean, ms = 20_000): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const answer = await w.call(name, args);
    if (done(answer)) return answer;
    if (Date.now() > end) throw new Error(`${name} never gave what the test waits for: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const hasType = (type: string) => (answer: any) => answer.messages.some((m: any) => m.type === type);

describe('webview: console and network', { skip: noChromium }, async () => {
  // One client, a browsing session per test: more than limits.sessionsPerClient's default of 4.
  const w = await webviewGateway({ limits: { sessionsPerClient: 8 } });

  it('reads what the /console page logged: log, warning, error with its source, and the uncaught exception', async () => {
    const session = 'console';
    const page = `${w.pages.url}/console`;
    await w.call('webview_navigate', { url: page, session });
    const read = await until(w, 'webview_console', { session }, hasType('pageerror'));
    // Chromium may add its own line (the favicon's 404): look the page's up by text.
    const said = (text: string) => read.messages.find((m: any) => m.text === text);
    assert.equal(said('hello from the page').type, 'log');
    assert.equal(said('careful').type, 'warning');
    const error = said('something broke');
    assert.equal(error.type, 'error');
    assert.equal(error.url, page);
    assert.equal(typeof error.line, 'number');
    assert.equal(typeof error.column, 'number');
    assert.equal(said('Error: uncaught boom').type, 'pageerror');
    for (const message of read.messages) {
      assert.equal(message.tab, 't1');
      assert.ok(!Number.isNaN(Date.parse(message.time)), message.time);
    }
    assert.equal(read.count, read.messages.length);
    assert.equal(read.dropped, 0);
  });

  it('filters by types, tab and limit, and clear empties the record after the read', async () => {
    const session = 'console-filters';
    await w.call('webview_navigate', { url: `${w.pages.url}/console`, session });
    await until(w, 'webview_console', { session }, hasType('pageerror'));
    const loud = await w.call('webview_console', { session, types: ['error', 'pageerror'] });
    assert.ok(loud.messages.every((m: any) => m.type === 'error' || m.type === 'pageerror'));
    assert.ok(loud.messages.some((m: any) => m.text === 'something broke') && loud.messages.some((m: any) => m.type === 'pageerror'));
    const all = await w.call('webview_console', { session });
    const last = await w.call('webview_console', { session, limit: 1 });
    assert.equal(last.count, 1);
    assert.deepEqual(last.messages, all.messages.slice(-1));
    assert.equal((await w.call('webview_console', { session, tab: 't9' })).count, 0);
    const cleared = await w.call('webview_console', { session, types: ['log'], clear: true });
    assert.equal(cleared.count, 1, 'the read that clears still answers what matched');
    assert.deepEqual(await w.call('webview_console', { session }), { messages: [], count: 0, dropped: 0 });
  });

  it('answers empty lists for a session that has no pages, without opening one', async () => {
    const sessions = async () => (await w.call('gateway_status')).plugins.find((p: any) => p.name === 'webview').status.detail.sessions;
    const before = await sessions();
    assert.deepEqual(await w.call('webview_console', { session: 'never-used' }), { messages: [], count: 0, dropped: 0 });
    assert.deepEqual(await w.call('webview_network', { session: 'never-used' }), { requests: [], count: 0, dropped: 0 });
    assert.equal(await sessions(), before);
  });

  it('lists requests with their status: a 404 and a request that got no answer, by failedOnly and urlContains', async () => {
    const session = 'network';
    const closed = await freePort();
    const page = `${w.pages.url}/requests?port=${closed}`;
    await w.call('webview_navigate', { url: page, session });
    const done = (answer: any) => answer.requests.some((r: any) => r.failure !== null) && answer.requests.some((r: any) => r.status === 404);
    const all = await until(w, 'webview_network', { session }, done);
    const document = all.requests.find((r: any) => r.url === page);
    assert.deepEqual({ ...document, time: undefined }, { tab: 't1', method: 'GET', url: page, resourceType: 'document', status: 200, failure: null, time: undefined });
    const image = all.requests.find((r: any) => r.url.endsWith('/missing.png'));
    assert.equal(image.status, 404);
    assert.equal(image.resourceType, 'image');
    const fetched = all.requests.find((r: any) => r.url.includes(`:${closed}/`));
    assert.equal(fetched.status, null);
    assert.match(fetched.failure, /ERR_CONNECTION_REFUSED/);
    assert.equal(fetched.resourceType, 'fetch');

    const failed = await w.call('webview_network', { session, failedOnly: true });
    assert.deepEqual(failed.requests.map((r: any) => r.url).sort(), [fetched.url, image.url].sort());
    const missing = await w.call('webview_network', { session, urlContains: 'missing.png' });
    assert.equal(missing.count, 1);
    assert.equal((await w.call('webview_network', { session, tab: 't2' })).count, 0);
    assert.equal((await w.call('webview_network', { session, limit: 1 })).count, 1);
    await w.call('webview_network', { session, clear: true });
    assert.equal((await w.call('webview_network', { session })).count, 0);
  });

  it('records a page that answers 404 as a failed document request', async () => {
    const session = 'network-404';
    const opened = await w.call('webview_navigate', { url: `${w.pages.url}/no-such-page`, session });
    assert.equal(opened.status, 404);
    const failed = await w.call('webview_network', { session, failedOnly: true });
    assert.equal(failed.count, 1);
    assert.equal(failed.requests[0].resourceType, 'document');
    assert.equal(failed.requests[0].status, 404);
  });

  it('reports a dialog in the next answer and in the console', async () => {
    const session = 'dialogs';
    const opened = await w.call('webview_navigate', { url: `${w.pages.url}/dialog`, session });
    assert.deepEqual(opened.dialogs?.map((d: any) => [d.tab, d.type, d.message]), [['t1', 'alert', 'Welcome!']]);
    const clicked = await w.call('webview_click', { selector: 'button', session });
    const answer = await w.call('webview_eval', { script: 'window.__answer', session });
    assert.equal(answer.result, false, 'the confirm was dismissed');
    const confirms = [...(clicked.dialogs ?? []), ...(answer.dialogs ?? [])];
    assert.deepEqual(confirms.map((d: any) => [d.type, d.message]), [['confirm', 'Delete everything?']]);
    assert.equal((await w.call('webview_snapshot', { session })).dialogs, undefined, 'each dialog is reported once');
    const logged = await w.call('webview_console', { session, types: ['dialog'] });
    assert.deepEqual(logged.messages.map((m: any) => m.text), ['alert: Welcome!', 'confirm: Delete everything?']);
  });
});

describe('webview: eval', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const session = 'eval';
  const run = (script: string, more: Record<string, unknown> = {}) => w.call('webview_eval', { script, session, ...more });

  it('runs an expression, statements, and a function (async too), on the page', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example`, session });
    const title = await run('document.title');
    assert.deepEqual({ ok: title.ok, result: title.result, truncated: title.truncated, tab: title.tab, title: title.title }, { ok: true, result: 'Example Domain', truncated: false, tab: 't1', title: 'Example Domain' });
    assert.equal((await run("const heading = document.querySelector('h1'); heading.textContent.toUpperCase()")).result, 'EXAMPLE DOMAIN');
    assert.equal((await run("const heading = 'again'; heading")).result, 'again', 'each script has a scope of its own');
    assert.equal((await run("() => document.querySelectorAll('a').length")).result, 1);
    assert.deepEqual((await run('async () => { await new Promise((r) => setTimeout(r, 10)); return { list: [1, "two", null], yes: true }; }')).result, { list: [1, 'two', null], yes: true });
    assert.equal((await run('Promise.resolve(42)')).result, 42);
  });

  it('answers what JSON cannot say as documented: undefined, DOM nodes, cycles, BigInt', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example`, session });
    assert.equal((await run('undefined')).result, null);
    assert.equal((await run("document.querySelector('h1')")).result, 'ref: <Node>');
    assert.deepEqual((await run('const a = { x: 1 }; a.self = a; a')).result, { x: 1, self: '[Circular]' });
    assert.equal((await run('12345678901234567890n')).result, '12345678901234567890');
    assert.deepEqual((await run('[undefined, () => 1, NaN]')).result, [null, null, null]);
    assert.deepEqual((await run('({ kept: 1, gone: undefined, when: new Date(0) })')).result, { kept: 1, when: '1970-01-01T00:00:00.000Z' });
  });

  it('answers a page error as ok: false, not as a failure', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example`, session });
    const thrown = await run('null.x');
    assert.equal(thrown.ok, false);
    assert.match(thrown.error, /^TypeError: /);
    assert.equal(thrown.result, undefined);
    assert.equal(thrown.tab, 't1');
    assert.equal((await run("() => Promise.reject(new Error('nope'))")).error, 'Error: nope');
    assert.match((await run('this is not javascript')).error, /^SyntaxError: /);
    assert.equal((await run("throw 'a string'")).error, 'a string');
  });

  it('cuts a result longer than limits.resultChars and says so', async () => {
    const long = await run("'x'.repeat(200000)");
    assert.equal(long.truncated, true);
    assert.equal(typeof long.result, 'string');
    assert.equal(long.result.length, 100_000);
    assert.ok(long.result.startsWith('"xxxx'), 'the cut JSON text');
  });

  it('stops a script that never ends by closing its tab (WEBVIEW_TIMEOUT); the next call works', async () => {
    const spin = 'eval-spin';
    await w.call('webview_navigate', { url: `${w.pages.url}/example`, session: spin });
    const failure = await w.fail('webview_eval', { script: 'while (true) {}', timeoutMs: 500, session: spin });
    assert.equal(failure.code, 'WEBVIEW_TIMEOUT');
    assert.match(failure.message, /tab t1 was closed/);
    assert.equal(failure.details.tab, 't1');
    assert.equal((await w.fail('webview_eval', { script: '1', tab: 't1', session: spin })).code, 'WEBVIEW_TAB_NOT_FOUND');
    const next = await w.call('webview_eval', { script: '1 + 1', session: spin });
    assert.deepEqual([next.ok, next.result, next.tab], [true, 2, 't2']);
    const elsewhere = await run('document.title');
    assert.equal(elsewhere.ok, true, 'other sessions are unaffected');
  });
});

describe('webview: eval switched off, small records', { skip: noChromium }, async () => {
  const w = await webviewGateway({ eval: { enabled: false }, limits: { consoleMessages: 2 } });

  it('answers WEBVIEW_EVAL_DISABLED', async () => {
    const failure = await w.fail('webview_eval', { script: 'document.title' });
    assert.equal(failure.code, 'WEBVIEW_EVAL_DISABLED');
    assert.match(failure.message, /eval\.enabled/);
  });

  it('counts the console messages pushed out of a full record as dropped', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/console` });
    const read = await until(w, 'webview_console', {}, hasType('pageerror'));
    // The page logs four lines (Chromium may add a fifth about the favicon): two are kept.
    assert.equal(read.count, 2);
    assert.ok(read.dropped >= 2, `dropped ${read.dropped}`);
  });
});
