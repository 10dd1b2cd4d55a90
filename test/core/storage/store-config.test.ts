import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../../core/config/config.js';
import { createLogger } from '../../../core/lib/logger.js';
import { SharedStore } from '../../../core/storage/shared-store.js';
import { tempDir } from '../../helpers.js';

const FILE = '/srv/gw/gateway.config.yaml';
const resolve = (storage: unknown, env: NodeJS.ProcessEnv = {}) => resolveConfig({ storage }, { file: FILE, env, cwd: '/srv/project' });
const SECRET = 's3cr3t-Pa55';

/** Asserts CONFIG_INVALID naming the file and key, whose message never holds the password. */
function refused(storage: unknown, message: RegExp, env: NodeJS.ProcessEnv = {}): void {
  assert.throws(
    () => resolve(storage, env),
    (err: Error & { code?: string }) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /^\/srv\/gw\/gateway\.config\.yaml: storage\.shared/);
      assert.match(err.message, message);
      assert.doesNotMatch(`${err.message} ${String(err.cause ?? '')}`, new RegExp(SECRET));
      return true;
    },
  );
}

describe('storage config', () => {
  it('defaults to the embedded SQLite store, probed for /health at most every 2 s', () => {
    const defaults = { shared: 'sqlite', healthCheck: { cacheMs: 2000, timeoutMs: 2000 } };
    assert.deepEqual(resolve(undefined).storage, defaults);
    assert.deepEqual(resolve({ shared: 'sqlite' }).storage, defaults);
  });

  it('takes PostgreSQL from ${DATABASE_URL}, with defaults for the pool, timeouts and TLS', () => {
    const url = `postgres://gw:${SECRET}@db.internal:6543/team`;
    const config = resolve({ shared: { postgres: { url: '${DATABASE_URL}', ssl: { ca: 'certs/ca.pem' } } } }, { DATABASE_URL: url });
    assert.deepEqual(config.storage, {
      shared: {
        postgres: { url, poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000, ssl: { rejectUnauthorized: true, ca: '/srv/gw/certs/ca.pem' } },
      },
      healthCheck: { cacheMs: 2000, timeoutMs: 2000 },
    });
    assert.ok(Object.isFrozen(config.storage.shared));
  });

  const malformed: Array<[string, string, RegExp]> = [
    ['not a URL', `${SECRET} at db`, /url is not a URL; write it as postgres:\/\/user:password@host:5432\/database/],
    ['no scheme', `gw:${SECRET}@db/team`, /has the scheme "gw:", not postgres: or postgresql:/],
    ['another scheme', `mysql://gw:${SECRET}@db/team`, /has the scheme "mysql:", not postgres: or postgresql:/],
    ['no database', `postgres://gw:${SECRET}@db:5432`, /names no database/],
    ['no user', `postgres://db.internal/team`, /names no user/],
    ['no host', `postgres:///team`, /names no host/],
    ['an unknown parameter', `postgres://gw:${SECRET}@db/team?sslmod=require`, /has the parameter "sslmod", which the gateway does not read/],
    ['an unknown sslmode', `postgres://gw:${SECRET}@db/team?sslmode=always`, /has sslmode "always"/],
    ['a bad port', `postgres://gw:${SECRET}@db:99999/team`, /is not a URL/],
  ];
  for (const [label, url, message] of malformed) {
    it(`refuses a DATABASE_URL with ${label}, without quoting it`, () => {
      refused({ shared: { postgres: { url: '${DATABASE_URL}' } } }, message, { DATABASE_URL: url });
    });
  }

  const shapes: Array<[string, unknown, RegExp]> = [
    ['an unknown back end', { shared: 'mysql' }, /storage\.shared: must be one of "sqlite"/],
    ['a misspelt key', { shared: { postgres: { url: 'postgres://u@h/d', poolsize: 3 } } }, /unknown key "poolsize"\. Valid keys: url, poolSize, statementTimeoutMs, connectTimeoutMs, ssl/],
    ['no url', { shared: { postgres: {} } }, /missing required key "url"/],
    ['a pool of zero', { shared: { postgres: { url: 'postgres://u@h/d', poolSize: 0 } } }, /poolSize: must be >= 1/],
    ['another database kind', { shared: { mysql: {} } }, /missing required key "postgres"/],
  ];
  for (const [label, storage, message] of shapes) {
    it(`refuses ${label}`, () => refused(storage, message));
  }

  it('accepts a unix-socket URL and postgresql: as the scheme', () => {
    assert.doesNotThrow(() => resolve({ shared: { postgres: { url: 'postgresql://gw@localhost/team?host=/run/postgresql' } } }));
  });

  it('refuses to open with an unreadable CA file, naming it', async () => {
    const dir = tempDir();
    const config = resolveConfig(
      { storage: { shared: { postgres: { url: `postgres://gw:${SECRET}@127.0.0.1:1/team`, ssl: { ca: 'missing-ca.pem' } } } } },
      { file: join(dir, 'gateway.config.yaml'), env: {}, cwd: dir },
    );
    await assert.rejects(
      SharedStore.open(config.storage, { dataDir: join(dir, 'data'), log: createLogger('silent'), configWhere: config.file! }),
      (err: Error & { code?: string }) => err.code === 'CONFIG_INVALID' && /ssl\.ca: cannot read .*missing-ca\.pem \(ENOENT\)/.test(err.message) && !err.message.includes(SECRET),
    );
  });
});
