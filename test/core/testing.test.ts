// @mcp-gateway/core/testing: what a plugin package's tests use instead of core internals.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { sql, type GatewayEvent } from '../../core/index.js';
import { newApiKey, pluginConfig, startTestGateway, testBreaker, testStores } from '../../core/testing.js';
import notesPlugin from '../../docs/examples/notes-plugin/index.js';
import { FIXTURE_REGISTRY, httpRequest, NOTES_REGISTRY, resultJson, socketClient } from '../helpers.js';

describe('@mcp-gateway/core/testing', () => {
  it('is the package export "./testing", and the main entry no longer exports the Gateway', async () => {
    const testing = await import('@mcp-gateway/core/testing');
    assert.equal(typeof testing.startTestGateway, 'function');
    const main = (await import('@mcp-gateway/core')) as Record<string, unknown>;
    assert.equal(typeof main.definePlugin, 'function');
    for (const internal of ['createGateway', 'resolveConfig', 'loadConfig']) assert.equal(main[internal], undefined, internal);
  });

  it('boots the given plugins with their config, serves a client, REST and status, and cleans up', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: { config: { maxNotes: 2 } } } });
    try {
      const { tools } = await test.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['gateway_call_tool', 'gateway_find_tools', 'gateway_status', 'note_add', 'note_delete', 'note_list']);

      const added = await test.client.callTool({ name: 'note_add', arguments: { text: 'one' } });
      assert.equal(resultJson(added).text, 'one');
      assert.equal(resultJson(added).author, 'mcp-gateway-test');

      const other = await test.connect('second-client');
      assert.equal(resultJson(await other.callTool({ name: 'note_add', arguments: { text: 'two' } })).author, 'second-client');

      const rest = await test.rest('POST', '/tools/note_list', {});
      assert.equal(rest.status, 200);
      assert.deepEqual(rest.body.data.notes.map((n: { text: string }) => n.text), ['two', 'one']);
      const refused = await test.rest('POST', '/tools/note_delete', { id: 99 });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error.code, 'NOTE_NOT_FOUND');

      assert.deepEqual(test.status().plugins.map((p) => p.name), ['notes']);
      assert.ok(existsSync(test.workspace) && existsSync(test.dataDir));
    } finally {
      await test.close();
    }
    assert.equal(existsSync(test.workspace), false);
    assert.equal(existsSync(test.dataDir), false);
  });

  it('rejects with the boot error and its code', async () => {
    await assert.rejects(startTestGateway({ registries: [FIXTURE_REGISTRY], plugins: { echo: { config: { prefx: '>' } } } }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.echo\.config: unknown key "prefx"/);
      return true;
    });
  });

  it('reads the built-in registry only when asked', async () => {
    await assert.rejects(startTestGateway({ registries: [], plugins: { files: {} } }), /no plugin "files" in the registry/);
    const test = await startTestGateway({ registries: [], plugins: { files: {} }, builtinRegistry: true });
    try {
      assert.ok((await test.client.listTools()).tools.some((t) => t.name === 'file_read'));
    } finally {
      await test.close();
    }
  });

  it('calls and expects errors on the first client and on named sessions', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, clientName: 'first' });
    try {
      assert.equal((await test.call('note_add', { text: 'one' })).author, 'first');
      const second = await test.session('second');
      assert.equal((await second.call('note_add', { text: 'two' })).author, 'second');
      assert.equal((await (await test.session()).call('note_add', { text: 'three' })).author, 'mcp-gateway-test');
      const refused = await second.fail('note_delete', { id: 99 });
      assert.equal(refused.code, 'NOTE_NOT_FOUND');
      assert.equal(typeof refused.message, 'string');
      await assert.rejects(test.call('note_delete', { id: 99 }), /note_delete failed: .*NOTE_NOT_FOUND/);
      await assert.rejects(test.fail('note_list'), /note_list succeeded/);
    } finally {
      await test.close();
    }
  });

  it('subscribes to and publishes events, and lists the tools with their plugins', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} } });
    try {
      const seen: GatewayEvent[] = [];
      const unsubscribe = test.events.subscribe('notes.*', (event) => void seen.push(event));
      const { id } = await test.call('note_add', { text: 'one', tags: ['a'] });
      test.events.publish('notes', 'notes.cleared', { all: true });
      unsubscribe();
      test.events.publish('notes', 'notes.cleared', { all: false });
      assert.deepEqual(seen.map((e) => [e.source, e.channel, e.data]), [['notes', 'notes.added', { id, tags: ['a'] }], ['notes', 'notes.cleared', { all: true }]]);
      const add = test.tools().find((t) => t.name === 'note_add')!;
      assert.equal(add.plugin, 'notes');
      assert.match(add.definition.description!, /short text note/);
    } finally {
      await test.close();
    }
  });

  it('gives keys, and real TCP and HTTP listeners that close with the gateway', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, keys: [{ name: 'reader', scopes: ['note_list'] }] });
    let port: number;
    try {
      const { tcp, http } = await test.listen({ tcp: true, http: true });
      port = http!.port;
      assert.equal(http!.host, '127.0.0.1');
      const post = (tool: string, key?: string) =>
        httpRequest(port, { method: 'POST', url: `/tools/${tool}`, headers: key ? { authorization: `Bearer ${key}` } : {}, payload: { text: 'x' } });
      assert.equal((await post('note_list')).statusCode, 401);
      assert.equal((await post('note_add', test.keys.reader)).statusCode, 403);
      assert.equal((await post('note_add', test.ownerKey)).statusCode, 200);
      const { client } = await socketClient({ kind: 'tcp', host: tcp!.host, port: tcp!.port }, 'over-tcp', test.keys.reader);
      after(() => client.close());
      assert.equal(resultJson(await client.callTool({ name: 'note_list', arguments: {} })).notes.length, 1);
    } finally {
      await test.close();
    }
    // A new connection (an HTTP request could reuse one the agent keeps alive): refused.
    await assert.rejects(
      new Promise((resolve, reject) => connect(port, '127.0.0.1', () => resolve(undefined)).once('error', reject)),
      /ECONNREFUSED/,
    );
  });

  it('runs on a given store, which outlives the gateway: a second gateway finds its rows', async () => {
    const [sqlite, postgres] = testStores();
    after(() => sqlite.close());
    assert.deepEqual([sqlite.name, sqlite.skip, postgres.name], ['sqlite', false, 'postgres']);
    assert.match(String(postgres.skip), /no PostgreSQL server was given/);
    const store = await sqlite.fresh();
    const first = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, store });
    try {
      assert.equal(first.dataDir, store.dataDir);
      const own = first.store('notes');
      assert.deepEqual([own.dialect, own.tablePrefix], ['sqlite', 'notes_']);
      await sql`CREATE TABLE notes_probe (text TEXT)`.execute(own.db);
      await sql`INSERT INTO notes_probe (text) VALUES ('kept')`.execute(own.db);
    } finally {
      await first.close();
    }
    assert.ok(existsSync(store.dataDir), 'a given store is not removed');
    const second = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, store });
    try {
      const { rows } = await sql<{ text: string }>`SELECT text FROM notes_probe`.execute(second.store('notes').db);
      assert.deepEqual(rows, [{ text: 'kept' }]);
    } finally {
      await second.close();
    }
    await sqlite.close();
    assert.equal(existsSync(store.dataDir), false);
  });
  it("answers a body that is not JSON as text, and sends the log lines where it is told", async () => {
    const lines: string[] = [];
    const logTo = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString('utf8')), done()) });
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, logLevel: 'info', logTo });
    try {
      const metrics = await test.rest('GET', '/metrics');
      assert.equal(metrics.status, 200);
      assert.equal(metrics.body, undefined);
      assert.match(metrics.text, /^mcp_gateway_/m);
      const health = await test.rest('GET', '/health');
      assert.deepEqual(health.body, JSON.parse(health.text));
    } finally {
      await test.close();
    }
    assert.ok(lines.length > 0, 'the gateway logged at info');
    for (const line of lines.join('').trimEnd().split('\n')) assert.equal(typeof JSON.parse(line).msg, 'string');
  });

  it("resolves a plugin's config as its setup gets it, and refuses a bad one", () => {
    assert.deepEqual(pluginConfig(notesPlugin), { maxNotes: 1000 });
    assert.deepEqual(pluginConfig(notesPlugin, { maxNotes: 5 }), { maxNotes: 5 });
    assert.throws(() => pluginConfig(notesPlugin, { maxNotes: 0, extra: 1 }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.notes\.config\.maxNotes: must be >= 1/);
      assert.match(err.message, /unknown key "extra"/);
      return true;
    });
  });

  it('makes a real breaker with the given thresholds, and API keys with their hashes', async () => {
    const { breaker, close } = testBreaker('probe:service', { volumeThreshold: 1, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 });
    try {
      assert.equal(breaker.name, 'probe:service');
      await assert.rejects(breaker.call(async () => Promise.reject(new Error('down'))), /down/);
      assert.equal(breaker.state, 'open');
      await assert.rejects(breaker.call(async () => 'never'), (err: any) => err.code === 'BREAKER_OPEN');
    } finally {
      close();
    }
    const key = newApiKey();
    assert.match(key.key, /^mgw_/);
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, config: { auth: 'key', apiKeys: [{ name: 'ci', hash: key.hash, scopes: ['*'] }] } });
    try {
      assert.equal((await test.rest('POST', '/tools/note_list', {}, { authorization: `Bearer ${key.key}` })).status, 200);
      assert.equal((await test.rest('POST', '/tools/note_list', {}, { authorization: 'Bearer mgw_wrong' })).status, 401);
    } finally {
      await test.close();
    }
  });

  it('reads the audit: each call and how it ended; and the HTTP status of an error code', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} } });
    try {
      await test.call('note_add', { text: 'one' });
      assert.equal((await test.fail('note_delete', { id: 99 })).code, 'NOTE_NOT_FOUND');
      assert.deepEqual(test.audit('note_delete').map((row) => [row.tool, row.plugin, row.outcome, row.kind, row.transport]), [['note_delete', 'notes', 'NOTE_NOT_FOUND', 'tool', 'memory']]);
      assert.deepEqual(test.audit().map((row) => row.outcome), ['ok', 'NOTE_NOT_FOUND']);
      assert.equal(typeof test.audit()[0]!.durationMs, 'number');
      assert.equal(test.errorStatus('NOTE_NOT_FOUND'), 404);
      assert.equal(test.errorStatus('INVALID_ARGUMENTS'), 400);
      assert.equal(test.errorStatus('NO_SUCH_CODE'), undefined);
    } finally {
      await test.close();
    }
    const quiet = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, config: { tools: { audit: false } } });
    try {
      await quiet.call('note_list');
      assert.deepEqual(quiet.audit(), []);
    } finally {
      await quiet.close();
    }
  });

  it('keeps the transports\' settings for listen, with no listener at boot', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: {} }, config: { transports: { tcp: { maxConnections: 1 } } } });
    try {
      const { tcp } = await test.listen({ tcp: true });
      const first = await socketClient({ kind: 'tcp', ...tcp! });
      // One connection at most: the second is closed without an answer.
      await assert.rejects(socketClient({ kind: 'tcp', ...tcp! }));
      await first.client.close();
    } finally {
      await test.close();
    }
  });

  it('starts from a config file, which its file tools then refuse to touch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgw-testing-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'gateway.config.yaml'), 'protectedPaths: [secret.txt]\n');
    writeFileSync(join(dir, 'secret.txt'), 'x\n');
    const test = await startTestGateway({
      registries: [],
      builtinRegistry: true,
      plugins: { files: {} },
      workspace: dir,
      configFile: join(dir, 'gateway.config.yaml'),
    });
    try {
      assert.equal((await test.fail('file_write', { path: 'secret.txt', content: 'y' })).code, 'PROTECTED_PATH', 'the file\'s protectedPaths hold');
      assert.equal((await test.fail('file_write', { path: 'gateway.config.yaml', content: 'x' })).code, 'PROTECTED_PATH', 'the file is the gateway\'s own');
      assert.equal(readFileSync(join(dir, 'gateway.config.yaml'), 'utf8'), 'protectedPaths: [secret.txt]\n');
      assert.equal(readFileSync(join(dir, 'secret.txt'), 'utf8'), 'x\n');
    } finally {
      await test.close();
    }
  });
});
