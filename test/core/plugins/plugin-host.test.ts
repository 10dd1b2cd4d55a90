import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../core/gateway/gateway.js';
import { createLogger } from '../../../core/lib/logger.js';
import { tempDir } from '../../helpers.js';

interface PluginSpec {
  requires?: string[];
  uses?: string[];
  optional?: boolean;
  /** JavaScript: the body of `setup(ctx)`. */
  setup?: string;
  /** JavaScript object literal source for the definition's extra fields. */
  extra?: string;
  /** The name the module gives itself, when it should differ from the registry's. */
  moduleName?: string;
}

/** A registry folder of small plain-JS plugins, as a third party would ship them. */
function writePlugins(dir: string, plugins: Record<string, PluginSpec>): string {
  const registry = join(dir, 'registry');
  mkdirSync(join(dir, 'modules'), { recursive: true });
  mkdirSync(registry, { recursive: true });
  for (const [name, spec] of Object.entries(plugins)) {
    writeFileSync(
      join(dir, 'modules', `${name}.mjs`),
      `export default {
        name: ${JSON.stringify(spec.moduleName ?? name)}, version: '1.0.0', description: 'test plugin ${name}',
        requires: ${JSON.stringify(spec.requires ?? [])},
        ${spec.uses ? `uses: ${JSON.stringify(spec.uses)},` : ''}
        ${spec.extra ?? ''}
        async setup(ctx) { ${spec.setup ?? ''} }
      };\n`,
    );
    writeFileSync(
      join(registry, `${name}.yaml`),
      stringify({
        name,
        module: `../modules/${name}.mjs`,
        optional: spec.optional ?? false,
      }),
    );
  }
  return registry;
}

async function boot(dir: string, registry: string, plugins: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Gateway> {
  const config = resolveConfig(
    {
      dataDir: join(dir, 'data'),
      logLevel: 'silent',
      registries: [registry],
      plugins,
      transports: { tcp: { enabled: false }, unix: { enabled: false } },
      ...extra,
    },
    { env: {}, cwd: dir, file: join(dir, 'gateway.config.yaml') },
  );
  return createGateway({ config, log: createLogger('silent'), registryDirs: [] });
}

const tool = (name: string, extra = '') =>
  `ctx.tool({ name: '${name}', description: 'test tool', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } ${extra} }, () => ({ ok: true }));`;

/** Records what happened, in order, across the plugin modules of one test. */
function journal(): string[] {
  const log: string[] = [];
  (globalThis as { __journal?: string[] }).__journal = log;
  return log;
}
const note = (entry: string) => `globalThis.__journal.push(${JSON.stringify(entry)});`;

describe('plugin host', () => {
  it('sets plugins up in requires order, hands over APIs, and closes in reverse order', async () => {
    const dir = tempDir();
    const log = journal();
    const registry = writePlugins(dir, {
      app: {
        requires: ['db'],
        setup: `${note('setup app')} ctx.onClose(() => { ${note('close app')} });
                const db = ctx.api('db'); ${tool('app_query')} globalThis.__journal.push('api ' + db.kind);`,
      },
      db: { setup: `${note('setup db')} ctx.onClose(() => { ${note('close db')} }); ${tool('db_ping')} return { kind: 'sqlite' };` },
      base: { setup: `${note('setup base')} ctx.onClose(() => { ${note('close base')} });` },
    });
    const gateway = await boot(dir, registry, { app: {}, db: {}, base: {} });
    assert.deepEqual(gateway.plugins.loaded.map((p) => p.name), ['db', 'app', 'base']);
    assert.deepEqual(gateway.plugins.loaded.find((p) => p.name === 'app')?.tools, ['app_query']);
    await gateway.close();
    assert.deepEqual(log, ['setup db', 'setup app', 'api sqlite', 'setup base', 'close base', 'close app', 'close db']);
  });

  it('leaves a disabled plugin out', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, { one: { setup: tool('one_tool') }, two: { setup: tool('two_tool') } });
    const gateway = await boot(dir, registry, { one: {}, two: { enabled: false } });
    assert.deepEqual(gateway.plugins.loaded.map((p) => p.name), ['one']);
    assert.equal(gateway.catalog.get('two_tool'), undefined);
    await gateway.close();
  });

  it('applies config defaults, freezes the config, and refuses bad or unknown keys naming the file and path', async () => {
    const dir = tempDir();
    const schema = `configSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, default: 5 }, mode: { enum: ['a', 'b'] } } },`;
    const registry = writePlugins(dir, {
      conf: { extra: schema, setup: `globalThis.__seen = { config: ctx.config, frozen: Object.isFrozen(ctx.config) };` },
    });
    const gateway = await boot(dir, registry, { conf: { config: { mode: 'a' } } });
    assert.deepEqual((globalThis as any).__seen, { config: { limit: 5, mode: 'a' }, frozen: true });
    await gateway.close();

    await assert.rejects(boot(dir, registry, { conf: { config: { limit: 0 } } }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /gateway\.config\.yaml: plugins\.conf\.config\.limit: must be >= 1/);
      return true;
    });
    await assert.rejects(boot(dir, registry, { conf: { config: { limt: 3 } } }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.conf\.config: unknown key "limt"\. Valid keys: limit, mode/);
      return true;
    });
  });

  it('refuses config for a plugin that takes none, and an unknown plugin name', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, { plain: {} });
    await assert.rejects(boot(dir, registry, { plain: { config: { x: 1 } } }), /plugins\.plain\.config: plugin "plain" takes no configuration/);
    await assert.rejects(boot(dir, registry, { nosuch: {} }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.nosuch: no plugin "nosuch" in the registry\. Known plugins: plain\./);
      return true;
    });
  });

  const failures: Array<[string, Record<string, PluginSpec>, Record<string, unknown>, string, RegExp]> = [
    ['a requirement that is not enabled', { app: { requires: ['db'] }, db: {} }, { app: {} }, 'PLUGIN_DEPENDENCY', /"app" requires "db"/],
    ['a requirement missing from the registry', { app: { requires: ['ghost'] } }, { app: {} }, 'PLUGIN_DEPENDENCY', /"app" requires "ghost"/],
    ['a cycle', { a: { requires: ['b'] }, b: { requires: ['c'] }, c: { requires: ['a'] } }, { a: {}, b: {}, c: {} }, 'PLUGIN_DEPENDENCY', /cycle: a → b → c → a/],
    ['a setup that throws', { bad: { setup: `throw new Error('disk on fire');` } }, { bad: {} }, 'PLUGIN_LOAD_FAILED', /Plugin "bad" failed during setup: disk on fire/],
    ['a setup that never ends', { slow: { setup: `await new Promise(() => {});` } }, { slow: {} }, 'PLUGIN_SETUP_TIMEOUT', /"slow" did not finish setup within 200 ms/],
    ['a module that calls itself by another name', { alias: { moduleName: 'other' } }, { alias: {} }, 'PLUGIN_LOAD_FAILED', /the module calls itself "other"/],
    ['an error code core already owns', { grab: { extra: `errors: { INTERNAL_ERROR: { status: 500, mcp: 'result', description: 'x' } },` } }, { grab: {} }, 'PLUGIN_LOAD_FAILED', /core already owns/],
    ['a tool name taken by another plugin', { one: { setup: tool('shared_name') }, two: { setup: tool('shared_name') } }, { one: {}, two: {} }, 'TOOL_DEFINITION_INVALID', /taken by plugin "one"/],
  ];
  for (const [label, plugins, enabled, code, message] of failures) {
    it(`stops the boot on ${label}, naming the plugin`, async () => {
      const dir = tempDir();
      const registry = writePlugins(dir, plugins);
      await assert.rejects(boot(dir, registry, enabled, { setupTimeoutMs: 200 }), (err: any) => {
        assert.equal(err.code, code);
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('skips a failing optional plugin and the optional plugins that require it; its closers still run', async () => {
    const dir = tempDir();
    const log = journal();
    const registry = writePlugins(dir, {
      browser: { optional: true, setup: `${tool('browser_open')} ctx.onClose(() => { ${note('close browser')} }); throw new Error('no chromium here');` },
      screenshots: { optional: true, requires: ['browser'], setup: tool('shot_take') },
      core2: { setup: tool('core2_ping') },
    });
    const gateway = await boot(dir, registry, { browser: {}, screenshots: {}, core2: {} });
    assert.deepEqual(gateway.plugins.loaded.map((p) => p.name), ['core2']);
    assert.deepEqual(
      gateway.plugins.skipped.map((s) => [s.name, s.code]),
      [['browser', 'PLUGIN_LOAD_FAILED'], ['screenshots', 'PLUGIN_DEPENDENCY']],
    );
    assert.equal(gateway.catalog.get('browser_open'), undefined, 'tools of a failed setup are not served');
    assert.deepEqual(log, ['close browser']);
    assert.equal(gateway.status().skippedPlugins.length, 2);
    await gateway.close();
  });

  it('lets the config mark a plugin optional or required over the registry', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, { flaky: { optional: true, setup: `throw new Error('down');` } });
    await assert.rejects(boot(dir, registry, { flaky: { optional: false } }), /Plugin "flaky" failed during setup: down/);
  });

  it('refuses ctx.api for a plugin not listed in requires or uses', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, { a: { setup: 'return 1;' }, b: { setup: `ctx.api('a');` } });
    await assert.rejects(boot(dir, registry, { a: {}, b: {} }), /"b" asked for the API of "a" without listing it in requires or uses/);
  });

  it('sets a used plugin up first and hands over its API when it is enabled', async () => {
    const dir = tempDir();
    const log = journal();
    const registry = writePlugins(dir, {
      search: { uses: ['vectors'], setup: `globalThis.__journal.push('search sees ' + JSON.stringify(ctx.api('vectors') ?? null));` },
      vectors: { setup: `${note('setup vectors')} return { dims: 3 };` },
    });
    const gateway = await boot(dir, registry, { search: {}, vectors: {} });
    assert.deepEqual(gateway.plugins.loaded.map((p) => p.name), ['vectors', 'search']);
    assert.deepEqual(log, ['setup vectors', 'search sees {"dims":3}']);
    await gateway.close();
  });

  it('sets a plugin up without a used plugin that is disabled, missing from the registry, or skipped', async () => {
    const dir = tempDir();
    const log = journal();
    const seen = `globalThis.__journal.push(ctx.name + ' sees ' + JSON.stringify(ctx.api('vectors') ?? null));`;
    const registry = writePlugins(dir, {
      search: { uses: ['vectors'], setup: seen },
      vectors: { optional: true, setup: `throw new Error('no model');` },
    });
    const disabled = await boot(dir, registry, { search: {} });
    assert.deepEqual(disabled.plugins.loaded.map((p) => p.name), ['search']);
    await disabled.close();
    const skipped = await boot(dir, registry, { search: {}, vectors: {} });
    assert.deepEqual(skipped.plugins.loaded.map((p) => p.name), ['search']);
    assert.deepEqual(skipped.plugins.skipped.map((s) => s.name), ['vectors']);
    await skipped.close();
    const lonely = writePlugins(tempDir(), { search: { uses: ['ghost'], setup: `globalThis.__journal.push('alone ' + String(ctx.api('ghost')));` } });
    await (await boot(dir, lonely, { search: {} })).close();
    assert.deepEqual(log, ['search sees null', 'search sees null', 'alone undefined']);
  });

  it('refuses a uses list that is not plugin names', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, { odd: { uses: ['Not A Name'] } });
    await assert.rejects(boot(dir, registry, { odd: {} }), /uses must be a list of plugin names/);
  });

  const badTools: Array<[string, string, RegExp]> = [
    ['a name with a dot', `ctx.tool({ name: 'files.read', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`, /name must match/],
    ['an upper-case name', `ctx.tool({ name: 'FileRead', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`, /name must match/],
    ['a 65-character name', `ctx.tool({ name: 'a'.repeat(65), description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`, /name must match/],
    ['no description', `ctx.tool({ name: 'x_y', description: ' ', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);`, /description is required/],
    ['no annotations', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object' } }, () => 1);`, /annotations with a boolean readOnlyHint/],
    ['an input schema that is not an object schema', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'string' }, annotations: { readOnlyHint: true } }, () => 1);`, /inputSchema must be a JSON Schema with type "object"/],
    ['a typo in the schema (strict mode)', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object', requried: ['a'] }, annotations: { readOnlyHint: true } }, () => 1);`, /does not compile in strict mode: .*requried/],
    ['an unknown format', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'string', format: 'colour' } } }, annotations: { readOnlyHint: true } }, () => 1);`, /unknown format "colour"/],
    ['a bad outputSchema', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object' }, outputSchema: { type: 'array' }, annotations: { readOnlyHint: true } }, () => 1);`, /outputSchema must be a JSON Schema/],
    ['the same tool twice', `${tool('twice')} ${tool('twice')}`, /records tool "twice" twice/],
    ['a non-function handler', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, 'nope');`, /handler must be a function/],
    ['a bad timeout', `ctx.tool({ name: 'x_y', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, timeoutMs: -1 }, () => 1);`, /timeoutMs must be a positive integer/],
  ];
  for (const [label, setup, message] of badTools) {
    it(`refuses a tool with ${label}`, async () => {
      const dir = tempDir();
      const registry = writePlugins(dir, { tools: { setup } });
      await assert.rejects(boot(dir, registry, { tools: {} }), (err: any) => {
        assert.equal(err.code, 'TOOL_DEFINITION_INVALID');
        assert.match(err.message, /Plugin "tools"/);
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('compiles tool schemas on first use: what only compiling finds is TOOL_DEFINITION_INVALID for every call of that tool', async () => {
    const dir = tempDir();
    // strictTypes: `minimum` on a string is found by compiling, not by the boot's precheck.
    const loose = `ctx.tool({ name: 'loose_tool', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'string', minimum: 1 } } }, annotations: { readOnlyHint: true } }, () => ({ ok: true }));`;
    const registry = writePlugins(dir, { tools: { setup: `${loose} ${tool('sound_tool')}` } });
    const gateway = await boot(dir, registry, { tools: {} });
    try {
      const caller = { caller: { transport: 'memory' as const, identity: 'unit' } };
      for (let i = 0; i < 2; i++) {
        const outcome = await gateway.catalog.call('loose_tool', { a: 'x' }, caller);
        assert.ok(!outcome.ok);
        assert.equal(outcome.error.code, 'TOOL_DEFINITION_INVALID');
        assert.match(outcome.error.message, /^Plugin "tools", tool "loose_tool": its schema does not compile in strict mode: .*minimum/);
      }
      assert.ok((await gateway.catalog.call('sound_tool', {}, caller)).ok, 'the plugin and its other tools serve');
    } finally {
      await gateway.close();
    }
  });

  it('aborts ctx.signal of a plugin whose setup timed out, and does not serve what it registers later', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, {
      late: {
        optional: true,
        setup: `globalThis.__late = ctx.signal; await new Promise((r) => setTimeout(r, 400)); ${tool('late_tool')}`,
      },
    });
    const gateway = await boot(dir, registry, { late: {} }, { setupTimeoutMs: 100 });
    assert.equal(gateway.plugins.skipped[0]?.code, 'PLUGIN_SETUP_TIMEOUT');
    assert.equal(((globalThis as any).__late as AbortSignal).aborted, true);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(gateway.catalog.get('late_tool'), undefined);
    await gateway.close();
  });

  it("refuses ctx.error with another plugin's code", async () => {
    const dir = tempDir();
    const codes = (code: string) => `errors: { ${code}: { status: 409, mcp: 'result', description: 'x' } },`;
    const registry = writePlugins(dir, {
      owner: { extra: codes('OWNER_CODE') },
      thief: { extra: codes('THIEF_CODE'), setup: `ctx.error('THIEF_CODE', 'mine'); ctx.error('INVALID_PATH', 'core codes are shared'); ctx.error('OWNER_CODE', 'not mine');` },
    });
    await assert.rejects(boot(dir, registry, { owner: {}, thief: {} }), /raised error code "OWNER_CODE", which it does not declare/);
  });

  it('refuses a workspace that does not exist with CONFIG_INVALID', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, {});
    await assert.rejects(boot(dir, registry, {}, { workspace: join(dir, 'missing') }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /workspace: .*missing cannot be used \(ENOENT\)/);
      return true;
    });
  });

  it('runs closers within the shutdown budget even when one hangs', async () => {
    const dir = tempDir();
    const log = journal();
    const registry = writePlugins(dir, {
      first: { setup: `ctx.onClose(() => { ${note('close first')} });` },
      hangs: { setup: `ctx.onClose(() => new Promise(() => {}));` },
    });
    const gateway = await boot(dir, registry, { first: {}, hangs: {} }, { shutdownTimeoutMs: 200 });
    await gateway.close();
    assert.deepEqual(log, ['close first']);
  });

  it('aborts ctx.signal at shutdown and gives each plugin its own data folder', async () => {
    const dir = tempDir();
    const registry = writePlugins(dir, {
      watcher: { setup: `globalThis.__ctx = { signal: ctx.signal, dataDir: ctx.dataDir };` },
    });
    const gateway = await boot(dir, registry, { watcher: {} });
    const seen = (globalThis as any).__ctx as { signal: AbortSignal; dataDir: string };
    assert.equal(seen.dataDir, join(dir, 'data', 'plugins', 'watcher'));
    assert.equal(seen.signal.aborted, false);
    await gateway.close();
    assert.equal(seen.signal.aborted, true);
  });
});
