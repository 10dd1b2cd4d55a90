import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { memoryClient, resultJson, startGateway, tempDir, TESTS } from '../../helpers.js';

// gateway.db as a gateway from before the shared store left it (commit 98f6d3b; made by
// test/fixtures/storage/make-legacy-data.ts): core_audit, echo_calls and a finished
// process_run, with each owner's migrations recorded.
const LEGACY_DB = join(TESTS, 'fixtures', 'storage', 'legacy-data', 'gateway.db');

describe('a dataDir from before the shared store', () => {
  it('opens without loss: rows and migrations kept, only the new audit step run, the shared store beside it', async () => {
    const dir = tempDir('mcpgw-legacy-');
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    copyFileSync(LEGACY_DB, join(dataDir, 'gateway.db'));
    const gateway = await startGateway({ dataDir, plugins: { echo: {}, process: {} } }, dir);
    const db = gateway.db;

    const migrations = db.prepare("SELECT owner, count(*) AS steps FROM core_migrations GROUP BY owner ORDER BY owner").all();
    // core's sixth step (the audit's `kind` column, for resource reads and prompt gets) is
    // newer than the file; nothing else runs again.
    assert.deepEqual(migrations, [
      { owner: 'core', steps: 6 },
      { owner: 'echo', steps: 1 },
      { owner: 'process', steps: 2 },
    ]);
    const audit = db.prepare('SELECT tool, kind, outcome FROM core_audit ORDER BY id').all();
    assert.deepEqual(audit, [...['first', 'second', 'third'].map(() => ({ tool: 'echo', kind: 'tool', outcome: 'ok' })), { tool: 'process_run', kind: 'tool', outcome: 'ok' }]);
    const processes = db.prepare('SELECT seq, kind, command, status, exit_code FROM process_processes').all();
    assert.deepEqual(processes, [{ seq: 1, kind: 'run', command: 'node', status: 'exited', exit_code: 0 }]);

    // The plugins go on writing where they left off.
    const client = await memoryClient(gateway);
    assert.equal(resultJson(await client.callTool({ name: 'echo', arguments: { text: 'fourth', record: true } })).text, 'fourth');
    assert.deepEqual(db.prepare('SELECT id, text FROM echo_calls ORDER BY id').all(), [
      { id: 1, text: 'first' },
      { id: 2, text: 'second' },
      { id: 3, text: 'third' },
      { id: 4, text: 'fourth' },
    ]);
    gateway.audit!.flush();
    assert.equal((db.prepare('SELECT count(*) AS n FROM core_audit').get() as { n: number }).n, 5);

    // The shared store is a file of its own: gateway.db gains none of its tables.
    assert.equal(existsSync(join(dataDir, 'shared.db')), true);
    assert.deepEqual(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'core_store%'").all(), []);
  });
});
