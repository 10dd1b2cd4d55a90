// Runs every test file under test/ with node:test, compiled: `npm test` first builds the tests
// once into dist/test (tsconfig.test.json, which builds the gateway it references), so that no
// test process pays for a TypeScript loader. The list comes from the sources, not from
// dist/test, so that a test deleted or renamed is not run from a stale build; an empty list is
// an error rather than a silent pass (Node 20 does not expand globs, and `node --test` alone
// finds no .ts file).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  process.stderr.write('run-tests: no test files found\n');
  process.exit(1);
}
const compiled = files.map((file) => join('dist', file.replace(/\.ts$/, '.js')));
const missing = compiled.filter((file) => !existsSync(file));
if (missing.length > 0) {
  process.stderr.write(`run-tests: ${missing.length} test files are not built (${missing[0]}…): run \`npm run build:tests\` (npm test does it first)\n`);
  process.exit(1);
}
// The gateways the tests start cache their --stdio catalogs here, not in the user's ~/.cache
// (clients that pass only a few variables, as the SDK's stdio client does, still use that).
const cacheDir = mkdtempSync(join(tmpdir(), 'mcpgw-test-cache-'));
const postgres = await sharedPostgres();

// Not --test-force-exit: on Node 20 it ends a file as soon as the runner thinks every known
// test has finished, which a suite's `after` hook can make it think early; the suites after
// it are then left out, silently (a file of 102 tests reported 91 to 102 from run to run).
// A file that holds its event loop after its tests (a cleanup hook that failed before the one
// that closes a gateway) would then wait forever, and so would the run: the watchdog below
// stops a run that has printed nothing for longer than any test may take, and says so.
// --test-timeout: a test that hangs fails after five minutes (the slowest suite takes under
// 30 s).
const TEST_TIMEOUT_MS = 300_000;
const QUIET_LIMIT_MS = TEST_TIMEOUT_MS + 60_000;
const child = spawn(
  process.execPath,
  // --enable-source-maps: a failure's stack names the TypeScript line, not the compiled one.
  // --test-concurrency=2, one file per core. At 4 the suite took 460 s here against 490 s, but
  // starved processes enough for a 250 ms wall-clock bound on a validation (foreign-schema.ts)
  // to fire on a valid call (test/plugins/upstream/message-size.test.ts, once in CI).
  ['--enable-source-maps', '--test', `--test-timeout=${TEST_TIMEOUT_MS}`, '--test-concurrency=2', '--test-reporter=spec', ...compiled],
  // Its own process group, so that the watchdog stops the test files' processes with it.
  { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, MCP_GATEWAY_CACHE_DIR: cacheDir, ...postgres?.env } },
);
let lastOutput = Date.now();
child.stdout.on('data', (chunk) => ((lastOutput = Date.now()), process.stdout.write(chunk)));
child.stderr.on('data', (chunk) => ((lastOutput = Date.now()), process.stderr.write(chunk)));
let stalled = false;
const watchdog = setInterval(() => {
  if (Date.now() - lastOutput < QUIET_LIMIT_MS) return;
  stalled = true;
  process.stderr.write(`run-tests: nothing printed for ${QUIET_LIMIT_MS / 60_000} minutes: a test file holds its event loop after its tests (the last file above). Stopped.\n`);
  forward('SIGKILL');
}, 10_000);
// In a group of its own the run does not get the terminal's Ctrl-C: it is passed on.
const forward = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
child.on('close', async (code) => {
  clearInterval(watchdog);
  rmSync(cacheDir, { recursive: true, force: true });
  await postgres?.server.stop();
  // Not process.exit(): what is still on its way to a piped stdout would be cut.
  process.exitCode = stalled ? 1 : (code ?? 1);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(signal, forward);
});

/**
 * One PostgreSQL server for the whole run (test/support/postgres.ts): each file that needs
 * one makes databases of its own on it instead of an initdb and a server start of its own.
 * None where PostgreSQL is not installed, outside CI: those files skip, as they say. Under CI
 * a missing server fails the run here, at once.
 */
async function sharedPostgres() {
  const support = await import(pathToFileURL(resolve('dist/test/support/postgres.js')).href);
  if (support.postgresSkipReason) return undefined;
  const server = await support.startTestPostgres({ own: true });
  const shared = { port: server.port, user: server.user, password: server.password };
  return { server, env: { [support.SHARED_POSTGRES_ENV]: JSON.stringify(shared) } };
}
