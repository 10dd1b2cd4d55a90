import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Root } from '@modelcontextprotocol/client';
import { SERVER_CAPABILITIES } from '../../core/mcp/mcp-session.js';
import { BIN, resultJson, tempDir, waitFor, writeConfig } from '../helpers.js';

/**
 * The workspace when the config sets none (issue 19, item 10): `--workspace`, the client's MCP
 * roots over --stdio, and the refusal of `/` and $HOME. Real binary, real SDK Client.
 */

/** A config with the files plugin and no `workspace`, in its own folder. */
function configWithoutWorkspace(): { dir: string; config: string } {
  const dir = tempDir();
  const config = writeConfig(join(dir), {
    dataDir: join(dir, 'data'),
    auth: 'none',
    logLevel: 'info',
    plugins: { files: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
  });
  return { dir, config };
}

/** A folder holding `note.txt`, for a root or a --workspace. */
function project(): string {
  const dir = realpathSync(tempDir('mcpgw-project-'));
  writeFileSync(join(dir, 'note.txt'), 'inside\n');
  return dir;
}

interface StdioSession {
  client: Client;
  stderr: () => string;
  setRoots(roots: Root[]): Promise<void>;
}

/** Starts `mcp-gateway --stdio` the way a client does; `roots` undefined = no roots capability. */
async function connect(args: string[], options: { cwd: string; env?: Record<string, string>; roots?: Root[] }): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--stdio', ...args],
    cwd: options.cwd,
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let roots = options.roots;
  const client = new Client({ name: 'roots-e2e', version: '1.0.0' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots! }));
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    setRoots: async (next) => {
      roots = next;
      await client.sendRootsListChanged();
    },
  };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: resultJson(result) };
}

const root = (path: string, name?: string): Root => ({ uri: pathToFileURL(path).href, ...(name ? { name } : {}) });

describe('the workspace over --stdio, from the client\'s MCP roots', () => {
  it('started in /, uses the first root: file tools work inside it and refuse outside', async () => {
    const { config } = configWithoutWorkspace();
    const inside = project();
    const other = project();
    const { client, stderr } = await connect(['--config', config], { cwd: '/', roots: [root(inside, 'project'), root(other)] });
    try {
      const read = await call(client, 'file_read', { path: 'note.txt' });
      assert.equal(read.isError, false, JSON.stringify(read.body));
      assert.match(JSON.stringify(read.body), /inside/);
      assert.equal((await call(client, 'file_write', { path: 'made.txt', content: 'x' })).isError, false);
      assert.equal(readFileSync(join(inside, 'made.txt'), 'utf8'), 'x');
      const outside = await call(client, 'file_read', { path: join(other, 'note.txt') });
      assert.equal(outside.body.code, 'OUTSIDE_WORKSPACE', 'only the first root is the workspace');
      assert.equal((await call(client, 'file_read', { path: '/etc/hostname' })).body.code, 'OUTSIDE_WORKSPACE');
      assert.match(stderr(), /"workspace":"[^"]+".*"msg":"workspace: the MCP client's first root"/);
    } finally {
      await client.close();
    }
  });

  it('holds requests sent before the roots are known and answers them in order, initialize once', async () => {
    const { config } = configWithoutWorkspace();
    const inside = project();
    const child = spawn(process.execPath, [BIN, '--stdio', '--config', config], { cwd: '/', stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const messages = () => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'file_read', arguments: { path: 'note.txt' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    await waitFor(() => messages().some((m) => m.method === 'roots/list'));
    const asked = messages().find((m) => m.method === 'roots/list');
    send({ jsonrpc: '2.0', id: asked.id, result: { roots: [root(inside)] } });
    await waitFor(() => messages().filter((m) => 'result' in m || 'error' in m).length >= 4);
    child.stdin.end();
    assert.equal(await new Promise((resolve) => child.once('exit', resolve)), 0);

    const answers = messages().filter((m) => 'id' in m && !('method' in m));
    // Held requests reach the session in order; like any JSON-RPC server, it may answer a
    // quick tools/list before a slower tools/call.
    assert.deepEqual(answers.slice(0, 2).map((m) => m.id), [1, 3], 'initialize and ping are answered before the roots are known');
    assert.deepEqual(answers.slice(2).map((m) => m.id).sort(), [2, 4], 'each held request answered once, initialize not twice');
    assert.equal(answers[0].result.protocolVersion, '2025-06-18');
    // The same capabilities a session with plugins answers: they are static.
    assert.deepEqual(answers[0].result.capabilities, SERVER_CAPABILITIES);
    const byId = (id: number) => answers.find((m) => m.id === id);
    assert.match(byId(2).result.content[0].text, /inside/);
    assert.ok(byId(4).result.tools.some((t: { name: string }) => t.name === 'file_read'));
  });

  it('keeps the workspace when the roots change, and logs what to do', async () => {
    const { config } = configWithoutWorkspace();
    const first = project();
    const second = project();
    const session = await connect(['--config', config], { cwd: '/', roots: [root(first)] });
    try {
      // A first call: the gateway has booted on the first root before the roots change.
      assert.equal((await call(session.client, 'file_read', { path: 'note.txt' })).isError, false);
      await session.setRoots([root(second)]);
      await waitFor(() => session.stderr().includes('roots changed'));
      assert.match(session.stderr(), /"level":40.*"firstRoot":"[^"]+".*the workspace stays as it was until the server restarts/);
      assert.equal((await call(session.client, 'file_read', { path: join(second, 'note.txt') })).body.code, 'OUTSIDE_WORKSPACE');
      assert.equal((await call(session.client, 'file_read', { path: 'note.txt' })).isError, false);
    } finally {
      await session.client.close();
    }
  });

  const noWorkspace: Array<[string, Root[] | undefined, RegExp]> = [
    ['a client without the roots capability', undefined, /the MCP client does not offer roots/],
    ['a client that lists no roots', [], /the MCP client lists no roots/],
    ['a first root that is not a folder', [{ uri: 'file:///nonexistent-mcpgw-root' }], /first root \/nonexistent-mcpgw-root cannot be used \(ENOENT\)/],
  ];
  for (const [label, roots, problem] of noWorkspace) {
    it(`${label}: lists only gateway_status, and every call says to set --workspace`, async () => {
      const { config } = configWithoutWorkspace();
      const home = tempDir('mcpgw-home-');
      const { client, stderr } = await connect(['--config', config], { cwd: home, env: { HOME: home }, roots });
      try {
        assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['gateway_status']);
        const refused = await call(client, 'gateway_status');
        assert.equal(refused.isError, true);
        assert.equal(refused.body.code, 'CONFIG_INVALID');
        assert.match(refused.body.message, problem);
        assert.match(refused.body.message, /Add "--workspace", "\/path\/to\/project" to this server's args .* or set workspace: in .*gateway\.config\.yaml/);
        assert.match(stderr(), /"level":50.*No workspace: /, 'the same message is in the server log');
        assert.equal(existsSync(join(home, '.gateway')), false, 'nothing was written to the home directory');
      } finally {
        await client.close();
      }
    });
  }

  it('--workspace wins over the roots and the config, relative to the working directory', async () => {
    const { dir, config } = configWithoutWorkspace();
    writeFileSync(config, `${readFileSync(config, 'utf8')}workspace: ${join(dir, 'data')}\n`);
    const parent = project();
    mkdirSync(join(parent, 'sub'));
    writeFileSync(join(parent, 'sub', 'note.txt'), 'flag\n');
    const rootDir = project();
    const { client } = await connect(['--config', config, '--workspace', 'sub'], { cwd: parent, roots: [root(rootDir)] });
    try {
      assert.deepEqual((await call(client, 'file_roots')).body.roots, [join(parent, 'sub')]);
      assert.match(JSON.stringify((await call(client, 'file_read', { path: 'note.txt' })).body), /flag/);
    } finally {
      await client.close();
    }
  });
});

describe('the workspace of serve and the one-shot commands', () => {
  const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });

  it('refuses / and $HOME as an unset workspace, naming the fix', () => {
    const { config } = configWithoutWorkspace();
    const home = realpathSync(tempDir('mcpgw-home-'));
    for (const [cwd, what] of [['/', 'the whole filesystem'], [home, 'your whole home directory']] as const) {
      for (const args of [['serve', '--no-http', '--no-tcp', '--no-unix'], ['tools']]) {
        const result = run([...args, '--config', config], cwd, { HOME: home });
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stderr, new RegExp(`CONFIG_INVALID: .*workspace is not set and the working directory is ${cwd}, which would make ${what} the workspace\\. Pass --workspace DIR, or set workspace: in the config`));
      }
      const plugins = run(['plugins', '--config', config], cwd, { HOME: home });
      assert.equal(plugins.status, 0, `plugins needs no workspace: ${plugins.stderr}`);
    }
  });

  it('--workspace makes $HOME (or any folder) the workspace when asked for explicitly', () => {
    const { config } = configWithoutWorkspace();
    const home = realpathSync(tempDir('mcpgw-home-'));
    const result = run(['call', 'file_write', '{"path": "from-cli.txt", "content": "ok"}', '--config', config, '--workspace', '.'], home, { HOME: home });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(join(home, 'from-cli.txt'), 'utf8'), 'ok');
  });
});
