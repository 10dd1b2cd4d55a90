import assert from 'node:assert/strict';
import { chmodSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CachedAnswers } from '../../../core/mcp/cached-answers.js';
import { cacheDir, readSnapshot, stdioCacheSlot, writeSnapshot, type CatalogSnapshot } from '../../../core/mcp/stdio-cache.js';
import { tempDir } from '../../helpers.js';

const content = {
  serverInfo: { name: 'mcp-gateway', version: '1.2.3' },
  capabilities: { tools: { listChanged: true } },
  instructions: 'Use the tools.',
  protocolVersions: ['2025-11-25', '2025-06-18'],
  maxMessageBytes: 1024,
  tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
};

describe('the --stdio catalog cache', () => {
  it('keys a start by its arguments, folder, environment and config bytes', () => {
    const dir = tempDir();
    const config = join(dir, 'gateway.config.yaml');
    writeFileSync(config, 'plugins: {}\n');
    const env = { MCP_GATEWAY_CACHE_DIR: join(dir, 'cache') };
    const base = stdioCacheSlot(['--stdio', '--config', config], env, dir);
    assert.equal(stdioCacheSlot(['--stdio', '--config', config], env, dir).key, base.key, 'the same start, the same key');
    assert.equal(join(base.file, '..'), join(dir, 'cache'));
    assert.notEqual(stdioCacheSlot(['--stdio', '--config', config, '--workspace', dir], env, dir).key, base.key);
    assert.notEqual(stdioCacheSlot(['--stdio', '--config', config], { ...env, TOKEN: 'x' }, dir).key, base.key);
    assert.notEqual(stdioCacheSlot(['--stdio', '--config', config], env, join(dir, '..')).key, base.key);
    writeFileSync(config, 'plugins: {files: {}}\n');
    assert.notEqual(stdioCacheSlot(['--stdio', '--config', config], env, dir).key, base.key, 'an edited config file');
    // The default config file, from the working directory, counts as well.
    const implicit = stdioCacheSlot(['--stdio'], env, dir);
    writeFileSync(config, 'plugins: {process: {}}\n');
    assert.notEqual(stdioCacheSlot(['--stdio'], env, dir).key, implicit.key);
  });

  it('puts the cache in MCP_GATEWAY_CACHE_DIR, else under XDG_CACHE_HOME, else ~/.cache', () => {
    assert.equal(cacheDir({ MCP_GATEWAY_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }), '/c');
    assert.equal(cacheDir({ XDG_CACHE_HOME: '/x' }), join('/x', 'mcp-gateway'));
    assert.match(cacheDir({}), /\.cache[/\\]mcp-gateway$/);
  });

  it('reads back only a snapshot written for the same key, and ignores damaged files', () => {
    const dir = tempDir();
    const slot = { file: join(dir, 'cache', 'stdio-0123456789abcdef0123456789abcdef.json'), key: 'k1' };
    assert.equal(readSnapshot(slot), undefined, 'none yet');
    writeSnapshot(slot, content);
    assert.deepEqual(readSnapshot(slot), { format: 1, key: 'k1', ...content });
    assert.equal(statSync(slot.file).mode & 0o777, 0o600);
    assert.equal(readSnapshot({ ...slot, key: 'k2' }), undefined, 'another key');
    chmodSync(slot.file, 0o620);
    assert.equal(readSnapshot(slot), undefined, 'a file others may write');
    chmodSync(slot.file, 0o600);
    assert.ok(readSnapshot(slot));
    writeFileSync(slot.file, '{"format":1,"key":"k1","tools":');
    assert.equal(readSnapshot(slot), undefined, 'cut short');
    writeFileSync(slot.file, JSON.stringify({ format: 1, key: 'k1', ...content, protocolVersions: [] }));
    assert.equal(readSnapshot(slot), undefined, 'no protocol version to answer');
  });

  it('deletes snapshots unused for 30 days when it writes one', () => {
    const dir = tempDir();
    const old = join(dir, 'stdio-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json');
    const recent = join(dir, 'stdio-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json');
    const other = join(dir, 'notes.json');
    for (const file of [old, recent, other]) writeFileSync(file, '{}');
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    utimesSync(old, longAgo, longAgo);
    utimesSync(other, longAgo, longAgo);
    writeSnapshot({ file: join(dir, 'stdio-cccccccccccccccccccccccccccccccc.json'), key: 'k' }, content);
    assert.deepEqual(readdirSync(dir).sort(), ['notes.json', 'stdio-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json', 'stdio-cccccccccccccccccccccccccccccccc.json']);
  });
});

describe('the --stdio catalog cache, written by gateways that start at once or are killed', () => {
  it("is written past a temporary file a killed writer left, whose pid this process has now", () => {
    const dir = tempDir();
    const slot = { file: join(dir, 'stdio-dddddddddddddddddddddddddddddddd.json'), key: 'k' };
    // What a writer of the same pid left when it was killed between its write and its rename.
    writeFileSync(`${slot.file}.${process.pid}.tmp`, '{"format":1,"key":"k","tools":', { mode: 0o600 });
    writeSnapshot(slot, content);
    assert.deepEqual(readSnapshot(slot), { format: 1, key: 'k', ...content });
  });

  it('deletes temporary files of killed writers after an hour, and never a fresh one (a write under way)', () => {
    const dir = tempDir();
    const name = 'stdio-eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.json';
    const [left, underWay] = [join(dir, `${name}.4242.0123abcd.tmp`), join(dir, `${name}.4343.89abcdef.tmp`)];
    for (const file of [left, underWay]) writeFileSync(file, '{');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(left, twoHoursAgo, twoHoursAgo);
    writeSnapshot({ file: join(dir, name), key: 'k' }, content);
    assert.deepEqual(readdirSync(dir).sort(), [name, `${name}.4343.89abcdef.tmp`]);
  });
});

describe('answers from the snapshot', () => {
  const snapshot: CatalogSnapshot = { format: 1, key: 'k', ...content };
  const init = (id: number | string, protocolVersion = '2025-06-18') => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });

  it('answers initialize as the SDK does (and keeps it for the session), then tools/list and ping', () => {
    const answers = new CachedAnswers(snapshot);
    const first = answers.handle(init(7));
    assert.equal(first.keep, true, 'replayed to the session, which learns the client from it');
    assert.deepEqual(first.reply, {
      jsonrpc: '2.0',
      id: 7,
      result: { protocolVersion: '2025-06-18', capabilities: content.capabilities, serverInfo: content.serverInfo, instructions: content.instructions },
    });
    assert.equal(answers.initializeId, 7);
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }), { keep: true });
    assert.equal(answers.answeredTools, false);
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 'l', method: 'tools/list' }), { reply: { jsonrpc: '2.0', id: 'l', result: { tools: content.tools } }, keep: false });
    assert.equal(answers.answeredTools, true);
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 2, method: 'ping' }), { reply: { jsonrpc: '2.0', id: 2, result: {} }, keep: false });
  });

  it('answers an unknown protocol version with the latest', () => {
    assert.equal((new CachedAnswers(snapshot).handle(init(1, '1999-01-01')).reply!.result as { protocolVersion: string }).protocolVersion, '2025-11-25');
  });

  it('leaves to the session what it must answer itself', () => {
    const answers = new CachedAnswers(snapshot);
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { keep: true }, 'tools/list before initialize');
    assert.deepEqual(answers.handle({ ...init(1), params: { protocolVersion: '2025-06-18', capabilities: {} } }), { keep: true }, 'initialize without clientInfo');
    assert.deepEqual(answers.handle({ ...init(1), id: null }), { keep: true }, 'an id that is no id');
    assert.deepEqual(answers.handle({ id: 1, method: 'ping' }), { keep: true }, 'not JSON-RPC 2.0');
    assert.deepEqual(answers.handle([init(1)]), { keep: true }, 'a batch');
    assert.ok(answers.handle(init(2)).reply);
    assert.deepEqual(answers.handle(init(3)), { keep: true }, 'a second initialize');
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'x' } }), { keep: true }, 'a page the cache does not have');
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo' } }), { keep: true });
    assert.deepEqual(answers.handle({ jsonrpc: '2.0', id: 6, method: 'resources/list' }), { keep: true });
  });
});
