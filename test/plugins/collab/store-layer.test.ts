import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { sources } from '../../support/module-references.js';
import { ROOT } from '../../support/repository.js';

// plugins/collab/README.md, "Where SQL lives": collab's store layer (plugins/collab/store/) alone
// speaks SQL. Rules, services and tools call its named functions, so a change of a table or a
// port to another store is a change of store/ only. A query builder call or a raw sql`` tag
// anywhere else in collab fails here, with the file and line to move it from.

const COLLAB = join(ROOT, 'plugins', 'collab');
const STORE = join(COLLAB, 'store');
/** Kysely's query builders, and the raw `sql` template tag. */
const SQL = /\b(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto)\(|\bsql`/;

/** Every line of collab's TypeScript sources that speaks SQL, as `path:line: text`. */
function sqlLines(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, index) => (SQL.test(text) ? [`${relative(ROOT, file).split(sep).join('/')}:${index + 1}: ${text.trim()}`] : [])),
  );
}

const collabSources = sources(COLLAB).filter((path) => path.endsWith('.ts'));
const inStore = (path: string) => path.startsWith(STORE + sep);

test('collab speaks SQL only in plugins/collab/store/', () => {
  const outside = collabSources.filter((path) => !inStore(path));
  assert.ok(outside.length > 20, `expected collab's sources under ${relative(ROOT, COLLAB)}, found ${outside.length}`);
  assert.deepEqual(sqlLines(outside), [], 'SQL outside plugins/collab/store/: move it into a store function there');
});

test('the check sees SQL where it is: the store layer has some', () => {
  // Guards the test itself: a pattern that matched nothing would pass the test above forever.
  assert.ok(sqlLines(collabSources.filter(inStore)).length > 0, 'no SQL found in plugins/collab/store/');
});
