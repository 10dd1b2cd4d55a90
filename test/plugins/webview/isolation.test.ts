import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { waitFor } from '../../helpers.js';
import { noChromium, webviewGateway } from './webview-helpers.js';

const cookieOf = async (call: (name: string, args?: Record<string, unknown>) => Promise<any>, base: string, session?: string) => {
  await call('webview_navigate', { url: `${base}/cookie`, ...(session ? { session } : {}) });
  const snap = await call('webview_snapshot', session ? { session } : {});
  return /who=[\w-]+/.exec(snap.snapshot)?.[0] ?? '';
};

describe('webview: every client browses in a context of its own', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const bob = await w.session('bob-client');

  it('two MCP sessions at once keep their cookies apart', async () => {
    await Promise.all([
      w.call('webview_navigate', { url: `${w.pages.url}/set-cookie?who=alice` }),
      bob.call('webview_navigate', { url: `${w.pages.url}/set-cookie?who=bob` }),
    ]);
    const [alice, bobs] = await Promise.all([cookieOf(w.call, w.pages.url), cookieOf(bob.call, w.pages.url)]);
    assert.equal(alice, 'who=alice');
    assert.equal(bobs, 'who=bob');
  });

  it("a named session is another context of the same client; tabs are per context", async () => {
    assert.equal(await cookieOf(w.call, w.pages.url, 'second'), '');
    const first = await w.call('webview_snapshot');
    const second = await w.call('webview_snapshot', { session: 'second' });
    assert.equal(first.tab, 't1');
    assert.equal(second.tab, 't1');
    assert.equal(w.status().sessions, 3);
  });

  it("REST callers name their session: same name, same cookies; another name, none", async () => {
    const app = await createHttpApp(w.gateway);
    after(() => app.close());
    const post = async (tool: string, body: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: `/tools/${tool}`, payload: body });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    await post('webview_navigate', { url: `${w.pages.url}/set-cookie?who=ci-job`, session: 'job-1' });
    await post('webview_navigate', { url: `${w.pages.url}/cookie`, session: 'job-1' });
    assert.match((await post('webview_snapshot', { session: 'job-1' })).snapshot, /who=ci-job/);
    await post('webview_navigate', { url: `${w.pages.url}/cookie`, session: 'job-2' });
    assert.doesNotMatch((await post('webview_snapshot', { session: 'job-2' })).snapshot, /who=/);
    // Nor does the REST caller see an MCP session's default context.
    await post('webview_navigate', { url: `${w.pages.url}/cookie` });
    assert.doesNotMatch((await post('webview_snapshot', {})).snapshot, /who=/);
  });

  it("closes an MCP session's contexts when the session closes", async () => {
    const carol = await w.session('carol-client');
    await carol.call('webview_navigate', { url: `${w.pages.url}/form` });
    await carol.call('webview_navigate', { url: `${w.pages.url}/form`, session: 'other' });
    const before = w.status().sessions;
    await carol.client.close();
    await waitFor(() => w.status().sessions === before - 2);
  });
});

describe('webview limits and idle times', { skip: noChromium }, async () => {
  const w = await webviewGateway({ limits: { sessions: 1, sessionIdleMs: 1000 }, browserIdleMs: 1000 });

  it('refuses a browsing session beyond limits.sessions with WEBVIEW_LIMIT', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const other = await w.session('other-client');
    const error = await other.fail('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal(error.code, 'WEBVIEW_LIMIT');
    assert.deepEqual(error.details, { limit: 'sessions', max: 1 });
  });

  it('closes a session nobody uses, then the browser nobody needs; the next call starts both again', async () => {
    await waitFor(() => w.status().sessions === 0, 20_000);
    await waitFor(() => !w.status().browser.running, 20_000);
    const again = await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal(again.title, 'Form');
    assert.equal(w.status().browser.launches, 2);
    assert.equal(w.status().browser.crashes, 0);
  });
});
