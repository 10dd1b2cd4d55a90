import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noChromium, refOf, webviewGateway } from './webview-helpers.js';

describe('webview: navigate, snapshot, act on refs', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it('fills and submits a form through the refs of its snapshot', async () => {
    const opened = await w.call('webview_navigate', { url: `${w.pages.url}/form`, snapshot: true });
    assert.equal(opened.status, 200);
    assert.equal(opened.title, 'Form');
    assert.equal(opened.tab, 't1');
    assert.match(opened.snapshot, /textbox "Name"/);
    const snap = await w.call('webview_snapshot');
    await w.call('webview_click', { ref: refOf(snap.snapshot, 'textbox', 'Name') });
    const sent = await w.call('webview_click', { ref: refOf(snap.snapshot, 'button', 'Send'), snapshot: true });
    assert.equal(sent.tab, 't1');
    assert.match(sent.url, /\/done\?name=/);
  });

  it('says a stale ref and an unknown selector are not found, and refuses both or neither', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    assert.equal((await w.fail('webview_click', { ref: 'e999' })).code, 'WEBVIEW_ELEMENT_NOT_FOUND');
    assert.equal((await w.fail('webview_click', { selector: '#nothing-here', timeoutMs: 300 })).code, 'WEBVIEW_ELEMENT_NOT_FOUND');
    assert.equal((await w.fail('webview_click', {})).code, 'INVALID_ARGUMENTS');
    assert.equal((await w.fail('webview_click', { ref: 'e1', selector: 'a' })).code, 'INVALID_ARGUMENTS');
  });
});
