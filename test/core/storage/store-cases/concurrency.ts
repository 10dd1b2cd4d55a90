import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { PluginStore } from '../../../../core/contract/store-types.js';
import { ROOT, TESTS } from '../../../helpers.js';
import { openStore, type BackendUnderTest, type FreshStore } from '../../../support/store-backends.js';

const WRITER = join(TESTS, 'fixtures', 'storage', 'store-writers.js');

interface Writer {
  ready: Promise<void>;
  go(): void;
  done: Promise<{ retries: number }>;
}

/** A second process on the same store, as a second gateway would be. */
function startWriter(target: FreshStore, writers: number, increments: number): Writer {
  const child = spawn(process.execPath, [WRITER, JSON.stringify({ ...target, writers, increments })], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  let onReady: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) onReady();
  });
  const done = new Promise<{ retries: number }>((resolve, reject) => {
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop()!;
      if (code === 0) resolve(JSON.parse(last) as { retries: number });
      else reject(new Error(`writer exited with ${code}:\n${out}\n${err}`));
    });
  });
  // A writer that dies before "ready" must not leave the test waiting for it.
  const readyOrDead = Promise.race([ready, done.then(() => assert.fail('writer finished before it was told to start'))]);
  return { ready: readyOrDead, go: () => child.stdin.end('go\n'), done };
}

export function concurrencyCases(backend: BackendUnderTest): void {
  describe('concurrent writers', () => {
    it('2 gateways × 8 writers on one key lose no update: one statement, a conditional update, forUpdate()', async (t) => {
      const target = await backend.fresh();
      const shared = await openStore(t, backend, target);
      const store: PluginStore<{ race_counters: { key: string; value: number; version: number } }> = shared.forPlugin('race');
      await store.migrate([
        {
          up: (db) =>
            db.schema
              .createTable('race_counters')
              .addColumn('key', 'text', (c) => c.primaryKey())
              .addColumn('value', 'integer', (c) => c.notNull())
              .addColumn('version', 'integer', (c) => c.notNull())
              .execute(),
        },
      ]);
      await store.db.insertInto('race_counters').values(['atomic', 'cas', 'locked'].map((key) => ({ key, value: 0, version: 0 }))).execute();
      const writers = 8;
      const increments = 5;
      const gateways = [startWriter(target, writers, increments), startWriter(target, writers, increments)];
      await Promise.all(gateways.map((g) => g.ready));
      for (const g of gateways) g.go();
      const results = await Promise.all(gateways.map((g) => g.done));
      const counters = await store.db.selectFrom('race_counters').select(['key', 'value']).orderBy('key').execute();
      const expected = 2 * writers * increments;
      assert.deepEqual(counters, [
        { key: 'atomic', value: expected },
        { key: 'cas', value: expected },
        { key: 'locked', value: expected },
      ]);
      // Conflicts did happen (so the check above means something): 16 writers reading the same
      // version cannot all win.
      assert.ok(results[0]!.retries + results[1]!.retries > 0, 'the conditional update never had to retry');
    });
  });
}
