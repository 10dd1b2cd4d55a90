import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createGateway } from '../../../core/gateway/gateway.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { Lifecycle } from '../../../core/runtime/lifecycle.js';
import { createLogger } from '../../../core/lib/logger.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { tempDir, testConfig, waitFor } from '../../helpers.js';

/** A plugin folder with its registry entry, outside the repository: `setup` is given as source. */
function pluginRegistry(dir: string, name: string, setupSource: string): string {
  const folder = join(dir, `plugin-${name}`);
  mkdirSync(join(folder, 'registry'), { recursive: true });
  writeFileSync(
    join(folder, 'index.js'),
    `export default { name: ${JSON.stringify(name)}, version: '1.0.0', description: 'A test plugin.', setup: ${setupSource} };\n`,
  );
  writeFileSync(join(folder, 'registry', `${name}.yaml`), `name: ${name}\nmodule: ../index.js\n`);
  return join(folder, 'registry');
}

describe('Lifecycle', () => {
  it('goes booting → ready → closing → closed, closing parts newest first', async () => {
    const lifecycle = new Lifecycle({ pauseAt: '' });
    const closed: string[] = [];
    assert.equal(lifecycle.state, 'booting');
    for (const name of ['gateway', 'http', 'tcp']) await lifecycle.start(name, async () => name, async (part) => void closed.push(part));
    lifecycle.ready();
    assert.equal(lifecycle.state, 'ready');
    const closing = lifecycle.close('test');
    assert.equal(lifecycle.state, 'closing');
    assert.equal(lifecycle.signal.aborted, true);
    await closing;
    assert.equal(lifecycle.state, 'closed');
    assert.deepEqual(closed, ['tcp', 'http', 'gateway']);
    assert.equal(lifecycle.close('again'), closing, 'close is idempotent');
  });

  it('closes a part whose start was still running, once it has started', async () => {
    const lifecycle = new Lifecycle({ pauseAt: '' });
    let finishStart!: (value: string) => void;
    const closed: string[] = [];
    const starting = lifecycle.start('slow', () => new Promise<string>((resolve) => (finishStart = resolve)), async (part) => void closed.push(part));
    const closing = lifecycle.close('test');
    assert.deepEqual(closed, []);
    finishStart('slow part');
    await assert.rejects(starting, { code: 'SHUTTING_DOWN' }, 'the starter learns that it must go no further');
    await closing;
    assert.deepEqual(closed, ['slow part']);
  });

  it('refuses to start anything, and every checkpoint throws, once closing has begun', async () => {
    const lifecycle = new Lifecycle({ pauseAt: '' });
    await lifecycle.checkpoint('before');
    await lifecycle.close('test');
    let started = false;
    await assert.rejects(lifecycle.start('late', async () => (started = true), async () => {}), { code: 'SHUTTING_DOWN' });
    assert.equal(started, false);
    await assert.rejects(lifecycle.checkpoint('after'), { code: 'SHUTTING_DOWN' });
    lifecycle.ready();
    assert.equal(lifecycle.state, 'closed', 'ready() does not reopen');
  });

  it('a part that fails to close does not stop the others from closing', async () => {
    const lifecycle = new Lifecycle({ pauseAt: '', log: createLogger('silent') });
    const closed: string[] = [];
    await lifecycle.start('first', async () => 'first', async (part) => void closed.push(part));
    await lifecycle.start('broken', async () => 'broken', async () => {
      throw new Error('cannot close');
    });
    await lifecycle.close('test');
    assert.deepEqual(closed, ['first']);
  });
});

describe('a gateway under a lifecycle', () => {
  it('a shutdown during a plugin setup that never ends stops the boot: SHUTTING_DOWN, closers run, database closed', async () => {
    const dir = tempDir();
    const started = join(dir, 'setup-started');
    const marker = join(dir, 'closed-by-closer');
    const registry = pluginRegistry(
      dir,
      'stall',
      `async (ctx) => { const fs = await import('node:fs'); ctx.onClose(() => fs.writeFileSync(${JSON.stringify(marker)}, 'x')); fs.writeFileSync(${JSON.stringify(started)}, 'x'); await new Promise(() => {}); }`,
    );
    const config = testConfig(dir, { registries: [registry], plugins: { stall: {} } });
    const lifecycle = new Lifecycle({ pauseAt: '' });
    const booting = createGateway({ config, log: createLogger('silent'), lifecycle });
    await waitFor(() => existsSync(started));
    await lifecycle.close('test');
    await assert.rejects(booting, { code: 'SHUTTING_DOWN' });
    assert.equal(existsSync(marker), true, "the plugin's closers ran");
    assert.equal(existsSync(join(config.dataDir, 'gateway.db-wal')), false, 'the database was checkpointed and closed');
    assert.equal(lifecycle.state, 'closed');
  });

  it('listeners start through the lifecycle: gateway.close() closes them first, and the socket file goes', async () => {
    const dir = tempDir();
    const config = testConfig(dir);
    const gateway = await createGateway({ config, log: createLogger('silent') });
    assert.equal(gateway.status().state, 'ready');
    const socketPath = join(dir, 'gw.sock');
    const unix = await listenSocket(gateway, { kind: 'unix', path: socketPath }, config.transports.unix);
    const http = await listenHttp(gateway, { ...config.transports.http, host: '127.0.0.1', port: 0 });
    assert.equal(existsSync(socketPath), true);
    let release!: () => void;
    // A part started after the listeners, whose close waits: meanwhile /health says closing.
    await gateway.lifecycle.start('blocker', async () => undefined, () => new Promise<void>((resolve) => (release = resolve)));
    const closing = gateway.close();
    const health = await fetch(`http://127.0.0.1:${http.address.port}/health`);
    assert.equal(health.status, 503);
    const body = (await health.json()) as { status: string; state: string };
    assert.deepEqual([body.status, body.state], ['closing', 'closing']);
    release();
    await closing;
    assert.equal(gateway.status().state, 'closed');
    assert.equal(existsSync(socketPath), false);
    await unix.close();
    await http.close();
    await assert.rejects(listenSocket(gateway, { kind: 'unix', path: socketPath }, config.transports.unix), { code: 'SHUTTING_DOWN' });
    assert.equal(existsSync(socketPath), false, 'nothing is started on a closed gateway');
  });
});
