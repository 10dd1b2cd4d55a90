import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallRecord } from '../../../core/catalog/call-observers.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { memoryClient, startGateway, tempDir, waitFor, WITH_LIBRARY } from '../../helpers.js';

const memory = { caller: { transport: 'memory' as const, identity: 'unit' } };

describe('tool catalog', () => {
  it('fills schema defaults into the arguments the handler gets', async () => {
    const gateway = await startGateway();
    const outcome = await gateway.catalog.call('echo', { text: 'ab' }, memory);
    assert.ok(outcome.ok);
    assert.equal((outcome.value as { text: string }).text, 'ab');
  });

  it('compiles the schemas of every tool in the background once the gateway is ready', async () => {
    const gateway = await startGateway();
    await waitFor(() => gateway.catalog.list().every((tool) => tool.validators.compiled));
  });

  it('treats missing arguments as an empty object', async () => {
    const gateway = await startGateway();
    const outcome = await gateway.catalog.call('gateway_status', undefined, memory);
    assert.ok(outcome.ok);
  });

  it('tells observers about every call, failures included', async () => {
    const gateway = await startGateway();
    const records: CallRecord[] = [];
    gateway.calls.observe((r) => {
      records.push(r);
    });
    gateway.calls.observe(() => {
      throw new Error('a broken observer does not break calls');
    });
    await gateway.catalog.call('echo', { text: 'x' }, memory);
    await gateway.catalog.call('echo', {}, memory);
    await gateway.catalog.call('ghost', {}, memory);
    assert.deepEqual(records.map((r) => [r.tool, r.plugin, r.outcome]), [
      ['echo', 'echo', 'ok'],
      ['echo', 'echo', 'INVALID_ARGUMENTS'],
      ['ghost', undefined, 'UNKNOWN_TOOL'],
    ]);
  });

  it('cancels running calls at shutdown and refuses new ones', async () => {
    const gateway = await startGateway();
    const running = gateway.catalog.call('echo_sleep', { ms: 4000 }, memory);
    await new Promise((r) => setTimeout(r, 50));
    const closing = gateway.close();
    const outcome = await running;
    assert.ok(!outcome.ok);
    assert.equal(outcome.error.code, 'SHUTTING_DOWN');
    await closing;
  });

  it('records the audit rows of calls that shutdown cancelled before the database closes', async () => {
    const dir = tempDir();
    const gateway = await startGateway({}, dir);
    const running = gateway.catalog.call('echo_sleep', { ms: 4000 }, memory);
    await new Promise((r) => setTimeout(r, 50));
    await gateway.close();
    await running;
    const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'), { readonly: true });
    try {
      assert.deepEqual(db.prepare('SELECT tool, outcome FROM core_audit').all(), [{ tool: 'echo_sleep', outcome: 'SHUTTING_DOWN' }]);
    } finally {
      db.close();
    }
  });

  it('refuses calls once shutdown has begun', async () => {
    const gateway = await startGateway();
    const closing = gateway.close();
    const outcome = await gateway.catalog.call('echo', { text: 'late' }, memory);
    await closing;
    assert.ok(!outcome.ok);
    assert.equal(outcome.error.code, 'SHUTTING_DOWN');
  });

  it('refuses calls from the moment shutdown begins, while listeners still close; a call already running is not cut short until the gateway closes', async () => {
    const gateway = await startGateway(WITH_LIBRARY);
    let release!: () => void;
    // A part started after the gateway (a listener, say) whose close waits: shutdown has begun,
    // the gateway part has not closed yet.
    await gateway.lifecycle.start('listener', async () => undefined, () => new Promise<void>((resolve) => (release = resolve)));
    const running = gateway.catalog.call('echo_sleep', { ms: 150 }, memory);
    const closing = gateway.close();
    // A synchronous handler, asked after the shutdown began: refused at its start.
    const late = await gateway.catalog.call('echo', { text: 'late' }, memory);
    assert.ok(!late.ok);
    assert.equal(late.error.code, 'SHUTTING_DOWN');
    const read = await gateway.resources.read('library://readme', memory);
    assert.ok(!read.ok);
    assert.equal(read.error.code, 'SHUTTING_DOWN');
    const finished = await running;
    assert.ok(finished.ok, 'the call that was running finished: the gateway part had not closed');
    assert.equal(gateway.status().state, 'closing');
    release();
    await closing;
  });

  it('writes one audit row per call with transport, session, caller, redacted digest, duration and outcome', async () => {
    const gateway = await startGateway();
    const client = await memoryClient(gateway, 'auditor');
    await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    await client.callTool({ name: 'echo', arguments: { text: 'x', password: 'hunter2', nested: { apiKey: 'k-123' } } });
    gateway.audit!.flush();
    const rows = gateway.db
      .prepare('SELECT transport, session, caller, tool, args_digest, args_summary, duration_ms, outcome FROM core_audit ORDER BY id')
      .all() as Array<Record<string, any>>;
    assert.equal(rows.length, 2);
    assert.deepEqual([rows[0]!.transport, rows[0]!.caller, rows[0]!.tool, rows[0]!.outcome], ['memory', 'auditor', 'echo', 'ok']);
    assert.ok(rows[0]!.session);
    assert.match(rows[0]!.args_digest, /^[0-9a-f]{64}$/);
    assert.equal(rows[0]!.args_summary, '{"text":"hello","times":1,"record":false}');
    assert.equal(rows[1]!.outcome, 'INVALID_ARGUMENTS');
    // The effective arguments: schema defaults are filled in before validation finishes.
    assert.equal(rows[1]!.args_summary, '{"text":"x","password":"[redacted]","nested":{"apiKey":"[redacted]"},"times":1,"record":false}');
    assert.doesNotMatch(JSON.stringify(rows), /hunter2|k-123/);
    assert.ok(Number.isInteger(rows[0]!.duration_ms));
  });

  it('has the row of each call in the journal before the call answers, and in the table soon after', async () => {
    const dir = tempDir();
    const gateway = await startGateway({}, dir);
    const journals = join(dir, 'data', 'audit-journal');
    const journaled = () => readdirSync(journals).reduce((n, name) => n + readFileSync(join(journals, name), 'utf8').split('\n').length - 1, 0);
    const answered = await Promise.all(
      Array.from({ length: 20 }, (_, i) => gateway.catalog.call('echo', { text: `c${i}` }, memory).then(() => journaled())),
    );
    // Whenever a call had answered, its line was already written.
    answered.forEach((lines, i) => assert.ok(lines >= i + 1, `call ${i} answered with ${lines} lines in the journal`));
    await waitFor(() => (gateway.db.prepare('SELECT COUNT(*) AS n FROM core_audit').get() as { n: number }).n === 20);
  });

  it('writes no audit row when tools.audit is off', async () => {
    const gateway = await startGateway({ tools: { audit: false } });
    await gateway.catalog.call('echo', { text: 'x' }, memory);
    const table = gateway.db.prepare("SELECT name FROM sqlite_master WHERE name = 'core_audit'").get();
    assert.equal(table, undefined);
  });

  it('builds the tools/list answer once', async () => {
    const gateway = await startGateway();
    assert.equal(gateway.catalog.listings(), gateway.catalog.listings());
  });
});

describe('a tool\'s origin', () => {
  const definition = (origin: unknown) => ({ name: 'relayed', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, origin }) as never;
  const refused: Array<[string, unknown]> = [
    ['an empty string', ''],
    ['only spaces', '   '],
    ['more than 200 characters', 'x'.repeat(201)],
    ['a number', 7],
  ];
  for (const [label, origin] of refused) {
    it(`refuses ${label} with TOOL_DEFINITION_INVALID`, async () => {
      const gateway = await startGateway();
      assert.throws(
        () => gateway.catalog.prepare('up', definition(origin), () => 1),
        (err: any) => err.code === 'TOOL_DEFINITION_INVALID' && /Plugin "up", tool "relayed": origin must be a non-empty string of at most 200 characters/.test(err.message),
      );
    });
  }

  it('takes a label of up to 200 characters, and keeps it out of the tools/list entry', async () => {
    const gateway = await startGateway();
    const tool = gateway.catalog.prepare('up', definition('x'.repeat(200)), () => 1);
    assert.equal(tool.definition.origin, 'x'.repeat(200));
    assert.equal('origin' in tool.listing, false);
  });
});
