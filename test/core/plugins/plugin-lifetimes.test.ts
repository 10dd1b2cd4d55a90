import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PluginLifetimes } from '../../../core/plugins/plugin-lifetimes.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../../core/plugins/registry.js';
import { startGateway, tempDir } from '../../helpers.js';

describe('plugin lifetimes', () => {
  it('follow the shutdown with one listener, however many plugins there are', () => {
    const shutdown = new AbortController();
    const lifetimes = new PluginLifetimes(shutdown.signal);
    const plugins = Array.from({ length: 25 }, () => lifetimes.begin());
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 1);
    const released = plugins.pop()!;
    released.release();
    const failed = plugins.pop()!;
    failed.abort(new Error('its setup failed'));
    const reason = new Error('shutting down');
    shutdown.abort(reason);
    for (const plugin of plugins) assert.equal(plugin.signal.reason, reason);
    assert.equal(released.signal.aborted, false, 'a closed plugin no longer follows');
    assert.equal(failed.signal.reason.message, 'its setup failed');
    assert.equal(lifetimes.begin().signal.reason, reason, 'one begun after the shutdown starts aborted');
  });

  it('a gateway with every shipped plugin boots without MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const registry = loadRegistry([BUILTIN_REGISTRY_DIR]);
      const plugins = Object.fromEntries([...registry.keys()].map((name) => [name, {}]));
      const gateway = await startGateway({ plugins: { ...plugins, echo: {} }, dataDir: join(tempDir(), 'data') });
      assert.ok(gateway.plugins.loaded.length >= 10, `${gateway.plugins.loaded.length} plugins`);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
