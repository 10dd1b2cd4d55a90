import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../../helpers.js';
import { openStore, type BackendUnderTest } from '../../../support/store-backends.js';
import { rejectsWith } from './migrations.js';

export function secretCases(backend: BackendUnderTest): void {
  describe('ctx.store.secret', () => {
    it('gives every gateway on the store the same key, one per plugin and name', async (t) => {
      const target = await backend.fresh();
      const first = await openStore(t, backend, target);
      const key = await first.forPlugin('collab').secret('agent-handles');
      assert.match(key, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await first.forPlugin('collab').secret('agent-handles'), key, 'asked again: the same');
      // Another gateway on the store: on SQLite it shares the dataDir, on PostgreSQL only the database.
      const other = backend.name === 'postgres' ? { ...target, dataDir: join(tempDir(), 'other-gateway') } : target;
      assert.equal(await (await openStore(t, backend, other)).forPlugin('collab').secret('agent-handles'), key);
      assert.notEqual(await first.forPlugin('notes').secret('agent-handles'), key);
      assert.notEqual(await first.forPlugin('collab').secret('links'), key);
    });

    if (backend.name === 'postgres') {
      it('refuses a secret row someone emptied, as a bad file is refused', async (t) => {
        const target = await backend.fresh();
        const first = await openStore(t, backend, target);
        await first.forPlugin('collab').secret('agent-handles');
        await first.db.updateTable('core_secrets').set({ value: '' }).where('name', '=', 'collab.agent-handles.key').execute();
        const second = await openStore(t, backend, target);
        await rejectsWith(second.forPlugin('collab').secret('agent-handles'), 'CONFIG_INVALID', /delete the row and restart/);
      });
    }

    it('refuses a name that is not 1 to 40 of a-z, 0-9 and -', async (t) => {
      const store = await openStore(t, backend);
      await rejectsWith(store.forPlugin('collab').secret('../owner'), 'CONFIG_INVALID', /1 to 40 of a-z, 0-9 and -/);
    });
  });
}
