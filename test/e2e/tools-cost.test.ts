import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { BIN, tempDir, testConfigObject, WITH_RELAY, writeConfig } from '../helpers.js';

function runCli(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function configWith(overrides: Record<string, unknown>): string {
  const dir = tempDir();
  return writeConfig(dir, testConfigObject(dir, overrides));
}

interface Cost {
  tools: Array<{ name: string; plugin: string; bytes: number; tokens: number }>;
  plugins: Array<{ plugin: string; tools: number; bytes: number; tokens: number }>;
  total: { tools: number; bytes: number; tokens: number };
}

describe('mcp-gateway tools --cost (the real binary)', () => {
  // The echo fixture (echo_image's description has a "×": bytes are UTF-8, not characters) and
  // the relay fixture's foreign tools.
  const config = configWith(WITH_RELAY);

  it('--json: each tool\'s bytes are those of its tools/list entry, summed per plugin and in all', () => {
    const run = runCli(['tools', '--cost', '--json', '--config', config]);
    assert.equal(run.code, 0, run.stderr);
    const cost = JSON.parse(run.stdout) as Cost;
    // `tools --json` prints each listing with its plugin (and origin) in front: the rest is the entry.
    const entries = JSON.parse(runCli(['tools', '--json', '--config', config]).stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(cost.tools.map((t) => t.name), entries.map((e) => e.name));
    for (const { plugin: _plugin, origin: _origin, ...listing } of entries) {
      const counted = cost.tools.find((t) => t.name === listing.name)!;
      assert.equal(counted.bytes, Buffer.byteLength(JSON.stringify(listing)), String(listing.name));
      assert.equal(counted.tokens, Math.round(counted.bytes / 4), String(listing.name));
    }
    const plugins = [...new Set(cost.tools.map((t) => t.plugin))];
    assert.deepEqual(cost.plugins.map((p) => p.plugin), plugins);
    for (const sum of cost.plugins) {
      const mine = cost.tools.filter((t) => t.plugin === sum.plugin);
      assert.equal(sum.tools, mine.length, sum.plugin);
      assert.equal(sum.bytes, mine.reduce((n, t) => n + t.bytes, 0), sum.plugin);
      assert.equal(sum.tokens, Math.round(sum.bytes / 4), sum.plugin);
    }
    const bytes = cost.tools.reduce((n, t) => n + t.bytes, 0);
    assert.deepEqual(cost.total, { tools: entries.length, bytes, tokens: Math.round(bytes / 4) });
  });

  it('prints a line per tool, per plugin and the total, with the same figures', () => {
    const cost = JSON.parse(runCli(['tools', '--cost', '--json', '--config', config]).stdout) as Cost;
    const run = runCli(['tools', '--cost', '--config', config]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    for (const tool of cost.tools) {
      assert.ok(lines.some((l) => new RegExp(`^${tool.name}\\s+${tool.plugin}\\s+${tool.bytes}\\s+${tool.tokens}$`).test(l)), `${tool.name} in\n${run.stdout}`);
    }
    for (const sum of cost.plugins) {
      assert.ok(lines.some((l) => new RegExp(`^${sum.plugin}\\s+${sum.tools}\\s+${sum.bytes}\\s+${sum.tokens}$`).test(l)), `${sum.plugin} in\n${run.stdout}`);
    }
    assert.ok(lines.some((l) => new RegExp(`^total\\s+${cost.total.tools}\\s+${cost.total.bytes}\\s+${cost.total.tokens}$`).test(l)), run.stdout);
  });

  it('counts what clients are sent: tools.listing: full costs more than the lean default', () => {
    const lean = JSON.parse(runCli(['tools', '--cost', '--json', '--config', config]).stdout) as Cost;
    const fullConfig = configWith({ ...WITH_RELAY, tools: { listing: 'full' } });
    const run = runCli(['tools', '--cost', '--json', '--config', fullConfig]);
    assert.equal(run.code, 0, run.stderr);
    const full = JSON.parse(run.stdout) as Cost;
    assert.equal(full.total.tools, lean.total.tools);
    assert.ok(full.total.bytes > lean.total.bytes, `full ${full.total.bytes} bytes, lean ${lean.total.bytes}`);
  });

  it('--profile counts only the tools that profile lists, and names the profiles for an unknown one', () => {
    const profiled = configWith({ ...WITH_RELAY, profiles: { small: { tools: ['echo'] } } });
    const run = runCli(['tools', '--cost', '--json', '--profile', 'small', '--config', profiled]);
    assert.equal(run.code, 0, run.stderr);
    const cost = JSON.parse(run.stdout) as Cost;
    assert.deepEqual(cost.tools.map((t) => t.name).sort(), ['echo', 'gateway_call_tool', 'gateway_find_tools']);
    const unknown = runCli(['tools', '--cost', '--profile', 'nope', '--config', profiled]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /PROFILE_NOT_FOUND: No profile is named "nope"\. The profiles are: all, small\./);
  });
});
