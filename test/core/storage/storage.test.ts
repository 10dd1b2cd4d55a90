import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { AuditLog, redactSecrets, type AuditRow } from '../../../core/gateway/audit.js';
import { migrate, openDatabase, type Database } from '../../../core/storage/storage.js';
import type { Migration } from '../../../core/contract/store-types.js';
import type { CallRecord } from '../../../core/catalog/call-observers.js';
import { ROOT, tempDir, TESTS, waitFor } from '../../helpers.js';

const dir = tempDir('mcpgw-storage-');
let files = 0;

/** A fresh database file per test; closed when the test ends. */
function freshDb(t: { after(fn: () => void): void }): Database {
  const db = openDatabase(join(dir, `db-${++files}`, 'gateway.db'));
  t.after(() => db.close());
  return db;
}

function tableExists(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function versions(db: Database, owner: string): number[] {
  return (db.prepare('SELECT version FROM core_migrations WHERE owner = ? ORDER BY version').all(owner) as Array<{ version: number }>).map(
    (row) => row.version,
  );
}

describe('openDatabase', () => {
  it('creates the file and its folders, in WAL mode with foreign keys on', (t) => {
    const file = join(dir, 'nested', 'deeper', 'gateway.db');
    const db = openDatabase(file);
    t.after(() => db.close());
    assert.equal(existsSync(file), true);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(tableExists(db, 'core_migrations'), true);
  });

  it('enforces foreign keys', (t) => {
    const db = freshDb(t);
    db.exec('CREATE TABLE t_parent (id INTEGER PRIMARY KEY); CREATE TABLE t_child (parent INTEGER NOT NULL REFERENCES t_parent (id))');
    assert.throws(() => db.prepare('INSERT INTO t_child (parent) VALUES (1)').run(), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  });

  it('reopens an existing database with its data', (t) => {
    const file = join(dir, 'reopen', 'gateway.db');
    const first = openDatabase(file);
    first.exec("CREATE TABLE t_keep (v TEXT); INSERT INTO t_keep VALUES ('kept')");
    first.close();
    const second = openDatabase(file);
    t.after(() => second.close());
    assert.equal(second.prepare('SELECT v FROM t_keep').pluck().get(), 'kept');
  });
});

describe('migrate', () => {
  it('applies the steps in order, records each, and applies nothing on a second run', (t) => {
    const db = freshDb(t);
    const steps: Migration[] = ['CREATE TABLE p_items (id INTEGER PRIMARY KEY, name TEXT)', 'ALTER TABLE p_items ADD COLUMN size INTEGER'];
    assert.equal(migrate(db, 'p', steps), 2);
    assert.deepEqual(versions(db, 'p'), [1, 2]);
    db.prepare('INSERT INTO p_items (name, size) VALUES (?, ?)').run('a', 1);
    assert.equal(migrate(db, 'p', steps), 0);
    assert.deepEqual(versions(db, 'p'), [1, 2]);
    assert.equal(db.prepare('SELECT COUNT(*) FROM p_items').pluck().get(), 1);
  });

  it('applies only the steps added since the last run', (t) => {
    const db = freshDb(t);
    const ran: number[] = [];
    const step = (n: number): Migration => () => void ran.push(n);
    migrate(db, 'p', [step(1), step(2)]);
    assert.equal(migrate(db, 'p', [step(1), step(2), step(3), step(4)]), 2);
    assert.deepEqual(ran, [1, 2, 3, 4]);
    assert.deepEqual(versions(db, 'p'), [1, 2, 3, 4]);
  });

  it('runs function steps with the database', (t) => {
    const db = freshDb(t);
    migrate(db, 'p', [
      'CREATE TABLE p_seed (n INTEGER)',
      (d) => {
        const insert = d.prepare('INSERT INTO p_seed (n) VALUES (?)');
        for (let n = 1; n <= 3; n++) insert.run(n);
      },
    ]);
    assert.equal(db.prepare('SELECT SUM(n) FROM p_seed').pluck().get(), 6);
  });

  it('keeps each owner separate', (t) => {
    const db = freshDb(t);
    migrate(db, 'one', ['CREATE TABLE one_t (x)']);
    assert.equal(migrate(db, 'two', ['CREATE TABLE two_t (x)', 'CREATE TABLE two_u (x)']), 2);
    assert.deepEqual(versions(db, 'one'), [1]);
    assert.deepEqual(versions(db, 'two'), [1, 2]);
  });

  it('rolls a failing multi-statement step back entirely and does not record it', (t) => {
    const db = freshDb(t);
    const broken = 'CREATE TABLE p_b (x); CREATE TABLE p_c (x); INSERT INTO p_b VALUES (1); INSERT INTO p_missing VALUES (1)';
    assert.throws(() => migrate(db, 'p', ['CREATE TABLE p_a (x)', broken]), /p_missing/);
    assert.equal(tableExists(db, 'p_a'), true, 'the step before it stays applied');
    assert.equal(tableExists(db, 'p_b'), false);
    assert.equal(tableExists(db, 'p_c'), false);
    assert.deepEqual(versions(db, 'p'), [1]);
    assert.equal(db.inTransaction, false);
    // Fixed, it runs on the next start.
    assert.equal(migrate(db, 'p', ['CREATE TABLE p_a (x)', 'CREATE TABLE p_b (x); CREATE TABLE p_c (x)']), 1);
    assert.deepEqual(versions(db, 'p'), [1, 2]);
  });

  it('rolls back a function step that throws after writing', (t) => {
    const db = freshDb(t);
    const failure = new Error('step failed');
    assert.throws(
      () =>
        migrate(db, 'p', [
          (d) => {
            d.exec('CREATE TABLE p_half (x)');
            throw failure;
          },
        ]),
      (err) => err === failure,
    );
    assert.equal(tableExists(db, 'p_half'), false);
    assert.deepEqual(versions(db, 'p'), []);
  });

  it('refuses a database written by a newer version of the owner', (t) => {
    const db = freshDb(t);
    migrate(db, 'p', ['CREATE TABLE p_1 (x)', 'CREATE TABLE p_2 (x)', 'CREATE TABLE p_3 (x)']);
    let ran = false;
    assert.throws(
      () => migrate(db, 'p', ['CREATE TABLE p_1 (x)', () => void (ran = true)]),
      (err: { code?: string; message: string }) => {
        assert.equal(err.code, 'PLUGIN_LOAD_FAILED');
        assert.match(err.message, /migration 3.*only 2/);
        return true;
      },
    );
    assert.equal(ran, false);
    assert.deepEqual(versions(db, 'p'), [1, 2, 3]);
  });
});

function callRecord(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    kind: 'tool',
    tool: 'file_read',
    plugin: 'files',
    caller: { transport: 'tcp', sessionId: 'session-1', identity: 'claude-code' },
    args: { path: 'src/index.ts' },
    startedAt: Date.UTC(2024, 4, 6, 7, 8, 9, 123),
    durationMs: 12.6,
    outcome: 'ok',
    ...overrides,
  };
}

function auditRows(db: Database, audit: AuditLog): AuditRow[] {
  audit.flush();
  return db.prepare('SELECT at, transport, session, caller, tool, args_digest, args_summary, duration_ms, outcome FROM core_audit ORDER BY id').all() as AuditRow[];
}

describe('AuditLog', () => {
  it('records one row per call with digest, summary and outcome', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord());
    audit.record(callRecord({ caller: { transport: 'stdio' }, outcome: 'FILE_NOT_FOUND', args: undefined }));
    const [first, second] = auditRows(db, audit);
    const summary = '{"path":"src/index.ts"}';
    assert.deepEqual(first, {
      at: '2024-05-06T07:08:09.123Z',
      transport: 'tcp',
      session: 'session-1',
      caller: 'claude-code',
      tool: 'file_read',
      args_digest: createHash('sha256').update(summary).digest('hex'),
      args_summary: summary,
      duration_ms: 13,
      outcome: 'ok',
    });
    assert.equal(second!.session, null);
    assert.equal(second!.caller, null);
    assert.equal(second!.args_summary, 'null');
    assert.equal(second!.outcome, 'FILE_NOT_FOUND');
  });

  it('records the plugin and deletes rows older than the retention at start-up', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord({ startedAt: Date.now() - 40 * 86_400_000 }));
    audit.record(callRecord({ startedAt: Date.now() }));
    assert.equal(auditRows(db, audit).length, 2);
    audit.flush();
    new AuditLog(db, { retentionDays: 30 });
    const rows = db.prepare('SELECT plugin FROM core_audit').all();
    assert.deepEqual(rows, [{ plugin: callRecord().plugin ?? null }]);
  });

  it('a running AuditLog deletes rows past the retention again at its next prune', async (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db, { retentionDays: 30, sweepEveryMs: 10, pruneEveryMs: 0 });
    audit.record(callRecord({ startedAt: Date.now() - 40 * 86_400_000 }));
    audit.record(callRecord({ startedAt: Date.now() }));
    audit.flush();
    assert.equal(db.prepare('SELECT count(*) FROM core_audit').pluck().get(), 2);
    for (let tries = 0; tries < 200 && db.prepare('SELECT count(*) FROM core_audit').pluck().get() !== 1; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    const rows = db.prepare('SELECT at FROM core_audit').all() as Array<{ at: string }>;
    assert.equal(rows.length, 1, 'the row of 40 days ago is gone, today\'s stays');
    assert.ok(Date.parse(rows[0]!.at) > Date.now() - 86_400_000);
    audit.close();
  });

  it('a second AuditLog on the same database reuses the table', (t) => {
    const db = freshDb(t);
    const first = new AuditLog(db);
    first.record(callRecord());
    first.close();
    const audit = new AuditLog(db);
    audit.record(callRecord());
    assert.equal(auditRows(db, audit).length, 2);
  });

  it('redacts secrets in the summary and the digest, keeping the rest', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord({ args: { path: 'a.txt', password: 'hunter2', nested: { apiKey: 'sk-123' } } }));
    audit.record(callRecord({ args: { path: 'a.txt', password: 'other', nested: { apiKey: 'sk-456' } } }));
    const [first, second] = auditRows(db, audit);
    assert.equal(first!.args_summary, '{"path":"a.txt","password":"[redacted]","nested":{"apiKey":"[redacted]"}}');
    assert.doesNotMatch(first!.args_summary, /hunter2|sk-123/);
    assert.match(first!.args_digest, /^[0-9a-f]{64}$/);
    // The digest is of the redacted form, so it cannot be used to guess a secret.
    assert.equal(second!.args_digest, first!.args_digest);
  });

  it('truncates the summary of large arguments but digests all of them', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord({ args: { content: 'x'.repeat(10_000) } }));
    audit.record(callRecord({ args: { content: `${'x'.repeat(9_999)}y` } }));
    const [first, second] = auditRows(db, audit);
    assert.ok(first!.args_summary.length <= 513, `summary is ${first!.args_summary.length} chars`);
    assert.ok(first!.args_summary.length >= 500);
    assert.ok(first!.args_summary.endsWith('…'));
    assert.ok(first!.args_summary.startsWith('{"content":"xxx'));
    assert.match(first!.args_digest, /^[0-9a-f]{64}$/);
    assert.equal(second!.args_summary, first!.args_summary);
    assert.notEqual(second!.args_digest, first!.args_digest);
  });

  it('keeps every recorded row when the writing process is killed with SIGKILL', { timeout: 30_000 }, async (t) => {
    const file = join(dir, 'durable', 'gateway.db');
    const child = spawn(process.execPath, [join(TESTS, 'fixtures', 'storage', 'audit-writer.js'), file, '5'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes('done\n') && resolve());
      child.once('exit', () => reject(new Error(`writer exited before "done":\n${stderr}`)));
    });
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    const db = openDatabase(file);
    t.after(() => db.close());
    // The writer never folded: its rows are only in its journal file.
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM core_audit').get() as { n: number }).n, 0);
    const journals = join(dir, 'durable', 'audit-journal');
    assert.equal(readdirSync(journals).length, 1);

    const audit = new AuditLog(db);
    const rows = db.prepare('SELECT session, caller, tool, args_summary, outcome FROM core_audit ORDER BY id').all() as AuditRow[];
    assert.equal(rows.length, 5);
    assert.deepEqual(rows[4], {
      session: 's-5',
      caller: 'child',
      tool: 'durable_write',
      args_summary: '{"n":5,"password":"[redacted]"}',
      outcome: 'ok',
    });
    // The dead writer's journal is folded and removed; only the new log's own file is left.
    assert.deepEqual(
      readdirSync(journals).map((name) => name.startsWith(`${process.pid}-`)),
      [true],
    );
    audit.close();
    new AuditLog(db).close();
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM core_audit').get() as { n: number }).n, 5);
    assert.deepEqual(readdirSync(journals), []);
  });

  it('folds a left-behind journal once, skipping lines already folded and lines that do not parse', (t) => {
    const db = freshDb(t);
    new AuditLog(db).close();
    const journals = join(dirname(db.name), 'audit-journal');
    // A pid above Linux's pid_max: no such process, so the owner is gone.
    const name = '4194305-0123456789ab.jsonl';
    const line = (session: string) => `${JSON.stringify(['2024-01-01T00:00:00.000Z', 'tcp', session, null, 'p', 'left_behind', 'd', '{}', 1, 'ok'])}\n`;
    const wrongShape = `${JSON.stringify(['2024-01-01T00:00:00.000Z', 'tcp', 'too few values'])}\n`;
    const text = line('s-1') + line('s-2') + 'not json\n' + wrongShape + line('s-3') + '["cut short';
    writeFileSync(join(journals, name), text);
    // s-1 reached the table before the owner died.
    db.prepare("INSERT INTO core_audit (at, transport, session, tool, args_digest, args_summary, duration_ms, outcome) VALUES ('2024-01-01T00:00:00.000Z', 'tcp', 's-1', 'left_behind', 'd', '{}', 1, 'ok')").run();
    db.prepare('INSERT INTO core_audit_folded (journal, offset) VALUES (?, ?)').run(name, Buffer.byteLength(line('s-1')));

    new AuditLog(db).close();
    const sessions = db.prepare("SELECT session FROM core_audit WHERE tool = 'left_behind' ORDER BY id").pluck().all();
    assert.deepEqual(sessions, ['s-1', 's-2', 's-3']);
    assert.equal(existsSync(join(journals, name)), false);
    assert.equal(db.prepare('SELECT COUNT(*) AS n FROM core_audit_folded WHERE journal = ?').pluck().get(name), 0);
  });

  it('folds in a journal left while it runs, without waiting for the next start', async (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db, { sweepEveryMs: 50 });
    const name = '4194305-ba9876543210.jsonl';
    const row = ['2024-01-01T00:00:00.000Z', 'cli', null, 'cli', 'p', 'killed_meanwhile', 'd', '{}', 1, 'ok'];
    writeFileSync(join(dirname(db.name), 'audit-journal', name), `${JSON.stringify(row)}\n`);
    await waitFor(() => db.prepare("SELECT COUNT(*) FROM core_audit WHERE tool = 'killed_meanwhile'").pluck().get() === 1);
    await waitFor(() => !existsSync(join(dirname(db.name), 'audit-journal', name)));
    audit.close();
  });

  it('leaves the journal of a live process in place and never folds a line twice', (t) => {
    const db = freshDb(t);
    const first = new AuditLog(db);
    first.record(callRecord({ outcome: 'one' }));
    // Its line in the journal (written at the end of the turn otherwise), and in the table.
    first.flush();
    // A second log in the same process (another gateway on the same data folder) must leave
    // the first one's live journal alone, and the first must not insert its line again.
    const second = new AuditLog(db);
    assert.equal(readdirSync(join(dirname(db.name), 'audit-journal')).length, 2, 'both journals live');
    first.record(callRecord({ outcome: 'two' }));
    first.flush();
    second.close();
    first.close();
    assert.deepEqual(db.prepare('SELECT outcome FROM core_audit ORDER BY id').pluck().all(), ['one', 'two']);
    assert.deepEqual(readdirSync(join(dirname(db.name), 'audit-journal')), []);
  });

  it('records nothing after close() and leaves no file behind', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord({ outcome: 'before' }));
    audit.close();
    audit.record(callRecord({ outcome: 'SHUTTING_DOWN' }));
    audit.flush();
    assert.deepEqual(db.prepare('SELECT outcome FROM core_audit').pluck().all(), ['before']);
    assert.deepEqual(readdirSync(join(dirname(db.name), 'audit-journal')), []);
  });

  it('cuts names that come from callers (a client name, an unknown tool) to 256 characters', (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord({ tool: 'x'.repeat(100_000), caller: { transport: 'tcp', identity: 'c'.repeat(100_000) } }));
    const [row] = auditRows(db, audit);
    assert.equal(row!.tool, `${'x'.repeat(256)}…`);
    assert.equal(row!.caller, `${'c'.repeat(256)}…`);
    audit.close();
  });

  it('folds rows into the table within a fraction of a second without flush()', async (t) => {
    const db = freshDb(t);
    const audit = new AuditLog(db);
    audit.record(callRecord());
    await waitFor(() => (db.prepare('SELECT COUNT(*) AS n FROM core_audit').get() as { n: number }).n === 1);
    audit.close();
  });
});

describe('redactSecrets', () => {
  const secretKeys = [
    'password',
    'Password',
    'PASSWORD',
    'db_password',
    'passwd',
    'pass',
    'pwd',
    'passphrase',
    'apiKey',
    'api_key',
    'api-key',
    'APIKEY',
    'x-api-key',
    'token',
    'accessToken',
    'refresh_token',
    'Authorization',
    'authorisation',
    'auth',
    'secret',
    'clientSecret',
    'client_secret',
    'credentials',
    'privateKey',
    'private_key',
    'cookie',
    'Set-Cookie',
  ];
  for (const key of secretKeys) {
    it(`redacts "${key}" at the top level, nested and inside arrays`, () => {
      const input = { [key]: 's3cr3t', nested: { deeper: { [key]: { any: 'shape' } } }, list: [{ [key]: ['a', 'b'] }, 'plain'] };
      assert.deepEqual(redactSecrets(input), {
        [key]: '[redacted]',
        nested: { deeper: { [key]: '[redacted]' } },
        list: [{ [key]: '[redacted]' }, 'plain'],
      });
    });
  }

  const harmlessKeys = ['author', 'authors', 'path', 'name', 'content', 'query', 'passage', 'compass', 'keyboard', 'monkey', 'description'];
  for (const key of harmlessKeys) {
    it(`keeps "${key}"`, () => {
      assert.deepEqual(redactSecrets({ [key]: 'value', nested: [{ [key]: 1 }] }), { [key]: 'value', nested: [{ [key]: 1 }] });
    });
  }

  it('leaves scalars and null alone and does not change its input', () => {
    for (const value of [null, undefined, 0, 'password', true]) assert.equal(redactSecrets(value), value);
    const input = { password: 'x', list: [{ token: 'y' }] };
    redactSecrets(input);
    assert.deepEqual(input, { password: 'x', list: [{ token: 'y' }] });
  });

  it('returns JSON-like data with nothing to redact as it is, and copies anything else as before', () => {
    const clean = JSON.parse('{"path": "a", "list": [{"n": 1}, null, "x"], "nested": {"author": "b"}}') as unknown;
    assert.equal(redactSecrets(clean), clean);
    // Not plain data: copied (own enumerable keys), as it always was.
    class Args {
      path = 'a';
    }
    const instance = new Args();
    const copied = redactSecrets(instance);
    assert.notEqual(copied, instance);
    assert.deepEqual(copied, { path: 'a' });
    const inherited = Object.assign(Object.create({ token: 't' }) as object, { path: 'a' });
    assert.equal(JSON.stringify(redactSecrets({ inner: inherited })), '{"inner":{"path":"a"}}');
  });

  it('cuts off at depth instead of recursing forever', () => {
    let deep: unknown = { password: 'bottom' };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    assert.match(JSON.stringify(redactSecrets(deep)), /\[too deep\]/);
    assert.doesNotMatch(JSON.stringify(redactSecrets(deep)), /bottom/);
  });

  it('keeps a __proto__ key from JSON as data', () => {
    const input = JSON.parse('{"__proto__": {"path": "/etc/shadow", "token": "t"}}') as unknown;
    assert.equal(JSON.stringify(redactSecrets(input)), '{"__proto__":{"path":"/etc/shadow","token":"[redacted]"}}');
  });
});
