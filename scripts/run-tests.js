// Runs every test file under test/ with node:test through tsx. Node 20 does not expand
// globs itself and `node --test` alone finds no .ts file, so the list is built here and
// an empty list is an error rather than a silent pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
// The gateways the tests start cache their --stdio catalogs here, not in the user's ~/.cache
// (clients that pass only a few variables, as the SDK's stdio client does, still use that).
const cacheDir = mkdtempSync(join(tmpdir(), 'mcpgw-test-cache-'));
// --test-force-exit: a test file whose tests have all finished ends even if something it
// started still holds its event loop (a cleanup hook that failed before the one that closes
// a gateway). Without it that file waits forever, and so does the run; its failure is still
// reported. --test-timeout: a test that hangs fails after five minutes (the slowest suite
// takes under 30 s) instead of holding the run until CI gives up on it.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-force-exit', '--test-timeout=300000', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, MCP_GATEWAY_CACHE_DIR: cacheDir } },
);
rmSync(cacheDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
