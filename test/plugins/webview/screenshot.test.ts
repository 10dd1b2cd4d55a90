import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { noChromium, refOf, webviewGateway, type WebviewSession } from './webview-helpers.js';

/** A screenshot as an MCP client gets it: the image block and the structured facts. */
async function shoot(w: WebviewSession, args: Record<string, unknown> = {}): Promise<{ image: { data: string; mimeType: string }; bytes: Buffer; facts: any }> {
  const result = await w.client.callTool({ name: 'webview_screenshot', arguments: args });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  const content = result.content as Array<{ type: string; data: string; mimeType: string }>;
  assert.equal(content.length, 1);
  assert.equal(content[0]!.type, 'image');
  return { image: content[0]!, bytes: Buffer.from(content[0]!.data, 'base64'), facts: result.structuredContent };
}

/** Width and height from the PNG's IHDR chunk, read here independently of the plugin. */
function pngSize(bytes: Buffer): [number, number] {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('webview: screenshots', { skip: noChromium }, async () => {
  const w = await webviewGateway({}, { transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } } });

  it('takes the viewport as PNG, 1280×720 by default: an image block, its facts structured, no base64 there', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example` });
    const { image, bytes, facts } = await shoot(w);
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(pngSize(bytes), [1280, 720]);
    assert.deepEqual(facts, { tab: 't1', url: `${w.pages.url}/example`, title: 'Example Domain', format: 'png', width: 1280, height: 720, bytes: bytes.length });
    // Chromium itself decodes it: the bytes are a whole, valid image.
    const decoded = await w.call('webview_eval', {
      script: `new Promise((resolve, reject) => { const img = new Image(); img.onload = () => resolve([img.naturalWidth, img.naturalHeight]); img.onerror = reject; img.src = 'data:image/png;base64,${image.data}'; })`,
    });
    assert.deepEqual(decoded.result, [1280, 720]);
  });

  it('takes the whole of a page taller than the viewport with fullPage', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/long` });
    const { bytes, facts } = await shoot(w, { fullPage: true });
    const [width, height] = pngSize(bytes);
    assert.equal(width, 1280);
    assert.ok(height > 3000, `height ${height}`);
    assert.deepEqual([facts.width, facts.height], [width, height]);
  });

  it('takes JPEG at the quality asked for', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/long` });
    const { image, bytes, facts } = await shoot(w, { format: 'jpeg', quality: 30 });
    assert.equal(image.mimeType, 'image/jpeg');
    assert.deepEqual([bytes[0], bytes[1], bytes.at(-2), bytes.at(-1)], [0xff, 0xd8, 0xff, 0xd9], 'JPEG start and end markers');
    assert.deepEqual([facts.format, facts.width, facts.height, facts.bytes], ['jpeg', 1280, 720, bytes.length]);
    const better = await shoot(w, { format: 'jpeg', quality: 100 });
    assert.ok(better.bytes.length > bytes.length, 'a higher quality is a bigger file');
  });

  it('takes one element, by selector or by ref, at its own size', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example` });
    const box = (await w.call('webview_eval', { script: "(() => { const r = document.querySelector('h1').getBoundingClientRect(); return [r.width, r.height]; })()" })).result;
    const bySelector = await shoot(w, { selector: 'h1' });
    const [width, height] = pngSize(bySelector.bytes);
    assert.ok(Math.abs(width - box[0]) <= 1 && Math.abs(height - box[1]) <= 1, `${width}×${height} for a box of ${box}`);
    const snapshot = (await w.call('webview_snapshot')).snapshot;
    const byRef = await shoot(w, { ref: refOf(snapshot, 'heading', 'Example Domain') });
    assert.deepEqual([byRef.facts.width, byRef.facts.height], [width, height]);
  });

  it('refuses what cannot be taken', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example` });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fullPage: true, selector: 'h1' }, 'INVALID_ARGUMENTS'],
      [{ quality: 50 }, 'INVALID_ARGUMENTS'],
      [{ ref: 'e1', selector: 'h1' }, 'INVALID_ARGUMENTS'],
      [{ format: 'gif' }, 'INVALID_ARGUMENTS'],
      [{ selector: '#nothing-here', timeoutMs: 300 }, 'WEBVIEW_ELEMENT_NOT_FOUND'],
      // 0 is Playwright's "no timeout": the plugin never passes it on, so this still ends.
      [{ selector: '#nothing-here', timeoutMs: 1 }, 'WEBVIEW_ELEMENT_NOT_FOUND'],
      [{ tab: 't99' }, 'WEBVIEW_TAB_NOT_FOUND'],
    ];
    for (const [args, code] of cases) assert.equal((await w.fail('webview_screenshot', args)).code, code, JSON.stringify(args));
  });

  it('answers REST callers with the image as base64 data beside the same facts', async () => {
    const app = await createHttpApp(w.gateway);
    after(() => app.close());
    const post = async (tool: string, payload: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: `/tools/${tool}`, payload });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    await post('webview_navigate', { url: `${w.pages.url}/example`, session: 'rest' });
    const answer = await post('webview_screenshot', { session: 'rest' });
    const bytes = Buffer.from(answer.data, 'base64');
    assert.deepEqual(pngSize(bytes), [1280, 720]);
    assert.deepEqual({ ...answer, data: undefined }, { tab: 't1', url: `${w.pages.url}/example`, title: 'Example Domain', format: 'png', width: 1280, height: 720, bytes: bytes.length, data: undefined });
  });

  it('answers the CLI the same way (it prints only the structured part)', async () => {
    const cli = { caller: { transport: 'cli', identity: 'cli' } } as const;
    const opened = await w.gateway.catalog.call('webview_navigate', { url: `${w.pages.url}/example`, session: 'cli' }, cli);
    assert.equal(opened.ok, true);
    const shot = await w.gateway.catalog.call('webview_screenshot', { session: 'cli', format: 'jpeg' }, cli);
    assert.ok(shot.ok);
    const answer = shot.value as any;
    assert.equal(answer.format, 'jpeg');
    assert.equal(Buffer.from(answer.data, 'base64').length, answer.bytes);
  });
});

describe('webview: screenshot size cap', { skip: noChromium }, async () => {
  const w = await webviewGateway({ limits: { screenshotBytes: 1024 } });

  it('answers WEBVIEW_SCREENSHOT_TOO_LARGE with the size and the limit', async () => {
    await w.call('webview_navigate', { url: `${w.pages.url}/example` });
    const failure = await w.fail('webview_screenshot');
    assert.equal(failure.code, 'WEBVIEW_SCREENSHOT_TOO_LARGE');
    assert.equal(failure.details.max, 1024);
    assert.ok(failure.details.bytes > 1024);
    assert.match(failure.message, /jpeg/);
  });
});
