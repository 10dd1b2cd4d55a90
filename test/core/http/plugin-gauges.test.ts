// The gauges of a plugin's report on /metrics: read at each scrape, named
// mcp_gateway_<plugin>_<name>, and a malformed entry is dropped with a warning, never a 500.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { stringify } from 'yaml';
import { createGateway } from '../../../core/gateway/gateway.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, memoryClient, RELAY_REGISTRY, tempDir, testConfig } from '../../helpers.js';

/** Plugins that report fixed gauges, by name: the source of the `gauges` list. */
function reporters(dir: string, plugins: Record<string, string>): string {
  const registry = join(dir, 'reporters');
  mkdirSync(registry);
  for (const [name, gauges] of Object.entries(plugins)) {
    writeFileSync(
      join(dir, `${name}.mjs`),
      `export default { name: '${name}', version: '1.0.0', description: 'reports gauges', setup(ctx) { ctx.reportStatus(() => ({ ok: true, gauges: ${gauges} })); } };\n`,
    );
    writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs` }));
  }
  return registry;
}

describe('plugin gauges on /metrics', async () => {
  const dir = tempDir();
  const lines: string[] = [];
  const log = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) }));
  const others = reporters(dir, {
    // mcp_gateway_breaker_state is core's.
    breaker: `[{ name: 'state', help: 'Not core\\'s.', value: 7 }]`,
    // Both are mcp_gateway_up_stream_count once "-" is "_": the first plugin loaded keeps it.
    'up-stream': `[{ name: 'count', help: 'Streams.', value: 1 }]`,
    up: `[{ name: 'stream_count', help: 'Streams too.', value: 2 }]`,
  });
  const config = testConfig(dir, { registries: [FIXTURE_REGISTRY, RELAY_REGISTRY, others], plugins: { echo: {}, relay: {}, breaker: {}, 'up-stream': {}, up: {} } });
  const gateway = await createGateway({ config, log });
  after(() => gateway.close());
  const client = await memoryClient(gateway);
  const app = await createHttpApp(gateway);
  after(() => app.close());

  const scrape = async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    return res.body;
  };
  /** The value of one sample line, e.g. `mcp_gateway_relay_tools` or `…{state="up"}`. */
  const sample = (body: string, series: string) => {
    const line = body.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const report = async (gauges: unknown) => {
    const result = await client.callTool({ name: 'relay_set_state', arguments: { ok: true, gauges } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
  };
  const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);

  it('serves each entry as a sample of mcp_gateway_<plugin>_<name>, with its help and labels', async () => {
    assert.doesNotMatch(await scrape(), /mcp_gateway_relay_/, 'nothing before the plugin reports gauges');
    await report([
      { name: 'upstreams', help: 'Upstream servers by state.', labels: { state: 'up' }, value: 2 },
      { name: 'upstreams', help: 'Upstream servers by state.', labels: { state: 'down' }, value: 1 },
      { name: 'tools', help: 'Tools relayed.', value: 14 },
    ]);
    const body = await scrape();
    assert.match(body, /^# HELP mcp_gateway_relay_upstreams Upstream servers by state\.\n# TYPE mcp_gateway_relay_upstreams gauge$/m);
    assert.equal(sample(body, 'mcp_gateway_relay_upstreams{state="up"}'), 2);
    assert.equal(sample(body, 'mcp_gateway_relay_upstreams{state="down"}'), 1);
    assert.match(body, /^# TYPE mcp_gateway_relay_tools gauge$/m);
    assert.equal(sample(body, 'mcp_gateway_relay_tools'), 14);
  });

  it('asks the report at each scrape: new values, new label sets, and names no longer reported gone', async () => {
    await report([{ name: 'upstreams', help: 'Upstream servers by state.', labels: { state: 'up' }, value: 3 }]);
    const body = await scrape();
    assert.equal(sample(body, 'mcp_gateway_relay_upstreams{state="up"}'), 3);
    assert.equal(sample(body, 'mcp_gateway_relay_upstreams{state="down"}'), undefined);
    assert.doesNotMatch(body, /mcp_gateway_relay_tools/);
    // Other label names for the same name: the family is made anew.
    await report([{ name: 'upstreams', help: 'Upstream servers by zone.', labels: { zone: 'eu' }, value: 5 }]);
    const again = await scrape();
    assert.equal(sample(again, 'mcp_gateway_relay_upstreams{zone="eu"}'), 5);
    assert.match(again, /^# HELP mcp_gateway_relay_upstreams Upstream servers by zone\.$/m);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['a name with capitals', { name: 'Upstreams', help: 'h', value: 1 }, /name must match/],
    ['a name of 65 characters', { name: 'x'.repeat(65), help: 'h', value: 1 }, /name must match/],
    ['no help', { name: 'bad', help: ' ', value: 1 }, /help must be a non-empty string/],
    ['a value that is a string', { name: 'bad', help: 'h', value: '1' }, /value must be a number/],
    ['a label that is not a string', { name: 'bad', help: 'h', labels: { state: 1 }, value: 1 }, /label "state" must be a string/],
    ['a label name Prometheus keeps for itself', { name: 'bad', help: 'h', labels: { __name__: 'x' }, value: 1 }, /label name "__name__" must match/],
    ['a label name with a dash', { name: 'bad', help: 'h', labels: { 'up-state': 'x' }, value: 1 }, /label name "up-state" must match/],
    ['labels that are a list', { name: 'bad', help: 'h', labels: ['x'], value: 1 }, /labels must be an object of strings/],
    ['an entry that is not an object', 'upstreams=2', /an entry must be/],
    ['other label names than the first entry of its name', { name: 'good', help: 'h', labels: { zone: 'eu' }, value: 1 }, /every entry named "good" must have the label names \[state\]/],
  ];
  for (const [label, entry, warning] of malformed) {
    it(`drops ${label} with a warning, and serves the rest`, async () => {
      lines.length = 0;
      await report([{ name: 'good', help: 'Served.', labels: { state: 'up' }, value: 1 }, entry]);
      const body = await scrape();
      assert.equal(sample(body, 'mcp_gateway_relay_good{state="up"}'), 1);
      assert.doesNotMatch(body, /mcp_gateway_relay_bad|mcp_gateway_relay_x{10}|zone="eu"/);
      const dropped = warnings().filter((w) => w.plugin === 'relay');
      assert.equal(dropped.length, 1, JSON.stringify(lines));
      assert.match(dropped[0].msg, /^a gauge the plugin reported was dropped: /);
      assert.match(dropped[0].msg, warning);
    });
  }

  it('drops gauges that are not a list, and a report that throws, and /metrics still answers', async () => {
    lines.length = 0;
    await report({ upstreams: 2 });
    assert.doesNotMatch(await scrape(), /mcp_gateway_relay_/);
    assert.match(warnings().find((w) => w.plugin === 'relay').msg, /gauges must be a list/);
    await report([{ name: 'tools', help: 'Tools relayed.', value: 14 }]);
    assert.equal(sample(await scrape(), 'mcp_gateway_relay_tools'), 14);
    const result = await client.callTool({ name: 'relay_set_state', arguments: { ok: true, broken: 'throws' } });
    assert.equal(result.isError, undefined);
    const body = await scrape();
    assert.doesNotMatch(body, /mcp_gateway_relay_/);
    assert.match(body, /mcp_gateway_sessions\{transport="memory"\} 1/, 'the rest of /metrics is served');
  });

  it("never takes another metric's name: core's, or another plugin's once '-' is '_'", async () => {
    const body = await scrape();
    assert.doesNotMatch(body, /Not core's/);
    assert.match(body, /^# HELP mcp_gateway_breaker_state Circuit breaker state/m);
    const first = gateway.plugins.loaded.findIndex((p) => p.name === 'up-stream') < gateway.plugins.loaded.findIndex((p) => p.name === 'up') ? 'up-stream' : 'up';
    assert.equal(sample(body, 'mcp_gateway_up_stream_count'), first === 'up-stream' ? 1 : 2);
    assert.equal(body.match(/^# TYPE mcp_gateway_up_stream_count gauge$/gm)?.length, 1);
    const taken = warnings().map((w) => `${w.plugin}: ${w.msg}`);
    assert.ok(taken.some((w) => /^breaker: .*mcp_gateway_breaker_state is the name of another metric/.test(w)), taken.join('\n'));
    assert.ok(taken.some((w) => new RegExp(`^${first === 'up' ? 'up-stream' : 'up'}: .*mcp_gateway_up_stream_count is the name of a gauge of plugin "${first}"`).test(w)), taken.join('\n'));
  });
});
