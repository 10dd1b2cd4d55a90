import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../../../core/auth/api-keys.js';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { addSharedKey, readSharedKeys } from '../../../core/auth/shared-api-keys.js';
import { BIN, ROOT, writeConfig } from '../../helpers.js';
import { storeBackends, type FreshStore } from '../../support/store-backends.js';
import { bootTally } from './store-cases/gateway.js';

const [, postgres] = storeBackends();

/** Polls until `gateway` accepts `key`; fails the test after 20 s (a bound on a hang only). */
async function acceptedBy(gateway: Gateway, key: string) {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const principal = gateway.keys.authenticate(key);
    if (principal) return principal;
  }
  throw new Error('the key was never accepted');
}

describe('API keys in the shared store (PostgreSQL)', { skip: postgres!.skip }, () => {
  before(() => postgres!.start());
  after(() => postgres!.stop());

  async function twoGateways(t: { after(fn: () => unknown): void }, target: FreshStore): Promise<[Gateway, Gateway]> {
    const a = await bootTally(t, target, { auth: 'key' });
    const b = await bootTally(t, { ...target, dataDir: `${target.dataDir}-b` }, { auth: 'key' });
    await Promise.all([a.sharing.eventBridge!.listening(), b.sharing.eventBridge!.listening()]);
    return [a, b];
  }

  it('a key added on one gateway is accepted by every gateway, with its scopes; config keys still work', async (t) => {
    const target = await postgres!.fresh();
    const [a, b] = await twoGateways(t, target);
    const { key, hash } = createApiKey();
    assert.equal(b.keys.authenticate(key), undefined);
    assert.equal(await addSharedKey(a.store, { name: 'ci', hash, scopes: ['tally_*', 'events'] }), true);
    for (const gateway of [a, b]) {
      const principal = await acceptedBy(gateway, key);
      assert.equal(principal.name, 'ci');
      assert.equal(principal.mayCallTool('tally_get', 'tally'), true);
      assert.equal(principal.mayCallTool('gateway_status', 'gateway'), false);
      assert.equal(principal.mayReadEvents, true);
    }
    // The owner key (config side) is untouched by the refreshes.
    assert.equal(b.keys.authenticate(b.ownerKey!.key)?.name, 'owner');
    assert.equal(await addSharedKey(b.store, { name: 'ci', hash: createApiKey().hash, scopes: ['*'] }), false, 'a name is taken once');
    assert.deepEqual((await readSharedKeys(a.store)).map((k) => k.name), ['ci']);
  });

  it('a shared key bound to a profile keeps it on every gateway; one naming a profile a gateway lacks is refused there', async (t) => {
    const target = await postgres!.fresh();
    const [a] = await twoGateways(t, target);
    const { key, hash } = createApiKey();
    assert.equal(await addSharedKey(a.store, { name: 'bound', hash, scopes: ['*'], profile: 'all' }), true);
    const principal = await acceptedBy(a, key);
    assert.equal(principal.profile, 'all');
    assert.deepEqual((await readSharedKeys(a.store)).find((k) => k.name === 'bound')?.profile, 'all');
    const stray = createApiKey();
    await addSharedKey(a.store, { name: 'stray', hash: stray.hash, scopes: ['*'], profile: 'nowhere' });
    const strayPrincipal = await acceptedBy(a, stray.key);
    const { restView } = await import('../../../core/catalog/caller-view.js');
    assert.throws(() => restView(a.profiles, strayPrincipal), (err: any) => err.code === 'PROFILE_NOT_FOUND', 'refused, never widened to every tool');
  });

  it('mcp-gateway keys create (the built binary) with a PostgreSQL config writes the key where a running gateway accepts it', async (t) => {
    const target = await postgres!.fresh();
    const [, b] = await twoGateways(t, target);
    const dir = join(target.dataDir, '..');
    const url = (target.storage.shared as { postgres: { url: string } }).postgres.url;
    const config = writeConfig(dir, { dataDir: join(dir, 'cli-data'), auth: 'key', storage: { shared: { postgres: { url: '${DATABASE_URL}' } } } }, 'cli.yaml');
    const run = (name: string) =>
      spawnSync(process.execPath, [BIN, 'keys', 'create', '--config', config, '--name', name, '--scope', 'events'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: url } });
    const created = run('deploy-bot');
    assert.equal(created.status, 0, created.stderr);
    const key = /\n  (mgw_[A-Za-z0-9_-]{43})\n/.exec(created.stdout)?.[1];
    assert.ok(key, created.stdout);
    assert.match(created.stdout, /in the shared store \(PostgreSQL gateway@127\.0\.0\.1:\d+\/test_\w+\)/);
    assert.doesNotMatch(created.stdout, /hash: sha256/, 'no config lines to paste: the store holds it');
    const principal = await acceptedBy(b, key);
    assert.equal(principal.name, 'deploy-bot');
    const again = run('deploy-bot');
    assert.equal(again.status, 1);
    assert.match(again.stderr, /a key named "deploy-bot" is already in the shared store/);
  });
});
