import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, resultJson, socketClient, spawnGateway, tempDir, testConfigObject, waitFor, WITH_RELAY, writeConfig } from '../helpers.js';

/** A temp dir with a config file enabling the echo plugin from its own registry folder. */
function setup(overrides: Record<string, unknown> = {}): { dir: string; config: string } {
  const dir = tempDir();
  return { dir, config: writeConfig(dir, testConfigObject(dir, overrides)) };
}

function runCli(args: string[], cwd?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the mcp-gateway binary', () => {
  it('serves a real SDK client over stdio, with a plugin from outside plugins/', async () => {
    const { config } = setup();
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config], stderr: 'pipe' });
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } });
      assert.equal(resultJson(result).text, 'over stdio');
      assert.equal(resultJson(result).caller.transport, 'stdio');
      const status = (await client.callTool({ name: 'gateway_status', arguments: {} })).structuredContent as any;
      assert.deepEqual(status.sessions, { stdio: 1 });
    } finally {
      await client.close();
    }
  });

  it('writes nothing but JSON-RPC to stdout, even at log level trace and on failures', async () => {
    const { config } = setup({ logLevel: 'trace' });
    const child = spawn(process.execPath, [BIN, '--stdio', '--config', config], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo_fail', arguments: { kind: 'unexpected' } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 1 } } },
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'missing' } },
    ];
    for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    child.stdin.write('this is not json\n');
    await waitFor(() => stdout.split('\n').filter(Boolean).length >= 7);
    child.stdin.end();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, 'closing stdin ends the gateway cleanly');

    const lines = stdout.split('\n').filter(Boolean);
    assert.equal(lines.length, 7);
    for (const line of lines) {
      const message = JSON.parse(line);
      assert.equal(message.jsonrpc, '2.0', line);
      assert.ok('result' in message || 'error' in message, line);
    }
    assert.match(stderr, /"msg":"gateway ready"/, 'logs go to stderr');
    assert.match(stderr, /secret internal detail/, 'the internal error is logged on stderr...');
    assert.doesNotMatch(stdout, /secret internal detail/, '...and not sent to the client');
  });

  it('answers the calls a client sent before it closed stdin, then exits 0', async () => {
    const { config } = setup();
    const child = spawn(process.execPath, [BIN, '--stdio', '--config', config], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.resume();
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    // A stdin closed during the boot stops the boot; the client here waits for it.
    await waitFor(() => stdout.includes('"id":1'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'last words' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    child.stdin.end();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    const replies = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(replies.map((r) => r.id).sort(), [1, 2, 3]);
    assert.equal(JSON.parse(replies.find((r) => r.id === 2).result.content[0].text).text, 'last words');
  });

  it('keeps a call\'s data when killed with SIGKILL right after answering', async () => {
    const { dir, config } = setup();
    const child = spawn(process.execPath, [BIN, '--stdio', '--config', config], { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'durable', record: true } } })}\n`);
    await waitFor(() => stdout.includes('"id":1'));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'), { readonly: true });
    try {
      assert.deepEqual(db.prepare('SELECT text FROM echo_calls').all(), [{ text: 'durable' }]);
      // The audit row waited in the killed process's journal; the next start folds it in.
      const next = spawnSync(process.execPath, [BIN, 'tools', '--config', config], { stdio: 'ignore' });
      assert.equal(next.status, 0);
      const audit = db.prepare('SELECT transport, tool, outcome FROM core_audit').all();
      assert.deepEqual(audit, [{ transport: 'stdio', tool: 'echo', outcome: 'ok' }]);
    } finally {
      db.close();
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serve: TCP and unix socket, then ${signal} closes everything and exits 0`, async () => {
      const { dir, config } = setup({ logLevel: 'info' });
      const socketPath = join(dir, 'gw.sock');
      const gateway = spawnGateway(['serve', '--config', config, '--http', '127.0.0.1:0', '--tcp', '127.0.0.1:0', '--unix', socketPath]);
      const addresses = await gateway.listening(3);
      assert.deepEqual(addresses.map((a) => a.kind).sort(), ['http', 'tcp', 'unix']);
      const http = addresses.find((a) => a.kind === 'http')!;
      const rest = await fetch(`http://127.0.0.1:${http.port}/tools/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"http"}' });
      assert.equal(((await rest.json()) as any).data.text, 'http');
      for (const address of addresses) {
        if (address.kind === 'http') continue;
        const { client } = await socketClient(address);
        assert.equal(resultJson(await client.callTool({ name: 'echo', arguments: { text: address.kind } })).text, address.kind);
        // Left open on purpose: shutdown must cope with connected clients.
      }
      assert.equal(existsSync(socketPath), true);
      const code = await gateway.stop(signal);
      assert.equal(code, 0, gateway.stderrLines.join('\n'));
      assert.equal(existsSync(socketPath), false, 'the socket file is removed');
      assert.ok(gateway.stderrLines.some((l) => l.includes('"msg":"stopped"')));
    });
  }

  it('serve: warns loudly when TCP is bound to a non-loopback address, and refuses that with auth: none', async () => {
    const { config } = setup({ logLevel: 'info', auth: 'key' });
    const gateway = spawnGateway(['serve', '--config', config, '--tcp', '0.0.0.0:0', '--no-unix', '--no-http']);
    await gateway.listening(1);
    assert.ok(gateway.stderrLines.some((l) => /"level":40.*reachable from other machines.*plain text/.test(l)));
    assert.equal(await gateway.stop(), 0);
    const open = setup({ logLevel: 'info' });
    const refused = runCli(['serve', '--config', open.config, '--tcp', '0.0.0.0:0', '--no-unix', '--no-http']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /CONFIG_INVALID: Refusing to serve TCP on 0\.0\.0\.0 with auth: none/);
  });

  describe('CLI commands', () => {
    const { dir, config } = setup();

    it('tools lists every tool with its plugin; --json adds schemas', () => {
      const plain = runCli(['tools', '--config', config]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /^echo\s+echo\s+Returns the text it was given/m);
      assert.match(plain.stdout, /^gateway_status\s+gateway\s+/m);
      const json = runCli(['tools', '--json', '--config', config]);
      const tools = JSON.parse(json.stdout);
      assert.equal(tools.find((t: any) => t.name === 'echo').plugin, 'echo');
      assert.deepEqual(tools.find((t: any) => t.name === 'echo').inputSchema.required, ['text']);
    });

    it('tools shows where a relayed tool runs beside its plugin, and its origin in --json', () => {
      const relayed = setup(WITH_RELAY);
      const plain = runCli(['tools', '--config', relayed.config]);
      assert.equal(plain.code, 0, plain.stderr);
      const lines = plain.stdout.split('\n');
      const readFile = lines.find((l) => l.startsWith('relay_read_file '))!;
      const echo = lines.find((l) => l.startsWith('echo '))!;
      assert.match(readFile, /^relay_read_file\s+relay \(upstream fs: read_text_file\)\s+Relays read_text_file/);
      assert.match(echo, /^echo\s+echo\s+Returns the text it was given/);
      assert.equal(readFile.indexOf('Relays'), echo.indexOf('Returns'), 'one column for the descriptions');
      const tools = JSON.parse(runCli(['tools', '--json', '--config', relayed.config]).stdout);
      assert.equal(tools.find((t: any) => t.name === 'relay_search').origin, 'upstream web: search');
      assert.equal('origin' in tools.find((t: any) => t.name === 'echo'), false);
    });

    it('call prints the result and exits 0', () => {
      const result = runCli(['call', 'echo', '{"text": "from the shell", "times": 2}', '--config', config]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).text, 'from the shellfrom the shell');
    });

    const failing: Array<[string, string[], RegExp]> = [
      ['invalid arguments', ['call', 'echo', '{}'], /"code": "INVALID_ARGUMENTS"/],
      ['an unknown tool', ['call', 'nope'], /"code": "UNKNOWN_TOOL"/],
      ['arguments that are not JSON', ['call', 'echo', '{text'], /not valid JSON/],
      ['a declared plugin error', ['call', 'echo_fail', '{"kind": "declared"}'], /"code": "ECHO_REFUSED"/],
      ['an unknown command', ['frobnicate'], /Unknown command "frobnicate"/],
      ['an unknown flag', ['tools', '--colour'], /Unknown option '--colour'/],
    ];
    for (const [label, args, message] of failing) {
      it(`exits 1 on ${label}`, () => {
        // --config first: after a word that is no built-in command, the rest is a plugin command's.
        const result = runCli(['--config', config, ...args]);
        assert.equal(result.code, 1);
        assert.match(result.stderr, message);
      });
    }

    it('plugins lists the registry and what is enabled', () => {
      const result = runCli(['plugins', '--config', config]);
      assert.equal(result.code, 0, result.stderr);
      // Version and description come from the plugin object, their one source.
      assert.match(result.stdout, /^echo\s+enabled\s+1\.0\.0\s+Echoes, sleeps, fails and publishes events on request\./m);
    });

    it('keys create prints a key once and the config lines with its hash', () => {
      const result = runCli(['keys', 'create', '--name', 'ci', '--scope', 'file_*', '--scope', 'events']);
      assert.equal(result.code, 0, result.stderr);
      const key = /\n  (mgw_[A-Za-z0-9_-]{43})\n/.exec(result.stdout)?.[1];
      assert.ok(key, result.stdout);
      assert.match(result.stdout, /- name: ci\n\s+hash: sha256:[0-9a-f]{64}\n\s+scopes: \["file_\*", "events"\]/);
      assert.equal(runCli(['keys', 'create']).code, 1);
    });

    it('--help and --version', () => {
      assert.match(runCli(['--help']).stdout, /Usage:\n\s+mcp-gateway --stdio/);
      assert.match(runCli(['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
    });

    it('a port already in use stops serve with a message saying what to do', async () => {
      const { createServer } = await import('node:net');
      const taken = createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => taken.once('listening', resolve));
      const port = (taken.address() as { port: number }).port;
      try {
        const result = spawnSync(process.execPath, [BIN, 'serve', '--config', config, '--http', `127.0.0.1:${port}`, '--no-tcp', '--no-unix'], { encoding: 'utf8', timeout: 30_000 });
        assert.equal(result.status, 1);
        assert.match(result.stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use \\(another gateway\\?\\)`));
      } finally {
        taken.close();
      }
    });

    it('says how to load a plugin that exists only as TypeScript', () => {
      const registry = join(dir, 'ts-registry');
      mkdirSync(registry);
      writeFileSync(join(dir, 'typed.ts'), 'export default {};\n');
      writeFileSync(join(registry, 'typed.yaml'), 'name: typed\nmodule: ../typed.js\n');
      const tsConfig = writeConfig(dir, { ...testConfigObject(dir), registries: [registry], plugins: { typed: {} } }, 'typed.yaml');
      const result = runCli(['tools', '--config', tsConfig]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /PLUGIN_LOAD_FAILED: .*It exists only as TypeScript: compile it, or run the gateway with `node --import tsx`/);
    });

    it('a bad config stops the boot with a message naming the file and key', () => {
      const bad = writeConfig(dir, { transports: { tcp: { prot: 1 } } }, 'bad.yaml');
      const result = runCli(['tools', '--config', bad]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /CONFIG_INVALID: .*bad\.yaml: transports\.tcp: unknown key "prot"\. Valid keys:/);
    });
  });
});
