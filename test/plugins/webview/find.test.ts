import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noChromium, webviewGateway } from './webview-helpers.js';

describe('webview: waiting and querying', { skip: noChromium }, async () => {
  const w = await webviewGateway();

  it('waits for an element to appear and another to go, then for a text', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/later` });
    const appeared = await w.call('webview_wait', { selector: '#late', timeoutMs: 10_000 });
    assert.equal(appeared.waitedFor, 'selector #late visible');
    assert.ok(Number.isInteger(appeared.waitedMs) && appeared.waitedMs >= 0);
    assert.equal(appeared.title, 'Later');
    assert.equal((await w.call('webview_wait', { selector: '#going', state: 'detached', timeoutMs: 10_000 })).waitedFor, 'selector #going detached');
    assert.equal((await w.call('webview_wait', { text: 'arrived LATE', timeoutMs: 10_000 })).waitedFor, 'text "arrived LATE"');
  });

  it('waits for hidden and attached states of elements that are there already', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    await w.call('webview_wait', { selector: '#hidden', state: 'hidden', timeoutMs: 10_000 });
    await w.call('webview_wait', { selector: '#hidden', state: 'attached', timeoutMs: 10_000 });
    await w.call('webview_wait', { selector: '#nothing', state: 'hidden', timeoutMs: 10_000 });
  });

  it('pauses for timeMs', async () => {
    const paused = await w.call('webview_wait', { timeMs: 200 });
    assert.equal(paused.waitedFor, '200 ms');
    assert.ok(paused.waitedMs >= 199, `${paused.waitedMs}`);
  });

  it('says a wait that does not end in time is WEBVIEW_TIMEOUT, and refuses what is not one wait', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const never = await w.fail('webview_wait', { selector: '#never', timeoutMs: 300 });
    assert.equal(never.code, 'WEBVIEW_TIMEOUT');
    assert.match(never.message, /waiting for selector #never visible/);
    assert.equal((await w.fail('webview_wait', { text: 'No such words anywhere', timeoutMs: 300 })).code, 'WEBVIEW_TIMEOUT');
    assert.equal((await w.fail('webview_wait', { selector: '#hidden', timeoutMs: 300 })).code, 'WEBVIEW_TIMEOUT');
    assert.equal((await w.fail('webview_wait', { selector: 'li[', timeoutMs: 300 })).code, 'WEBVIEW_ELEMENT_INVALID');
    for (const args of [{}, { selector: 'li', text: 'One' }, { text: 'One', timeMs: 10 }]) {
      assert.equal((await w.fail('webview_wait', args)).code, 'INVALID_ARGUMENTS', JSON.stringify(args));
    }
    assert.equal((await w.fail('webview_wait', { timeMs: 30_001 })).code, 'INVALID_ARGUMENTS');
    // Playwright would read 0 as no timeout at all.
    assert.equal((await w.fail('webview_wait', { selector: '#never', timeoutMs: 0 })).code, 'INVALID_ARGUMENTS');
  });

  it('describes the first match: tag, text, attributes, box, visibility', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const first = await w.call('webview_query', { selector: 'li.item' });
    assert.equal(first.found, true);
    assert.equal(first.count, 3);
    assert.equal(first.title, 'List');
    assert.equal(first.elements.length, 1);
    const [one] = first.elements;
    assert.equal(one.tag, 'li');
    assert.equal(one.text, 'One');
    assert.deepEqual(one.attributes, { class: 'item', 'data-id': '1' });
    assert.equal(one.visible, true);
    assert.ok(one.box.width > 0 && one.box.height > 0);
  });

  it('describes every match with all, up to limit, and still counts them all', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const all = await w.call('webview_query', { selector: 'li.item', all: true });
    assert.deepEqual(all.elements.map((e: { text: string }) => e.text), ['One', 'Two', 'Three']);
    const capped = await w.call('webview_query', { selector: 'li.item', all: true, limit: 2 });
    assert.equal(capped.count, 3);
    assert.deepEqual(capped.elements.map((e: { attributes: Record<string, string> }) => e.attributes['data-id']), ['1', '2']);
  });

  it('answers a miss with found false, not an error', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const miss = await w.call('webview_query', { selector: '#not-here' });
    assert.deepEqual({ found: miss.found, count: miss.count, elements: miss.elements }, { found: false, count: 0, elements: [] });
  });

  it('gives a null box to what is not rendered, and tells visibility: hidden apart', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const [hidden] = (await w.call('webview_query', { selector: '#hidden' })).elements;
    assert.equal(hidden.box, null);
    assert.equal(hidden.visible, false);
    assert.equal(hidden.text, 'Secret');
    const [ghost] = (await w.call('webview_query', { selector: '#invisible' })).elements;
    assert.notEqual(ghost.box, null);
    assert.equal(ghost.visible, false);
  });

  it('caps the text and the attributes of an element', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/list` });
    const [long] = (await w.call('webview_query', { selector: '#long' })).elements;
    assert.equal(long.text, 'x'.repeat(2000));
    const [many] = (await w.call('webview_query', { selector: '#many' })).elements;
    assert.equal(Object.keys(many.attributes).length, 50);
    assert.equal(many.attributes.id, 'many');
  });

  it('says a selector that is not valid CSS is WEBVIEW_ELEMENT_INVALID', async () => {
    const invalid = await w.fail('webview_query', { selector: 'li[' });
    assert.equal(invalid.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(invalid.message, /not valid/);
  });
});
