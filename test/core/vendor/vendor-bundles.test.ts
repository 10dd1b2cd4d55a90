import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { sources } from '../../support/module-references.js';
import { ROOT } from '../../support/repository.js';

const VENDOR = join(ROOT, 'core', 'vendor');
const PACKAGES = readdirSync(VENDOR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -'.ts'.length));

test('core/vendor names the bundled packages (kysely, yaml)', () => {
  assert.deepEqual(PACKAGES.sort(), ['kysely', 'yaml']);
});

test('core and the shipped plugins import a vendored package only through core/vendor', () => {
  const files = [...sources(join(ROOT, 'core')), ...sources(join(ROOT, 'plugins'))].filter((file) => file.endsWith('.ts') && !file.startsWith(VENDOR));
  for (const name of PACKAGES) {
    const importing = new RegExp(`from ['"]${name}['"]`);
    const direct = files.filter((file) => importing.test(readFileSync(file, 'utf8'))).map((file) => file.slice(ROOT.length + 1));
    assert.deepEqual(direct, [], `these files would load ${name} module by module at start-up: import core/vendor/${name}.js`);
  }
});

test('each built core/vendor file is a bundle: it imports nothing of its package', () => {
  for (const name of PACKAGES) {
    const built = readFileSync(join(ROOT, 'core', 'dist', 'vendor', `${name}.js`), 'utf8');
    // Asserted without printing the bundle on failure.
    const stillImports = new RegExp(`^(import|export)[^\\n]*from\\s*['"]${name}['"/]`, 'm');
    assert.ok(!stillImports.test(built), `core/dist/vendor/${name}.js still imports the ${name} package: run \`npm run build\``);
    assert.ok(built.length > 100_000, `core/dist/vendor/${name}.js is not a bundle (${built.length} bytes)`);
  }
});

test("Kysely's deprecation notices go to stderr, never into a --stdio gateway's stdout", () => {
  const kysely = pathToFileURL(join(ROOT, 'core', 'dist', 'vendor', 'kysely.js')).href;
  const script = `
    import { Kysely, DummyDriver, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from ${JSON.stringify(kysely)};
    const db = new Kysely({ dialect: {
      createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler(),
    } });
    db.selectFrom('notes').selectAll().orderBy('created_at desc').compile();`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /`orderBy\('column asc'\)` is deprecated/);
});
