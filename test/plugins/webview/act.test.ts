import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noChromium, refOf, webviewGateway } from './webview-helpers.js';

describe('webview: typing, keys and options', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const snapshotLine = async (label: string) => (await w.call('webview_snapshot')).snapshot.split('\n').find((line: string) => line.includes(`"${label}"`)) ?? '';

  it('fills a field, appends to it, and submits the form with Enter', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const snap = await w.call('webview_snapshot');
    const name = refOf(snap.snapshot, 'textbox', 'Name');
    await w.call('webview_type', { ref: name, text: 'Ada' });
    await w.call('webview_type', { ref: name, text: 'XYZ' });
    await w.call('webview_type', { ref: name, text: ' Lovelace', clear: false });
    const sent = await w.call('webview_type', { selector: 'input[name=name]', text: '!', clear: false, submit: true });
    assert.match(sent.url, /\/done\?name=XYZ\+Lovelace%21&fruit=a$/);
    assert.equal(sent.title, 'Done');
  });

  it('types slowly key by key, firing key events that filling does not', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    await w.call('webview_type', { selector: '#keys', text: 'quiet' });
    assert.equal((await w.call('webview_query', { selector: '#log' })).elements[0].text, '');
    // Clearing first is a user's select-all and Delete.
    await w.call('webview_type', { selector: '#keys', text: 'ab', slowly: true });
    assert.equal((await w.call('webview_query', { selector: '#log' })).elements[0].text, '[Delete][a][b]');
    assert.match(await snapshotLine('Keys'), /: ab$/);
    await w.call('webview_type', { selector: '#keys', text: 'c', slowly: true, clear: false });
    assert.match(await snapshotLine('Keys'), /: abc$/);
  });

  it('appends at the very end of a textarea, an email input and an editable element', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    await w.call('webview_type', { selector: '#notes', text: '\nline two', clear: false });
    await w.call('webview_type', { selector: '#email', text: '.org', clear: false });
    await w.call('webview_type', { selector: '#editor', text: ', world', clear: false, slowly: true });
    const snapshot = (await w.call('webview_snapshot')).snapshot;
    assert.match(snapshot, /line one\s+line two/);
    assert.match(snapshot, /textbox "Email"[^\n]*: me@example\.org/);
    assert.match((await w.call('webview_query', { selector: '#editor' })).elements[0].text, /^Hello, world$/);
  });

  it('fills a date as a whole value, and refuses to type a date key by key', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    await w.call('webview_type', { selector: '#when', text: '2024-02-29' });
    assert.match(await snapshotLine('When'), /2024-02-29|02\/29\/2024/);
    const slow = await w.fail('webview_type', { selector: '#when', text: '2024-03-01', slowly: true });
    assert.equal(slow.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(slow.message, /whole value/);
  });

  it('refuses to type into what takes no text: a button, a checkbox, a select, a read-only or disabled field', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    const cases: Array<[string, RegExp]> = [
      ['#agree', /<input type="checkbox"> that takes no text/],
      ['#toppings', /<select> that takes no text: choose its option with webview_select_option/],
      ['#locked', /is read-only/],
      ['#off', /is disabled/],
      ['h1', /<h1> that takes no text/],
    ];
    for (const [selector, message] of cases) {
      const failure = await w.fail('webview_type', { selector, text: 'x' });
      assert.equal(failure.code, 'WEBVIEW_ELEMENT_INVALID', selector);
      assert.match(failure.message, message, selector);
    }
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const snap = await w.call('webview_snapshot');
    assert.equal((await w.fail('webview_type', { ref: refOf(snap.snapshot, 'button', 'Send'), text: 'x' })).code, 'WEBVIEW_ELEMENT_INVALID');
    assert.equal((await w.fail('webview_type', { selector: '#missing', text: 'x', timeoutMs: 300 })).code, 'WEBVIEW_ELEMENT_NOT_FOUND');
    assert.equal((await w.fail('webview_type', { text: 'x' })).code, 'INVALID_ARGUMENTS');
  });

  it('presses keys in an element, in whatever has the focus, and submits with Enter', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    await w.call('webview_press_key', { selector: '#keys', key: 'ArrowDown' });
    await w.call('webview_press_key', { key: 'Shift+A' });
    await w.call('webview_press_key', { key: 'Escape' });
    assert.equal((await w.call('webview_query', { selector: '#log' })).elements[0].text, '[ArrowDown][Shift][A][Escape]');
    await w.call('webview_press_key', { key: 'Control+A' });
    await w.call('webview_press_key', { key: 'Backspace' });
    assert.doesNotMatch(await snapshotLine('Keys'), /:/);

    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    await w.call('webview_type', { selector: 'input[name=name]', text: 'Grace' });
    const sent = await w.call('webview_press_key', { key: 'Enter', snapshot: true });
    assert.match(sent.url, /\/done\?name=Grace/);
    assert.match(sent.snapshot, /Thanks, Grace/);
  });

  it('refuses key names Playwright does not know before acting', async () => {
    for (const key of ['Foo', 'Control+Foo', 'é', 'Enter Enter', 'Ctrl+A']) {
      assert.equal((await w.fail('webview_press_key', { key })).code, 'INVALID_ARGUMENTS', key);
    }
    for (const key of ['F12', 'NumpadEnter', 'ControlOrMeta+Shift+KeyZ', '+', 'Shift++', 'PageDown', 'Digit7']) {
      await w.call('webview_press_key', { key });
    }
  });

  it('chooses an option by value and by label, and reads back what is chosen', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const byValue = await w.call('webview_select_option', { selector: 'select[name=fruit]', values: ['b'] });
    assert.deepEqual(byValue.selected, [{ value: 'b', label: 'Banana' }]);
    const snap = await w.call('webview_snapshot');
    const byLabel = await w.call('webview_select_option', { ref: refOf(snap.snapshot, 'combobox', 'Fruit'), values: ['Cherry'] });
    assert.deepEqual(byLabel.selected, [{ value: 'c', label: 'Cherry' }]);
    await w.call('webview_type', { selector: 'input[name=name]', text: 'Ada', submit: true });
    assert.equal((await w.call('webview_query', { selector: '#fruit' })).elements[0].text, 'c');
  });

  it('chooses several options of a multiple select, unchoosing the others', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    assert.deepEqual((await w.call('webview_select_option', { selector: '#toppings', values: ['Cheese', 'ol'] })).selected, [
      { value: 'ch', label: 'Cheese' },
      { value: 'ol', label: 'Olives' },
    ]);
    assert.deepEqual((await w.call('webview_select_option', { selector: '#toppings', values: ['ol'] })).selected, [{ value: 'ol', label: 'Olives' }]);
  });

  it('names the options it has when asked for one it does not, and refuses what is not a select', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/form` });
    const missing = await w.fail('webview_select_option', { selector: 'select[name=fruit]', values: ['Durian'] });
    assert.equal(missing.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(missing.message, /no option with the value or label "Durian"/);
    assert.match(missing.message, /"a" \(Apple\), "b" \(Banana\), "c" \(Cherry\)/);
    assert.deepEqual(missing.details.options.map((o: { label: string }) => o.label), ['Apple', 'Banana', 'Cherry']);

    const notSelect = await w.fail('webview_select_option', { selector: 'input[name=name]', values: ['a'] });
    assert.equal(notSelect.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(notSelect.message, /is an <input>, not a <select>/);

    const several = await w.fail('webview_select_option', { selector: 'select[name=fruit]', values: ['a', 'b'] });
    assert.equal(several.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(several.message, /takes one option/);

    await w.call('webview_navigate', { url: `${w.pages.url}/fields` });
    const disabled = await w.fail('webview_select_option', { selector: '#toppings', values: ['Mushrooms'] });
    assert.equal(disabled.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(disabled.message, /"Mushrooms" is disabled/);
    const disabledSelect = await w.fail('webview_select_option', { selector: '#size', values: ['Small'] });
    assert.equal(disabledSelect.code, 'WEBVIEW_ELEMENT_INVALID');
    assert.match(disabledSelect.message, /is disabled/);
  });
});

describe('webview: the examples of the acting and finding tools', { skip: noChromium }, async () => {
  const w = await webviewGateway();
  const TOOLS = ['webview_type', 'webview_press_key', 'webview_select_option', 'webview_wait', 'webview_query', 'webview_tabs'];

  it('run on the example.com look-alike, as the explorer would run them on example.com', async () => {
    const lookAlike = `${w.pages.url}/example`;
    await w.call('webview_navigate', { url: lookAlike });
    for (const name of TOOLS) {
      // From the definition, as the explorer has them: tools/list leaves input examples out (lean listing).
      const examples = w.gateway.catalog.get(name)!.definition.inputSchema.examples as Array<Record<string, unknown>>;
      assert.ok(examples.length > 0, name);
      for (const example of examples) {
        // Each example starts on the look-alike in the selected tab t1 (webview_tabs new selects another).
        await w.call('webview_tabs', { action: 'select', tab: 't1' });
        await w.call('webview_navigate', { url: lookAlike });
        if (example.url !== undefined) assert.equal(example.url, 'https://example.com/', name);
        await w.call(name, example.url === undefined ? example : { ...example, url: lookAlike });
      }
    }
  });
});
