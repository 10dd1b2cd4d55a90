// ctx.reportStatus: a plugin's own state in gateway_status and /health, where ok: false makes
// the gateway degraded, and a broken report shows as such without breaking either.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { createHttpApp } from '../../../core/http/http-server.js';
import { memoryClient, startGateway, tempDir, WITH_RELAY } from '../../helpers.js';

describe('ctx.reportStatus', async () => {
  const gateway = await startGateway(WITH_RELAY);
  const client = await memoryClient(gateway);
  const app = await createHttpApp(gateway);
  after(() => app.close());

  /** gateway_status called for real: the SDK client checks the result against the tool's outputSchema. */
  const statusTool = async () => {
    const result = await client.callTool({ name: 'gateway_status', arguments: {} });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    return result.structuredContent as { plugins: Array<{ name: string; status?: unknown }> };
  };
  const health = async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200);
    return res.json() as { status: string; plugins: Array<{ name: string; status?: unknown }> };
  };
  const statusOf = (answer: { plugins: Array<{ name: string; status?: unknown }> }, name: string) => answer.plugins.find((p) => p.name === name)!.status;
  const setState = async (state: Record<string, unknown>) => {
    const result = await client.callTool({ name: 'relay_set_state', arguments: state });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
  };

  it('shows the report as plugins[i].status in gateway_status and /health; a plugin that reports nothing has none', async () => {
    for (const answer of [await statusTool(), await health()]) {
      assert.deepEqual(statusOf(answer, 'relay'), { ok: true, detail: { upstreams: 1 } });
      assert.equal('status' in answer.plugins.find((p) => p.name === 'echo')!, false);
    }
    assert.equal((await health()).status, 'ok');
  });

  it('makes /health degraded while the report says ok: false, and ok again after', async () => {
    await setState({ ok: false, detail: { upstreams: { fs: 'down', web: 'up' } } });
    assert.equal((await health()).status, 'degraded');
    assert.deepEqual(statusOf(await statusTool(), 'relay'), { ok: false, detail: { upstreams: { fs: 'down', web: 'up' } } });
    await setState({ ok: true });
    assert.equal((await health()).status, 'ok');
    assert.deepEqual(statusOf(await health(), 'relay'), { ok: true });
  });

  it('keeps gauges out of gateway_status and /health', async () => {
    await setState({ ok: true, detail: { upstreams: 2 }, gauges: [{ name: 'upstreams', help: 'Upstream servers.', value: 2 }] });
    for (const answer of [await statusTool(), await health()]) assert.deepEqual(statusOf(answer, 'relay'), { ok: true, detail: { upstreams: 2 } });
  });

  const broken: Array<[string, RegExp]> = [
    ['throws', /^The plugin's status report failed: the upstream table is being rebuilt$/],
    ['not-json', /^The plugin's status report failed: detail must be a JSON object$/],
  ];
  for (const [how, error] of broken) {
    it(`shows a report that ${how === 'throws' ? 'throws' : 'is not JSON'} as {ok: false, detail: {error}}, and /health still answers`, async () => {
      await setState({ ok: true, broken: how });
      const answer = await health();
      assert.equal(answer.status, 'degraded');
      const status = statusOf(answer, 'relay') as { ok: boolean; detail: { error: string } };
      assert.equal(status.ok, false);
      assert.match(status.detail.error, error);
      assert.deepEqual(statusOf(await statusTool(), 'relay'), status);
      await setState({ ok: true });
    });
  }
});

describe('ctx.reportStatus given something else than a function', () => {
  for (const [label, source] of [['an object', '{ ok: true }'], ['undefined', 'undefined']]) {
    it(`throws a TypeError for ${label}`, async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'registry'));
      writeFileSync(
        join(dir, 'wrong.mjs'),
        `export default { name: 'wrong', version: '1.0.0', description: 'reports wrongly',
          setup(ctx) {
            try { ctx.reportStatus(${source}); } catch (err) { globalThis.__reportError = err; }
          } };\n`,
      );
      writeFileSync(join(dir, 'registry', 'wrong.yaml'), stringify({ name: 'wrong', module: '../wrong.mjs' }));
      const gateway = await startGateway({ registries: [join(dir, 'registry')], plugins: { wrong: {} } }, dir);
      const err = (globalThis as { __reportError?: Error }).__reportError!;
      assert.ok(err instanceof TypeError);
      assert.equal(err.message, 'Plugin "wrong": ctx.reportStatus takes a function.');
      assert.equal('status' in gateway.status().plugins[0]!, false, 'nothing was recorded');
    });
  }
});
