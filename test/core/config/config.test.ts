import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig, resolveConfig } from '../../../core/config/config.js';
import { ROOT, tempDir } from '../../helpers.js';

const FILE = '/srv/gw/gateway.config.yaml';
const resolve = (raw: unknown, env: NodeJS.ProcessEnv = {}) => resolveConfig(raw, { file: FILE, env, cwd: '/srv/project-dir' });

describe('config', () => {
  it('fills every default from an empty file; paths relative to the file, workspace to the cwd', () => {
    const config = resolve({});
    assert.equal(config.dataDir, '/srv/gw/.gateway');
    assert.equal(config.workspace, '/srv/project-dir');
    assert.equal(config.logLevel, 'info');
    assert.equal(config.auth, 'key');
    assert.deepEqual(config.transports.tcp, { enabled: true, maxConnections: 64, maxMessageBytes: 10 * 1024 * 1024, maxReplyBytes: 40 * 1024 * 1024, host: '127.0.0.1', port: 9100, authTimeoutMs: 5000 });
    assert.equal(config.transports.unix.path, '/srv/gw/.gateway/gateway.sock');
    assert.equal(config.tools.timeoutMs, 60_000);
    assert.equal(config.breakers.resetTimeoutMs, 30_000);
    assert.deepEqual(config.plugins, {});
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.transports.tcp));
  });

  it('refuses to default the workspace to / or the home directory (clients start servers there)', () => {
    const fix = /Pass --workspace DIR, or set workspace: in the config/;
    assert.throws(() => resolveConfig({}, { env: {}, cwd: '/' }), /workspace is not set and the working directory is \/, which would make the whole filesystem/);
    assert.throws(() => resolveConfig({}, { env: {}, cwd: '/' }), fix);
    assert.throws(() => resolveConfig({}, { env: {}, cwd: '/home/ada', home: '/home/ada' }), /working directory is \/home\/ada, which would make your whole home directory the workspace/);
    assert.throws(() => resolveConfig({}, { env: {}, cwd: '/home/ada/', home: '/home/ada' }), fix);
    assert.equal(resolveConfig({}, { env: {}, cwd: '/home/ada/project', home: '/home/ada' }).workspace, '/home/ada/project');
    assert.equal(resolveConfig({ workspace: '/srv/project' }, { env: {}, cwd: '/' }).workspace, '/srv/project');
    assert.equal(resolveConfig({ workspace: '~' }, { env: {}, cwd: '/home/ada', home: '/home/ada' }).workspace, '/home/ada/~', 'a set workspace is taken as written');
  });

  it('--workspace wins over the config and is relative to the working directory', () => {
    assert.equal(resolveConfig({ workspace: 'cfg' }, { file: FILE, env: {}, cwd: '/', workspace: 'srv/flag' }).workspace, '/srv/flag');
    assert.equal(resolveConfig({}, { env: {}, cwd: '/home/ada', home: '/home/ada', workspace: '.' }).workspace, '/home/ada', 'set explicitly, home is allowed');
  });

  it('for --stdio, leaves an unset workspace to the client\'s roots instead of the working directory', () => {
    assert.equal(resolveConfig({}, { env: {}, cwd: '/', unsetWorkspace: 'none' }).workspace, undefined);
    assert.equal(resolveConfig({ workspace: 'p' }, { file: FILE, env: {}, cwd: '/', unsetWorkspace: 'none' }).workspace, '/srv/gw/p');
  });

  it('without a file, resolves paths against the working directory', () => {
    const config = resolveConfig({ dataDir: 'state', registries: ['extra'] }, { env: {}, cwd: '/srv/project-dir' });
    assert.equal(config.dataDir, '/srv/project-dir/state');
    assert.deepEqual(config.registries, ['/srv/project-dir/extra']);
    assert.equal(config.file, undefined);
  });

  it('applies plugin defaults: enabled unless said otherwise, empty config', () => {
    const config = resolve({ plugins: { files: {}, process: { enabled: false } } });
    assert.deepEqual(config.plugins.files, { enabled: true, config: {} });
    assert.equal(config.plugins.process?.enabled, false);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['an unknown top-level key, listing the valid ones', { dataDri: 'x' }, /gateway\.config\.yaml: \(root\): unknown key "dataDri"\. Valid keys: dataDir, auth, apiKeys, workspace, logLevel/],
    ['an unknown nested key', { transports: { tcp: { prot: 1 } } }, /transports\.tcp: unknown key "prot"\. Valid keys: enabled, maxConnections, maxMessageBytes, maxReplyBytes, host, port, authTimeoutMs/],
    ['a wrong type', { tools: { timeoutMs: 'soon' } }, /tools\.timeoutMs: must be integer/],
    ['an out-of-range port', { transports: { tcp: { port: 70000 } } }, /transports\.tcp\.port: must be <= 65535/],
    ['a bad log level', { logLevel: 'loud' }, /logLevel: must be one of "fatal", "error"/],
    ['a bad plugin name', { plugins: { 'Bad Name': {} } }, /plugins: key "Bad Name" must match pattern/],
    ['an unknown plugin setting', { plugins: { files: { enable: true } } }, /plugins\.files: unknown key "enable"\. Valid keys: enabled, optional, config/],
    ['a list at the top level', [1, 2], /the top level must be a mapping/],
    ['an API key scope outside the grammar', { apiKeys: [{ name: 'ci', hash: `sha256:${'0'.repeat(64)}`, scopes: ['plugins:files'] }] }, /apiKeys\[0\]\.scopes\[0\]: must match pattern/],
    ['API keys where they used to be', { transports: { http: { apiKeys: [] } } }, /transports\.http\.apiKeys moved to apiKeys at the top level/],
    ['the files plugin\'s refuseHardLinks where it used to be', { plugins: { files: { config: { refuseHardLinks: false } } } }, /plugins\.files\.config\.refuseHardLinks moved to refuseHardLinks at the top level/],
    ['an API key named owner', { apiKeys: [{ name: 'owner', hash: `sha256:${'0'.repeat(64)}`, scopes: ['*'] }] }, /the name "owner" is the owner key's/],
    ['a headers timeout above the request timeout', { transports: { http: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } } }, /headersTimeoutMs \(5000\) must not be above requestTimeoutMs/],
    ['auth: none with API keys', { auth: 'none', apiKeys: [{ name: 'ci', hash: `sha256:${'0'.repeat(64)}`, scopes: ['*'] }] }, /auth: none turns API keys off/],
  ];
  for (const [label, raw, message] of refused) {
    it(`refuses ${label}`, () => {
      assert.throws(() => resolve(raw), (err: any) => {
        assert.equal(err.code, 'CONFIG_INVALID');
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('interpolates ${VAR}, ${VAR:-default} and keeps $${ literal', () => {
    const config = resolve(
      { dataDir: '${STATE}/gw', logLevel: '${LEVEL:-warn}', transports: { unix: { path: '/run/$${HOME}.sock' } } },
      { STATE: '/var/lib' },
    );
    assert.equal(config.dataDir, '/var/lib/gw');
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.transports.unix.path, '/run/${HOME}.sock');
  });

  it('uses the default of ${VAR:-default} for a set but empty variable, as the shell does', () => {
    assert.equal(resolve({ logLevel: '${LEVEL:-warn}' }, { LEVEL: '' }).logLevel, 'warn');
    assert.equal(resolve({ dataDir: 'x${EMPTY}y' }, { EMPTY: '' }).dataDir, '/srv/gw/xy');
  });

  it('coerces an interpolated number (port: ${PORT})', () => {
    assert.equal(resolve({ transports: { tcp: { port: '${PORT}' } } }, { PORT: '9555' }).transports.tcp.port, 9555);
  });

  it('refuses an unset variable without default, naming the key', () => {
    assert.throws(() => resolve({ plugins: { brain: { config: { apiKey: '${BRAIN_KEY}' } } } }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.brain\.config\.apiKey: environment variable BRAIN_KEY is not set/);
      return true;
    });
  });

  describe('finding the file', () => {
    it('uses --config, then MCP_GATEWAY_CONFIG, then ./gateway.config.yaml, else stops with CONFIG_NOT_FOUND saying what to pass', () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'etc'));
      writeFileSync(join(dir, 'etc', 'explicit.yaml'), 'logLevel: debug\n');
      writeFileSync(join(dir, 'etc', 'from-env.yaml'), 'logLevel: warn\n');
      writeFileSync(join(dir, 'gateway.config.yaml'), 'logLevel: error\n');
      const env = { MCP_GATEWAY_CONFIG: 'etc/from-env.yaml' };
      assert.equal(loadConfig({ file: 'etc/explicit.yaml', env, cwd: dir }).logLevel, 'debug');
      assert.equal(loadConfig({ env, cwd: dir }).logLevel, 'warn');
      assert.equal(loadConfig({ env: {}, cwd: dir }).logLevel, 'error');
      assert.throws(() => loadConfig({ env: {}, cwd: join(dir, 'etc') }), (err: any) => {
        assert.equal(err.code, 'CONFIG_NOT_FOUND');
        assert.match(err.message, /the working directory .*etc has no gateway\.config\.yaml .*Pass --config /);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
      assert.equal(loadConfig({ file: 'etc/explicit.yaml', env, cwd: dir }).dataDir, join(dir, 'etc', '.gateway'));
    });

    it('names a missing file and a YAML syntax error with its position', () => {
      const dir = tempDir();
      assert.throws(() => loadConfig({ file: 'nope.yaml', env: {}, cwd: dir }), /Config file .*nope\.yaml does not exist/);
      writeFileSync(join(dir, 'broken.yaml'), 'transports:\n  tcp: [unclosed\n');
      assert.throws(() => loadConfig({ file: 'broken.yaml', env: {}, cwd: dir }), (err: any) => {
        assert.equal(err.code, 'CONFIG_INVALID');
        assert.match(err.message, /broken\.yaml is not valid YAML: .*line/);
        return true;
      });
    });

    it('accepts the shipped gateway.config.yaml', () => {
      const config = loadConfig({ file: join(ROOT, 'gateway.config.yaml'), env: {} });
      assert.equal(config.transports.tcp.port, 9100);
      assert.equal(config.transports.tcp.host, '127.0.0.1');
    });
  });
});

// From test/plugins/files/protected.test.ts: core's config, which the files plugin's tests reach only through the gateway.
describe('config: protectedPaths', () => {
  it("defaults to ['.git'] and refuses '.', '..' and '/'", () => {
    assert.deepEqual(resolveConfig({}, { env: {}, cwd: '/srv' }).protectedPaths, ['.git']);
    for (const bad of ['.', '..', '/', '']) {
      assert.throws(() => resolveConfig({ protectedPaths: [bad] }, { env: {}, cwd: '/srv' }), { code: 'CONFIG_INVALID' });
    }
  });
});
