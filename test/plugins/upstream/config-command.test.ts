import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '../../../core/config/config.js';
import { runConfigCommand } from '../../../core/testing.js';
import upstream from '../../../plugins/upstream/index.js';
import { BIN, ROOT, tempDir } from '../../helpers.js';

/** `mcp-gateway ARGS` (the built binary) in `cwd`, without a config named by the environment. */
function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const { MCP_GATEWAY_CONFIG: _, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env }, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function servers(file: string): any[] {
  return parse(readFileSync(file, 'utf8')).plugins.upstream.config.servers;
}

/**
 * `mcp-gateway upstream ...` in process, through the testing export, its output recorded (each
 * spawn of the binary costs a second of start-up), in a folder of its own so that a default
 * ./gateway.config.yaml is never the repository's.
 */
const folder = tempDir();
const inProcess = (args: string[]) => runConfigCommand(upstream, args, { cwd: folder });

const SHIPPED = readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8');

describe('mcp-gateway upstream add | list | remove', () => {
  const dir = tempDir();
  const file = join(dir, 'gateway.config.yaml');
  writeFileSync(file, SHIPPED);
  chmodSync(file, 0o640);

  it('add NAME -- COMMAND: everything after -- is the command line, -y and --flag included', () => {
    const result = cli(['upstream', 'add', 'fs', '--env', 'KEY=value', '--cwd', 'sub', '--timeout', '5000', '--optional', '--', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '.', '--flag'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(servers(file), [
      { name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.', '--flag'], env: { KEY: 'value' }, cwd: 'sub', timeoutMs: 5000, optional: true },
    ]);
    assert.match(result.stdout, new RegExp(`^Updated ${file}: added the upstream server "fs"\\.`));
    assert.match(result.stdout, /fs\s+stdio\s+fs_\s+enabled, optional\s+npx -y @modelcontextprotocol\/server-filesystem \. --flag/);
    assert.match(result.stdout, /restart the gateway, then `mcp-gateway tools` lists its tools \(named fs_…\)/);
    assert.equal(result.stderr, '');
  });

  it('the comments and layout of the file are kept, and so is its mode', () => {
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith(SHIPPED), 'the shipped file is still there byte for byte; the server comes after it');
    assert.match(text.slice(SHIPPED.length), /^ {2}upstream:\n {4}config:\n {6}servers:\n {8}- name: fs\n {10}command: npx\n {10}args: \["-y", "@modelcontextprotocol\/server-filesystem", "\.", "--flag"\]\n/);
    assert.equal(statSync(file).mode & 0o777, 0o640);
  });

  it('add NAME --url: an HTTP server; a literal token is written with a hint, ${VAR} without', async () => {
    const literal = cli(['upstream', 'add', 'remote', '--url', 'https://example.com/mcp', '--header', 'Authorization: Bearer 0123456789abcdef0123456789abcdef', '--prefix', 'rm_'], dir);
    assert.equal(literal.code, 0, literal.stderr);
    const hints = literal.stdout.split('\n').filter((line) => line.startsWith('Hint:'));
    assert.equal(hints.length, 1);
    assert.match(hints[0]!, /^Hint: Authorization is written to .* as typed; '\$\{VAR\}' \(in single quotes, so the shell leaves it\) keeps the secret in the environment and out of the file\.$/);
    const variable = await inProcess(['add', 'other', '--url', 'http://127.0.0.1:9000/mcp', '--header', 'Authorization: Bearer ${OTHER_TOKEN}', '--header', 'X-Team: tools', '--config', file]);
    assert.equal(variable.code, 0, variable.stderr);
    assert.doesNotMatch(variable.stdout, /Hint:/);
    assert.deepEqual(servers(file).slice(1), [
      { name: 'remote', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer 0123456789abcdef0123456789abcdef' }, prefix: 'rm_' },
      { name: 'other', url: 'http://127.0.0.1:9000/mcp', headers: { Authorization: 'Bearer ${OTHER_TOKEN}', 'X-Team': 'tools' } },
    ]);
  });

  it('the gateway reads what was written (${VAR} expanded by the loader)', () => {
    const config = loadConfig({ file, env: { OTHER_TOKEN: 'secret' }, unsetWorkspace: 'none' });
    const list = (config.plugins.upstream!.config as any).servers;
    assert.deepEqual(list.map((s: any) => s.name), ['fs', 'remote', 'other']);
    assert.equal(list[2].headers.Authorization, 'Bearer secret');
  });

  it('list: a table of name, kind, prefix, state and command line or URL', () => {
    const result = cli(['upstream', 'list'], dir);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^NAME\s+KIND\s+PREFIX\s+STATE\s+COMMAND OR URL$/);
    assert.match(lines[1]!, /^fs\s+stdio\s+fs_\s+enabled, optional\s+npx -y @modelcontextprotocol\/server-filesystem \. --flag$/);
    assert.match(lines[2]!, /^remote\s+http\s+rm_\s+enabled\s+https:\/\/example\.com\/mcp$/);
    assert.match(lines[3]!, /^other\s+http\s+other_\s+enabled\s+http:\/\/127\.0\.0\.1:9000\/mcp$/);
    assert.equal(lines.length, 4);
  });

  it('list --json: the entries, with env and header names but not their values', async () => {
    const result = await inProcess(['list', '--json', '--config', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [
      { name: 'fs', kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.', '--flag'], env: ['KEY'], cwd: 'sub', timeoutMs: 5000, optional: true, prefix: 'fs_', enabled: true },
      { name: 'remote', kind: 'http', url: 'https://example.com/mcp', headers: ['Authorization'], prefix: 'rm_', enabled: true, optional: false },
      { name: 'other', kind: 'http', url: 'http://127.0.0.1:9000/mcp', headers: ['Authorization', 'X-Team'], prefix: 'other_', enabled: true, optional: false },
    ]);
    assert.doesNotMatch(result.stdout, /0123456789abcdef/);
  });

  it('remove: the servers go one by one; the last leaves servers: [] and the file as it was', async () => {
    for (const name of ['remote', 'fs']) {
      const result = await inProcess(['remove', name, '--config', file]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`the upstream server "${name}" is removed`));
    }
    const last = cli(['upstream', 'remove', 'other'], dir);
    assert.equal(last.code, 0, last.stderr);
    assert.equal(last.stdout, `Updated ${file}: the upstream server "other" is removed. Restart the gateway for it to stop serving its tools.\n`);
    assert.equal(readFileSync(file, 'utf8'), `${SHIPPED}  upstream:\n    config:\n      servers: []\n`);
    assert.match((await inProcess(['list', '--config', file])).stdout, /^No upstream servers \(none in .*gateway\.config\.yaml\)/);
    assert.deepEqual(JSON.parse((await inProcess(['list', '--json', '--config', file])).stdout), []);
  });
});

describe('mcp-gateway upstream: which file', () => {
  it('a file without a plugins section gets one, after what it has', async () => {
    const dir = tempDir();
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, '# mine\nlogLevel: warn   # quiet\n');
    const result = await inProcess(['add', 'mem', '--config', file, '--', 'npx', '-y', '@modelcontextprotocol/server-memory']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      readFileSync(file, 'utf8'),
      '# mine\nlogLevel: warn   # quiet\nplugins:\n  upstream:\n    config:\n      servers:\n        - name: mem\n          command: npx\n          args: ["-y", "@modelcontextprotocol/server-memory"]\n',
    );
    assert.match(result.stdout, new RegExp(`\`mcp-gateway tools --config ${file}\``), 'the next step names the same file');
  });

  it('no file: ./gateway.config.yaml is made; MCP_GATEWAY_CONFIG is followed as the other commands do', () => {
    const dir = tempDir();
    const made = cli(['upstream', 'add', 'fs', '--', 'npx', 'pkg'], dir);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^Created .*gateway\.config\.yaml: added the upstream server "fs"/);
    assert.deepEqual(servers(join(dir, 'gateway.config.yaml')), [{ name: 'fs', command: 'npx', args: ['pkg'] }]);
    const other = join(dir, 'other.yaml');
    const byEnv = cli(['upstream', 'add', 'web', '--url', 'https://example.com/mcp'], dir, { MCP_GATEWAY_CONFIG: 'other.yaml' });
    assert.equal(byEnv.code, 0, byEnv.stderr);
    assert.deepEqual(servers(other), [{ name: 'web', url: 'https://example.com/mcp' }]);
    assert.equal(servers(join(dir, 'gateway.config.yaml')).length, 1);
  });

  it('list without a file says so', async () => {
    const missing = join(tempDir(), 'gateway.config.yaml');
    const result = await inProcess(['list', '--config', missing]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `No upstream servers (there is no ${missing}). Add one: mcp-gateway upstream add NAME -- COMMAND [ARGS...]\n`);
  });

  it('names a plugin that the file turns off', async () => {
    const file = join(tempDir(), 'gateway.config.yaml');
    writeFileSync(file, 'plugins:\n  upstream:\n    enabled: false\n');
    const result = await inProcess(['add', 'fs', '--config', file, '--', 'npx', 'pkg']);
    assert.match(result.stdout, /Note: the upstream plugin is disabled in this file \(plugins\.upstream\.enabled: false\)/);
  });
});

describe('mcp-gateway upstream refuses, with one line and exit code 1, leaving the file as it was', () => {
  const dir = tempDir();
  const file = join(dir, 'gateway.config.yaml');
  const start = 'plugins:\n  upstream:\n    config:\n      servers:\n        - name: fs\n          command: npx\n';
  const refusals: Array<[string, string[], RegExp]> = [
    ['a bad name', ['add', 'Files', '--', 'npx'], /^mcp-gateway upstream add: "Files" is not a server name: lowercase letters/],
    ['a name too long', ['add', `a${'b'.repeat(32)}`, '--', 'npx'], /is not a server name/],
    ['neither a command nor --url', ['add', 'web'], /give the server's command after -- \(.*\) or --url URL\.$/],
    ['both a command and --url', ['add', 'web', '--url', 'https://example.com/mcp', '--', 'npx'], /give either a command after -- \(a stdio server\) or --url \(an HTTP server\), not both\.$/],
    ['--url that is not http(s)', ['add', 'web', '--url', 'ftp://example.com/mcp'], /--url must be an http:\/\/ or https:\/\/ URL, not "ftp:\/\/example\.com\/mcp"\.$/],
    ['--url that is no URL', ['add', 'web', '--url', 'https://exa mple.com'], /--url must be an http:\/\/ or https:\/\/ URL/],
    ['an unknown option', ['add', 'web', '--colour', '--', 'npx'], /^mcp-gateway upstream: Unknown option '--colour'; a server's command and its own options go after --/],
    ['a command without --', ['add', 'web', 'npx', '-y', 'pkg'], /Unknown option '-y'; a server's command and its own options go after --/],
    ['a command without -- (no flags in it)', ['add', 'web', 'node', 'server.js'], /unexpected "node": the server's command goes after --, as in: mcp-gateway upstream add web -- node server\.js$/],
    ['an option of another subcommand', ['remove', 'fs', '--url', 'https://example.com'], /--url is not an option of "upstream remove"/],
    ['--header without --url', ['add', 'web', '--header', 'A: b', '--', 'npx'], /--header is for an HTTP server/],
    ['--env with --url', ['add', 'web', '--url', 'https://example.com', '--env', 'A=b'], /--env and --cwd are for a server started as a command/],
    ['a header without a colon', ['add', 'web', '--url', 'https://example.com', '--header', 'Bearer x'], /"Bearer x" is not a header/],
    ['a header given twice', ['add', 'web', '--url', 'https://example.com', '--header', 'A: 1', '--header', 'a: 2'], /the header a is given twice/],
    ['an env without =', ['add', 'web', '--env', 'KEY', '--', 'npx'], /"KEY" is not an environment variable \(--env KEY=VALUE\)\.$/],
    ['a timeout that is not a number', ['add', 'web', '--timeout', '5s', '--', 'npx'], /--timeout is in milliseconds/],
    ['a prefix that makes no tool name', ['add', 'web', '--prefix', 'My.', '--', 'npx'], /--prefix "My\.": lowercase letters, digits and "_"/],
    ['remove of an absent name', ['remove', 'ghost'], /^mcp-gateway upstream remove: no server "ghost" in .* \(there are: fs\)\.$/],
    ['remove without a name', ['remove'], /which server\? mcp-gateway upstream remove NAME/],
    ['a word too many', ['remove', 'fs', 'web'], /^mcp-gateway upstream remove: unexpected "web"\.$/],
    ['list with a name', ['list', 'fs'], /^mcp-gateway upstream list: unexpected "fs"\.$/],
    ['an unknown option of list', ['list', '--all'], /^mcp-gateway upstream: Unknown option '--all'; see mcp-gateway upstream --help$/],
  ];
  for (const [label, args, message] of refusals) {
    it(label, async () => {
      writeFileSync(file, start);
      const result = await inProcess([...args, '--config', file]);
      assert.equal(result.code, 1, result.stdout);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^[^\n]*\n$/, 'one line');
      assert.match(result.stderr.trimEnd(), message);
      assert.equal(readFileSync(file, 'utf8'), start);
    });
  }

  it('a name already present (the built binary: exit code 1, the message on stderr)', () => {
    writeFileSync(file, start);
    const result = cli(['upstream', 'add', 'fs', '--', 'npx', 'other'], dir);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `mcp-gateway upstream add: a server named "fs" is already in ${file}; run \`mcp-gateway upstream remove fs\` first.\n`);
    assert.equal(readFileSync(file, 'utf8'), start);
  });

  it('a servers key that is not a list: CONFIG_INVALID naming the file and key', () => {
    writeFileSync(file, 'plugins:\n  upstream:\n    config:\n      servers: fs\n');
    const result = cli(['upstream', 'add', 'web', '--url', 'https://example.com'], dir);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `mcp-gateway: CONFIG_INVALID: ${file}: plugins.upstream.config.servers must be a list; fix it by hand first.\n`);
  });

  it('remove takes out an entry whose name add would refuse, after one that is no mapping', async () => {
    writeFileSync(file, 'plugins:\n  upstream:\n    config:\n      servers:\n        - just a string\n        - name: Bad.Name\n          command: x\n');
    const result = await inProcess(['remove', 'Bad.Name', '--config', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(file, 'utf8'), 'plugins:\n  upstream:\n    config:\n      servers:\n        - just a string\n');
  });

  it('remove with no config file at all', async () => {
    const missing = join(tempDir(), 'gateway.config.yaml');
    const result = await inProcess(['remove', 'fs', '--config', missing]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `mcp-gateway upstream remove: there is no ${missing}, so no server "fs" in it.\n`);
    assert.equal(existsSync(missing), false);
  });

  it('without a subcommand, or with an unknown one: the usage on stderr; --help: on stdout, exit 0', async () => {
    assert.match((await inProcess([])).stderr, /^mcp-gateway upstream: add, remove or list\?\n\nUsage:/);
    const unknown = await inProcess(['rename', 'fs']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^mcp-gateway upstream: unknown command "rename"\n\nUsage:/);
    const help = await inProcess(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /mcp-gateway upstream add NAME \[options\] -- COMMAND \[ARGS\.\.\.\]/);
    assert.match(cli(['--help'], dir).stdout, /mcp-gateway upstream add NAME --url URL \[options\]\n\s+mcp-gateway upstream remove NAME \| list \[--json\]/);
  });
});
