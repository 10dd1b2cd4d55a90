import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { listenHttp } from '../../core/http/http-server.js';
import { startGateway } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run); on a developer machine without it the test says so.
const skip = !existsSync(CHROMIUM) && !process.env.CI ? `no ${CHROMIUM} (apt-get install chromium)` : false;

describe('the OpenAPI explorer at /docs, in headless Chromium', { skip }, async () => {
  // The shipped plugins, whose tools carry input examples, beside the echo fixture.
  const gateway = await startGateway({
    plugins: { echo: {}, files: {}, process: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
  });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  const base = `http://127.0.0.1:${listener.address.port}`;

  it('lists every tool operation, with every asset served by the gateway itself', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${base}/docs/`);
      await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
      const paths = await page.locator('.opblock-summary-path').allInnerTexts();
      for (const tool of gateway.catalog.list()) {
        assert.ok(paths.some((p) => p.replace(/\u200b/g, '').trim() === `/tools/${tool.listing.name}`), `${tool.listing.name} in ${paths.join(', ')}`);
      }
      const foreign = requested.filter((url) => !url.startsWith(base) && !url.startsWith('data:'));
      assert.deepEqual(foreign, [], 'no CDN or other outside request');

      // "Try it out" really calls the REST bridge.
      const operation = page.locator('#operations-gateway-gateway_status');
      await operation.locator('.opblock-summary').click();
      await operation.locator('button.try-out__btn').click();
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      assert.equal((await status.innerText()).trim(), '200');
      assert.match(await operation.locator('.live-responses-table tbody .response-col_description').first().innerText(), new RegExp(`"toolCount": ${gateway.catalog.size}`));

      // The request body starts as the tool's first example, not one generated from the schema
      // (process_output has two: the first is chosen); for a tool that destroys, one that names
      // nothing that can exist (process_kill: proc-0; explorer-examples.test.ts sends them all).
      for (const name of ['file_read', 'process_output', 'process_kill']) {
        const tool = gateway.catalog.get(name)!;
        const [example] = tool.definition.inputSchema.examples as unknown[];
        const op = page.locator(`#operations-${tool.plugin}-${name}`);
        await op.locator('.opblock-summary').click();
        await op.locator('button.try-out__btn').click();
        const body = op.locator('textarea.body-param__text');
        await body.waitFor({ timeout: 15_000 });
        assert.deepEqual(JSON.parse(await body.inputValue()), example, name);
      }
    } finally {
      await browser.close();
    }
  });
});
