// One source of plugin metadata (issue 11, item 7; issue 37): version, description, requires and
// services come from the plugin object; its services declare breakers before their first use.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../core/gateway/gateway.js';
import { createLogger } from '../../../core/lib/logger.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { tempDir } from '../../helpers.js';

/** Writes one plain-JS plugin module (`source` is the object's body) and its registry entry. */
function plugin(dir: string, name: string, source: string, entry: Record<string, unknown> = {}): void {
  mkdirSync(join(dir, 'registry'), { recursive: true });
  writeFileSync(join(dir, `${name}.mjs`), `export default { name: ${JSON.stringify(name)}, ${source} };\n`);
  writeFileSync(join(dir, 'registry', `${name}.yaml`), stringify({ name, module: `../${name}.mjs`, ...entry }));
}

async function boot(dir: string, plugins: Record<string, unknown>): Promise<Gateway> {
  const config = resolveConfig(
    { dataDir: join(dir, 'data'), auth: 'none', logLevel: 'silent', registries: [join(dir, 'registry')], plugins, transports: { tcp: { enabled: false }, unix: { enabled: false } } },
    { env: {}, cwd: dir },
  );
  return createGateway({ config, log: createLogger('silent'), registryDirs: [] });
}

const about = `version: '2.3.4', description: 'A plugin with its metadata in one place.'`;

describe('plugin metadata', () => {
  it('reports the version and description the plugin object declares', async () => {
    const dir = tempDir();
    plugin(dir, 'meta', `${about}, setup() {}`);
    const gateway = await boot(dir, { meta: {} });
    try {
      assert.deepEqual(gateway.plugins.loaded.map((p) => [p.name, p.version, p.description]), [['meta', '2.3.4', 'A plugin with its metadata in one place.']]);
    } finally {
      await gateway.close();
    }
  });

  it('orders plugins and hands over APIs by the requires of the plugin object', async () => {
    const dir = tempDir();
    plugin(dir, 'base', `${about}, setup() { return { answer: 42 }; }`);
    plugin(dir, 'top', `${about}, requires: ['base'], setup(ctx) { globalThis.__answer = ctx.api('base').answer; }`);
    const gateway = await boot(dir, { top: {}, base: {} });
    try {
      assert.deepEqual(gateway.plugins.loaded.map((p) => p.name), ['base', 'top']);
      assert.equal((globalThis as { __answer?: number }).__answer, 42);
    } finally {
      await gateway.close();
    }
  });

  const refused: Array<[string, string, RegExp]> = [
    ['no version', `description: 'd', setup() {}`, /Plugin "bad" \(.*bad\.mjs\): definePlugin needs a version/],
    ['an empty description', `version: '1.0.0', description: ' ', setup() {}`, /definePlugin needs a description/],
    ['requires that is not a list of names', `${about}, requires: 'base', setup() {}`, /requires must be a list of plugin names, not "base"/],
    ['a service listed twice', `${about}, services: [{ name: 'api' }, { name: 'api' }], setup() {}`, /services: "api" is listed twice/],
    ['a service name with a colon', `${about}, services: [{ name: 'a:b' }], setup() {}`, /services must be a list of \{name, description\?\}/],
    ['a service name with a star in it', `${about}, services: [{ name: 'fs-*' }], setup() {}`, /services must be a list of \{name, description\?\}/],
    ['a service with an unknown key', `${about}, services: [{ name: 'api', url: 'x' }], setup() {}`, /services must be a list of \{name, description\?\}/],
  ];
  for (const [label, source, message] of refused) {
    it(`refuses a plugin object with ${label}`, async () => {
      const dir = tempDir();
      plugin(dir, 'bad', source);
      await assert.rejects(boot(dir, { bad: {} }), (err: any) => {
        assert.equal(err.code, 'PLUGIN_LOAD_FAILED');
        assert.match(err.message, message);
        return true;
      });
    });
  }
});

describe('services: in the plugin object', () => {
  it('declares each breaker at boot: /health, gateway_status and metrics list it before first use', async () => {
    const dir = tempDir();
    plugin(dir, 'svc', `${about}, services: [{ name: 'api', description: 'an HTTP API' }, { name: 'queue' }], setup(ctx) {
      globalThis.__useApi = () => ctx.breaker('api', { timeoutMs: 1234 }).call(async () => 'pong');
    }`);
    const gateway = await boot(dir, { svc: {} });
    const app = await createHttpApp(gateway);
    try {
      const zero = { fires: 0, successes: 0, failures: 0, rejects: 0, timeouts: 0 };
      assert.deepEqual(gateway.status().breakers, [
        { name: 'svc:api', state: 'closed', stats: zero },
        { name: 'svc:queue', state: 'closed', stats: zero },
      ]);
      const health = (await app.inject({ method: 'GET', url: '/health' })).json();
      assert.equal(health.status, 'ok');
      assert.deepEqual(health.breakers.map((b: { name: string }) => b.name), ['svc:api', 'svc:queue']);
      const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /mcp_gateway_breaker_state\{breaker="svc:api"\} 0/);
      assert.match(metrics, /mcp_gateway_breaker_state\{breaker="svc:queue"\} 0/);

      // First use builds the real breaker, with the options of that call, under the same name.
      assert.equal(await (globalThis as { __useApi?: () => Promise<string> }).__useApi!(), 'pong');
      const api = gateway.status().breakers.find((b) => b.name === 'svc:api')!;
      assert.equal(api.stats.successes, 1);
      assert.equal(gateway.status().breakers.length, 2);
    } finally {
      await app.close();
      await gateway.close();
    }
  });

  it('refuses ctx.breaker for a service the plugin object does not declare', async () => {
    const dir = tempDir();
    plugin(dir, 'sneaky', `${about}, services: [{ name: 'api' }], setup(ctx) { ctx.breaker('hidden'); }`);
    await assert.rejects(boot(dir, { sneaky: {} }), (err: any) => {
      assert.equal(err.code, 'SERVICE_UNDECLARED');
      assert.match(err.message, /Plugin "sneaky" asked for a circuit breaker for service "hidden", which its plugin object does not declare\. Add it to definePlugin's services: \[\{ name: 'hidden' \}\]\./);
      return true;
    });
  });

  it('forgets the breakers of an optional plugin whose setup failed', async () => {
    const dir = tempDir();
    plugin(dir, 'flaky', `${about}, services: [{ name: 'api' }], setup() { throw new Error('no luck'); }`, { optional: true });
    const gateway = await boot(dir, { flaky: {} });
    try {
      assert.deepEqual(gateway.status().skippedPlugins.map((s) => s.name), ['flaky']);
      assert.deepEqual(gateway.status().breakers, []);
    } finally {
      await gateway.close();
    }
  });
});

describe("services: '*' in the plugin object", () => {
  /** `ctx.breaker` of the plugin `fed`, which declares `*`, for the test to call. */
  const fedBreaker = (service: string) => (globalThis as { __fedBreaker?: (s: string) => any }).__fedBreaker!(service);
  const fed = (dir: string) =>
    plugin(dir, 'fed', `${about}, services: [{ name: '*', description: 'the servers its config names' }], setup(ctx) { globalThis.__fedBreaker = (service) => ctx.breaker(service, { timeoutMs: 2000 }); }`);

  it('lets ctx.breaker take a service named at run time, listed from its first use; `*` itself never is', async () => {
    const dir = tempDir();
    fed(dir);
    const gateway = await boot(dir, { fed: {} });
    const app = await createHttpApp(gateway);
    try {
      const listed = async () => {
        const health = (await app.inject({ method: 'GET', url: '/health' })).json();
        const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
        const inMetrics = [...metrics.matchAll(/mcp_gateway_breaker_state\{breaker="([^"]+)"\}/g)].map((m) => m[1]);
        return { status: gateway.status().breakers.map((b) => b.name), health: health.breakers.map((b: { name: string }) => b.name), metrics: inMetrics, ok: health.status };
      };
      assert.deepEqual(await listed(), { status: [], health: [], metrics: [], ok: 'ok' });

      assert.equal(await fedBreaker('anything').call(async () => 'pong'), 'pong');
      assert.equal(await fedBreaker('fs-server_2').call(async () => 'pong'), 'pong');
      assert.equal(fedBreaker('anything'), fedBreaker('anything'), 'one breaker per service');
      const names = ['fed:anything', 'fed:fs-server_2'];
      assert.deepEqual(await listed(), { status: names, health: names, metrics: names, ok: 'ok' });
      assert.equal(gateway.status().breakers[0]!.stats.successes, 1);
    } finally {
      await app.close();
      await gateway.close();
    }
  });

  it('refuses with SERVICE_UNDECLARED a name that is not a service name, `*` included', async () => {
    const dir = tempDir();
    fed(dir);
    const gateway = await boot(dir, { fed: {} });
    try {
      for (const name of ['*', 'Anything', 'a:b', '', '1st', 'x'.repeat(65)]) {
        assert.throws(() => fedBreaker(name), (err: any) => {
          assert.equal(err.code, 'SERVICE_UNDECLARED', name);
          assert.match(err.message, /Plugin "fed" asked for a circuit breaker for service ".*", which is not a service name \(\^\[a-z\]/);
          return true;
        });
      }
      assert.deepEqual(gateway.status().breakers, []);
    } finally {
      await gateway.close();
    }
  });

  it('gives nothing to a plugin without `*`, beside one with it', async () => {
    const dir = tempDir();
    fed(dir);
    plugin(dir, 'plain', `${about}, services: [{ name: 'api' }], setup(ctx) { globalThis.__plainBreaker = (service) => ctx.breaker(service); }`);
    const gateway = await boot(dir, { fed: {}, plain: {} });
    try {
      const plainBreaker = (globalThis as { __plainBreaker?: (s: string) => unknown }).__plainBreaker!;
      assert.equal((plainBreaker('api') as { name: string }).name, 'plain:api');
      for (const name of ['anything', '*']) {
        assert.throws(() => plainBreaker(name), (err: any) => err.code === 'SERVICE_UNDECLARED' && /which its plugin object does not declare/.test(err.message), name);
      }
    } finally {
      await gateway.close();
    }
  });
});
