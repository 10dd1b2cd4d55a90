// Lints the OpenAPI document the gateway serves with Redocly's recommended rules, twice: as
// served with `auth: none` and with keys (the default; security schemes switched on). Any error
// fails this script. Redocly's report goes to a file; only a short verdict is printed.
// Usage: node scripts/openapi-lint.js [--out DIR]   (run `npm run build` first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveGateway } from './serve-gateway.js';

// 2.x runs on Node 20.19+ (its engines field); pinned so a new rule does not break CI unannounced.
const REDOCLY = '@redocly/cli@2.77.0';

// Every shipped plugin (core/registry/<name>.yaml), so that every tool is in the document.
const plugins = readdirSync('core/registry').filter((f) => f.endsWith('.yaml')).map((f) => `  ${f.slice(0, -'.yaml'.length)}: {}\n`);
const outAt = process.argv.indexOf('--out');
const dir = outAt > 0 ? process.argv[outAt + 1] : mkdtempSync(join(tmpdir(), 'mcpgw-openapi-'));
// The test fixture `board` (test/fixtures/routes-plugin) adds plugin HTTP routes, which no
// shipped plugin has yet, so that their part of the document is linted too.
const boardRegistry = resolve('test', 'fixtures', 'routes-plugin', 'registry');
const variants = [
  { name: 'no-keys', config: 'auth: none\n' },
  { name: 'keys', config: '' },
  { name: 'plugin-routes', config: `registries:\n  - ${JSON.stringify(boardRegistry)}\n`, plugins: ['  board: {}\n'] },
];

let failed = false;
for (const variant of variants) {
  const document = await servedDocument(variant);
  const file = join(dir, `openapi-${variant.name}.json`);
  writeFileSync(file, document);
  const report = join(dir, `redocly-${variant.name}.log`);
  const run = spawnSync('npx', ['-y', REDOCLY, 'lint', '--extends', 'recommended', '--format', 'stylish', file], { encoding: 'utf8', timeout: 5 * 60_000 });
  writeFileSync(report, `${run.stdout}\n${run.stderr}`);
  const problems = `${run.stdout}\n${run.stderr}`;
  const errors = (problems.match(/ error /g) ?? []).length;
  const warnings = (problems.match(/ warning /g) ?? []).length;
  const ok = run.status === 0 && errors === 0;
  process.stdout.write(`openapi lint (${REDOCLY}, recommended, ${variant.name}): ${ok ? 'ok' : 'FAILED'}, ${errors} errors, ${warnings} warnings; report in ${report}\n`);
  if (!ok) failed = true;
}
if (failed) process.exitCode = 1;

/** Starts the built gateway with every shipped plugin and returns its /openapi.json. */
async function servedDocument(variant) {
  const { port, stop } = await serveGateway(`openapi-${variant.name}`, `plugins:\n${[...plugins, ...(variant.plugins ?? [])].join('')}${variant.config}`);
  try {
    return await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).text();
  } finally {
    stop();
  }
}
