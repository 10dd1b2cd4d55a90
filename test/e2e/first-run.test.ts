import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { INSPECTOR_PACKAGE } from '../../core/auth/owner-key.js';
import { BIN, freePort, ROOT, safeJson, spawnGateway, tempDir, waitFor, writeConfig } from '../helpers.js';

/** A new user's environment: no MCP_GATEWAY_CONFIG, no moved ports, unless `extra` says so. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The test run's own cache folder stays: a user's ~/.cache is not the tests' to fill.
    if (value !== undefined && (!name.startsWith('MCP_GATEWAY_') || name === 'MCP_GATEWAY_CACHE_DIR')) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Where the README's client entry without --config used to crash: a folder in which the data
 * folder cannot be made (`/` for a normal user; here `.gateway` is a file, which stops root too).
 */
function clientStartFolder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, '.gateway'), 'a file where the data folder would go\n');
  return dir;
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'first-run', version: '1' } } };

describe('a start without a config file', () => {
  // A bound, not a timing assertion: a start that waits for its client forever must not hold the run.
  it('--stdio answers the real SDK client with CONFIG_NOT_FOUND saying to pass --config, instead of closing the connection', { timeout: 60_000 }, async () => {
    const dir = clientStartFolder();
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio'], cwd: dir, env: userEnv(), stderr: 'pipe' });
    const client = new Client({ name: 'first-run', version: '1.0.0' });
    await assert.rejects(client.connect(transport), (err: Error & { data?: { code?: string } }) => {
      assert.equal(err.data?.code, 'CONFIG_NOT_FOUND');
      assert.match(err.message, new RegExp(`working directory ${dir} has no gateway\\.config\\.yaml`));
      assert.match(err.message, new RegExp(`Pass --config ${join(ROOT, 'gateway.config.yaml')} \\(the shipped one\\)`));
      return true;
    });
    await client.close();
  });

  it('--stdio writes one line on stderr, nothing else on stdout, exits 1 and creates nothing', { timeout: 60_000 }, async () => {
    const dir = clientStartFolder();
    const child = spawn(process.execPath, [BIN, '--stdio'], { cwd: dir, env: userEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    assert.equal(await exited, 1);
    const [answer, ...more] = stdout.split('\n').filter(Boolean);
    assert.deepEqual(more, []);
    const error = JSON.parse(answer!).error;
    assert.equal(JSON.parse(answer!).id, 1);
    assert.equal(error.code, -32000);
    assert.equal(error.data.code, 'CONFIG_NOT_FOUND');
    assert.deepEqual(stderr.split('\n').filter(Boolean), [`mcp-gateway: CONFIG_NOT_FOUND: ${error.message}`]);
    assert.deepEqual(readdirSync(dir), ['.gateway']);
  });

  it('serve stops with the same line from a folder it could write to, where it used to serve no plugin', () => {
    const dir = tempDir();
    const result = spawnSync(process.execPath, [BIN, 'serve'], { cwd: dir, env: userEnv(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^mcp-gateway: CONFIG_NOT_FOUND: No config file: .* Pass --config .*\n$/);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('a --stdio boot that fails after the config was read', () => {
  it('answers the client\'s initialize with the reason, which the client shows, instead of closing the connection', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const config = writeConfig(dir, { dataDir: join(dir, 'data'), workspace: dir, plugins: { 'no-such-plugin': {} } });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config], env: userEnv(), stderr: 'pipe' });
    const client = new Client({ name: 'first-run', version: '1.0.0' });
    await assert.rejects(client.connect(transport), (err: Error & { data?: { code?: string } }) => {
      assert.equal(err.data?.code, 'CONFIG_INVALID');
      assert.match(err.message, /no plugin "no-such-plugin" in the registry/);
      return true;
    });
    await client.close();
  });
});

describe('the lines to paste, with the ports moved', () => {
  it('the start banner names the ports in use in every line, and its lines work when pasted', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'README.md'), '# A project\n\nfirst lines\n');
    // The shipped config's way of moving ports.
    const config = writeConfig(dir, {
      dataDir: '.gateway',
      workspace: '.',
      logLevel: 'info',
      transports: { http: { port: '${MCP_GATEWAY_HTTP_PORT:-9101}' }, tcp: { port: '${MCP_GATEWAY_TCP_PORT:-9100}' }, unix: { enabled: false } },
      plugins: { files: {} },
    });
    const [http, tcp] = await twoOtherPorts();
    const moved = { MCP_GATEWAY_HTTP_PORT: String(http), MCP_GATEWAY_TCP_PORT: String(tcp) };
    const first = spawnGateway(['serve', '--config', config], { cwd: dir, env: userEnv(moved) });
    await first.listening(2);
    await waitFor(() => first.stderrLines.some((line) => line.startsWith('  TCP')));
    const banner = first.stderrLines.filter((line) => !safeJson(line));
    assertNamesPorts(banner, http, tcp);
    assert.ok(banner.some((line) => line.startsWith(`  npx -y ${INSPECTOR_PACKAGE} --cli http://127.0.0.1:${http}/mcp --header`)), banner.join('\n'));
    assert.ok(banner.includes(`  TCP 127.0.0.1:${tcp}: send it in initialize as params._meta.apiKey. stdio and the unix socket need no key.`));

    // Pasted into another shell, where the ports are not moved: the lines carry them.
    const curl = banner.find((line) => line.trim().startsWith('curl '))!;
    assert.equal(JSON.parse(shell(`${curl} -s`, dir)).success, true);
    const explorer = banner.find((line) => line.trim().startsWith('explorer: '))!.trim().slice('explorer: '.length);
    assert.ok((await fetch(explorer, { redirect: 'manual' })).status < 400, explorer);
    // The README's own lines, in a shell that moved the port as the README says.
    const answers = shell(readmeBlock('KEY=$(cat .gateway/owner.key)'), dir, moved).split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(answers.map((a) => a.success), [true, true]);
    assert.match(answers[1].data.content, /first lines/);
    assert.equal(await first.stop(), 0);

    // A later start names the command that prints the lines again, for the ports in use.
    const second = spawnGateway(['serve', '--config', config], { cwd: dir, env: userEnv(moved) });
    await second.listening(2);
    await waitFor(() => second.stderrLines.some((line) => String(safeJson(line)?.msg).includes('keys owner')));
    const message = String(second.stderrLines.map((line) => safeJson(line)?.msg).find((msg) => String(msg).includes('keys owner')));
    const command = /`(npx mcp-gateway keys owner[^`]*)`/.exec(message)![1]!;
    const printed = shell(command.replace('npx mcp-gateway', `${process.execPath} ${BIN}`), dir).split('\n');
    assertNamesPorts(printed, http, tcp);
    assert.ok(printed.some((line) => line.includes(`http://127.0.0.1:${http}/mcp`)));
    assert.ok(printed.some((line) => line.startsWith(`  TCP 127.0.0.1:${tcp}:`)));
    assert.equal(await second.stop(), 0);
  });

  it('README.md pins the same Inspector as the banner and names no fixed port in a command', () => {
    const commands = readmeShellLines();
    const inspector = commands.filter((line) => line.includes('@modelcontextprotocol/inspector'));
    assert.equal(inspector.length, 2);
    for (const line of inspector) assert.ok(line.startsWith(`npx -y ${INSPECTOR_PACKAGE} --cli`), line);
    for (const line of commands) assert.doesNotMatch(line.replace(/#.*$/, ''), /:910[01]\b/, line);
  });
});

/** Two free ports, neither of them the defaults (which the test must not find by chance). */
async function twoOtherPorts(): Promise<[number, number]> {
  const ports: number[] = [];
  while (ports.length < 2) {
    const port = await freePort();
    if (port !== 9100 && port !== 9101 && !ports.includes(port)) ports.push(port);
  }
  return [ports[0]!, ports[1]!];
}

/** Every line that names an address names the ones in use, never the shipped defaults. */
function assertNamesPorts(lines: readonly string[], http: number, tcp: number): void {
  for (const line of lines) {
    assert.doesNotMatch(line, /:910[01]\b/, line);
    for (const [, port] of line.matchAll(/127\.0\.0\.1:(\d+)/g)) assert.ok([String(http), String(tcp)].includes(port!), line);
    if (line.includes('http://')) assert.ok(line.includes(`http://127.0.0.1:${http}/`), line);
  }
}

/** Runs a pasted line in sh, in `cwd`, with a user's environment; its stdout. */
function shell(line: string, cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync('sh', ['-c', line], { cwd, env: userEnv(env), encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, `${line}\n${result.stderr}`);
  return result.stdout;
}

/** The lines of README.md's shell blocks, without comments-only lines. */
function readmeShellLines(): string[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => block!.split('\n')).filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** README.md's shell block that starts with `first`, as one script (each curl answer on a line). */
function readmeBlock(first: string): string {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, b]) => b!).find((b) => b.startsWith(first));
  assert.ok(block, `README.md has a shell block starting with ${first}`);
  return block.split('\n').filter((line) => line.trim() && !line.startsWith('#')).map((line) => (line.startsWith('curl ') ? `${line} -s; echo` : line)).join('\n');
}
