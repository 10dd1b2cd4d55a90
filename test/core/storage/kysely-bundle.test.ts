import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test("core and the shipped plugins import Kysely only through core/storage/kysely.ts, the file the build bundles", () => {
  const direct = [...sources(join(ROOT, 'core')), ...sources(join(ROOT, 'plugins'))]
    .filter((file) => !file.endsWith(join('core', 'storage', 'kysely.ts')))
    .filter((file) => /from ['"]kysely['"]/.test(readFileSync(file, 'utf8')))
    .map((file) => file.slice(ROOT.length + 1));
  assert.deepEqual(direct, [], 'these files would load Kysely module by module at start-up');
});

test('the built kysely.js is the bundle: it imports no module of the kysely package', () => {
  const built = readFileSync(join(ROOT, 'dist', 'core', 'storage', 'kysely.js'), 'utf8');
  // Asserted without printing the 500 kB file on failure.
  assert.ok(!/^(import|export)[^\n]*from\s*['"]kysely/m.test(built), 'dist/core/storage/kysely.js still imports the kysely package: run `npm run build`');
  assert.ok(/var Kysely = class|class Kysely\b/.test(built), 'dist/core/storage/kysely.js does not define Kysely');
});
