// Runs the official MCP conformance suite against the gateway's /mcp, served with the
// conformance fixture plugin (test/fixtures/conformance-plugin: the tools, resources and
// prompts the suite calls by name), and holds the result to test/conformance/expected-failures.txt.
// A scenario fails when any of its checks is a FAILURE or a WARNING (as the suite's own
// baseline mode counts them); one that fails and is not listed, or is listed and passes,
// fails this script. The suite's own output goes to a file; only a short verdict is printed.
//
//   node scripts/conformance.js                      the active suite (what CI runs)
//   node scripts/conformance.js --scenario <name>    one scenario, e.g. a pending one
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveGateway } from './serve-gateway.js';

const SUITE = '@modelcontextprotocol/conformance@0.1.13';
const FIXTURE_REGISTRY = resolve('test/fixtures/conformance-plugin/registry');

const { values } = parseArgs({ options: { scenario: { type: 'string' } } });

const expected = new Set(
  readFileSync('test/conformance/expected-failures.txt', 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean),
);

// auth: none (loopback): the suite has no way to send an API key.
const config = `auth: none\nregistries:\n  - ${JSON.stringify(FIXTURE_REGISTRY)}\nplugins:\n  conformance: {}\n`;
const { port, dir, stop } = await serveGateway('conformance', config);
try {
  const log = join(dir, 'conformance.log');
  const output = join(dir, 'results');
  const only = values.scenario ? ['--scenario', values.scenario] : [];
  const run = spawnSync('npx', ['-y', SUITE, 'server', '--url', `http://127.0.0.1:${port}/mcp`, ...only, '-o', output], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  writeFileSync(log, `${run.stdout}\n${run.stderr}`);
  const results = readResults(output);
  if (results.length === 0) throw new Error(`the conformance suite produced no results; see ${log}`);

  const failing = results.filter((r) => r.failures + r.warnings > 0);
  const passed = results.filter((r) => r.failures + r.warnings === 0).map((r) => r.name);
  const unexpected = failing.filter((r) => !expected.has(r.name));
  const nowPassing = passed.filter((name) => expected.has(name));
  const say = (line) => process.stdout.write(`conformance: ${line}\n`);
  say(`${SUITE}, ${results.length} scenarios: ${passed.length} pass (${passed.join(', ')})`);
  for (const r of failing) say(`${r.name}: ${r.failures} failed, ${r.warnings} warnings: ${r.problems.join('; ')}${expected.has(r.name) ? ' (expected)' : ''}`);
  say(`full output in ${log}`);
  if (unexpected.length || nowPassing.length) {
    const why = [unexpected.length ? `unexpected failures: ${unexpected.map((r) => r.name).join(', ')}` : '', nowPassing.length ? `now passing, remove from test/conformance/expected-failures.txt: ${nowPassing.join(', ')}` : ''];
    process.stderr.write(`conformance: FAILED. ${why.filter(Boolean).join('; ')}\n`);
    process.exitCode = 1;
  }
} finally {
  stop();
}

/** Each scenario's checks, from the `server-<scenario>-<timestamp>/checks.json` files the suite writes. */
function readResults(output) {
  let folders;
  try {
    folders = readdirSync(output);
  } catch {
    return [];
  }
  return folders.map((folder) => {
    const name = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const checks = JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8'));
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    return {
      name,
      failures: bad.filter((c) => c.status === 'FAILURE').length,
      warnings: bad.filter((c) => c.status === 'WARNING').length,
      problems: bad.map((c) => `${c.status} ${c.name}: ${c.errorMessage ?? c.description}`),
    };
  });
}
