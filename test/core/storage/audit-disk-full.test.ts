import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { memoryClient, resultJson, startGateway, tempDir } from '../../helpers.js';
import { mountTinyDisk } from '../../support/tiny-disk.js';

/** Calls echo until the audit journal's disk runs out; returns the failing result. */
async function callUntilRefused(call: () => Promise<any>): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const result = await call();
    if (result.isError) return result;
  }
  throw new Error('200 calls were answered on a full disk');
}

describe('audit on a full disk', () => {
  it('fails closed: the call whose row cannot be written and every later one get AUDIT_UNAVAILABLE, /health says degraded, and calls resume once space is free', async (t) => {
    const disk = mountTinyDisk();
    if (typeof disk === 'string') return t.skip(disk);
    const gateway = await startGateway({ dataDir: join(disk.dir, 'data') }, tempDir());
    const client = await memoryClient(gateway);
    const echo = () => client.callTool({ name: 'echo', arguments: { text: 'x' } });
    assert.equal((await echo()).isError, undefined);

    disk.fill();
    const failed = resultJson(await callUntilRefused(echo));
    assert.equal(failed.code, 'AUDIT_UNAVAILABLE');
    assert.match(failed.message, /The call ran, but its audit row could not be written \(ENOSPC\)/);
    // SQLite's failed writes on the same disk give space back now and then, and a call that
    // finds room runs; one that finds none is refused before it runs. Refill before each.
    let refused: any;
    for (let i = 0; i < 20 && !/Calls are refused/.test(refused?.message); i++) {
      disk.fill();
      refused = resultJson(await echo());
      assert.equal(refused.code, 'AUDIT_UNAVAILABLE');
    }
    assert.match(refused.message, /Calls are refused: the audit journal cannot be written \(ENOSPC\)/);
    assert.deepEqual(gateway.status().audit, { state: 'unavailable', reason: 'ENOSPC', failOpen: false, droppedRows: 0 });
    const app = await createHttpApp(gateway);
    after(() => app.close());
    const health = (await app.inject({ method: 'GET', url: '/health' })).json();
    assert.equal(health.status, 'degraded');
    const rest = await app.inject({ method: 'POST', url: '/tools/echo', payload: { text: 'x' } });
    assert.equal(rest.statusCode, 503);
    assert.equal(rest.json().error.code, 'AUDIT_UNAVAILABLE');

    disk.free();
    await new Promise((r) => setTimeout(r, 300)); // past one probe interval
    assert.equal(resultJson(await echo()).text, 'x');
    assert.equal(gateway.status().audit!.state, 'ok');
    // Every call is on record, the refused ones included, once the database takes writes.
    gateway.audit!.flush();
    const outcomes = gateway.db.prepare('SELECT outcome, count(*) AS n FROM core_audit GROUP BY outcome').all() as Array<{ outcome: string; n: number }>;
    assert.ok(outcomes.some((o) => o.outcome === 'AUDIT_UNAVAILABLE' && o.n >= 2), JSON.stringify(outcomes));
  });

  it('with tools.auditFailOpen, answers calls and reports the audit as unavailable', async (t) => {
    const disk = mountTinyDisk();
    if (typeof disk === 'string') return t.skip(disk);
    const gateway = await startGateway({ dataDir: join(disk.dir, 'data'), tools: { auditFailOpen: true } }, tempDir());
    const client = await memoryClient(gateway);
    disk.fill();
    for (let i = 0; i < 200 && gateway.status().audit!.state === 'ok'; i++) {
      assert.equal(resultJson(await client.callTool({ name: 'echo', arguments: { text: 'open' } })).text, 'open');
    }
    assert.equal(gateway.status().audit!.state, 'unavailable');
    assert.equal(resultJson(await client.callTool({ name: 'echo', arguments: { text: 'open' } })).text, 'open');
    disk.free();
  });
});
