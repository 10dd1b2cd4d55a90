// A call's time limit, cancel hook and abort race are made only for a handler that returned a
// promise (RunningCall.race); one that answered synchronously is done before any could fire.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isThenable, RunningCall } from '../../../core/catalog/running-call.js';
import { GatewayError } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';
import { startGateway } from '../../helpers.js';

function runningCall(timeoutMs = 60_000, onCancelable?: (cancel: () => void) => void): RunningCall {
  return new RunningCall({ plugin: 'p', tool: 't', timeoutMs, caller: { transport: 'memory' }, onCancelable }, createLogger('silent'));
}

const memory = { caller: { transport: 'memory' as const, identity: 'unit' } };

describe('RunningCall', () => {
  it('hands out its cancel function only once the handler returned a promise', async () => {
    const hook: { cancel?: () => void } = {};
    const call = runningCall(60_000, (cancel) => (hook.cancel = cancel));
    assert.equal(hook.cancel, undefined, 'nothing to cancel yet: the handler may answer synchronously');
    const racing = call.race(new Promise(() => {}));
    assert.equal(typeof hook.cancel, 'function');
    hook.cancel!();
    await assert.rejects(racing, { code: 'CANCELLED' });
    call.settle();
  });

  it('cancels a promise that outlives the time limit with TOOL_TIMEOUT', async () => {
    const call = runningCall(20);
    await assert.rejects(call.race(new Promise(() => {})), (err: any) => err.code === 'TOOL_TIMEOUT' && err.details.timeoutMs === 20);
    call.settle();
  });

  it('an abort during the handler\'s synchronous part wins over its already settled promise', async () => {
    const call = runningCall();
    const signal = call.signal;
    call.abort(new GatewayError('SHUTTING_DOWN', 'closing'));
    assert.equal(signal.aborted, true);
    await assert.rejects(call.race(Promise.resolve('value')), { code: 'SHUTTING_DOWN' });
    // Its later rejection is handled (an unhandled one would end the test process).
    await assert.rejects(call.race(Promise.reject(new Error('later'))), { code: 'SHUTTING_DOWN' });
    call.settle();
  });
});

describe('synchronous handlers in the catalog', () => {
  it('answer, refuse and fail as before: value, declared code, INTERNAL_ERROR', async () => {
    const gateway = await startGateway();
    const tool = (name: string, handler: (args: never, call: never) => unknown) =>
      gateway.catalog.prepare('unit', { name, description: 'A unit tool.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, handler as never);
    gateway.catalog.add([
      tool('sync_value', () => ({ n: 1 })),
      tool('sync_refusal', () => {
        throw new GatewayError('NOT_FOUND', 'no such thing');
      }),
      tool('sync_bug', () => {
        throw new TypeError('oops');
      }),
    ]);
    const value = await gateway.catalog.call('sync_value', {}, memory);
    assert.ok(value.ok);
    assert.equal(value.json, '{"n":1}');
    const refusal = await gateway.catalog.call('sync_refusal', {}, memory);
    assert.ok(!refusal.ok);
    assert.equal(refusal.error.code, 'NOT_FOUND');
    const bug = await gateway.catalog.call('sync_bug', {}, memory);
    assert.ok(!bug.ok);
    assert.equal(bug.error.code, 'INTERNAL_ERROR');
    assert.doesNotMatch(bug.error.message, /oops/, 'no internals in the answer');
  });

  it('without the audit log, invoke answers and records a synchronous call before it returns; an asynchronous one is in flight until it settles', async () => {
    const gateway = await startGateway({ tools: { audit: false } });
    const seen: string[] = [];
    gateway.calls.observe((record) => void seen.push(`${record.tool}:${record.outcome}`));
    const now = gateway.catalog.invoke('echo', { text: 'x' }, memory);
    assert.equal(isThenable(now), false);
    assert.ok(!isThenable(now) && now.ok);
    assert.deepEqual(seen, ['echo:ok'], 'observed before invoke returned');
    assert.equal(gateway.calls.inFlight, 0);
    const later = gateway.catalog.invoke('echo_sleep', { ms: 20 }, memory);
    assert.equal(isThenable(later), true);
    assert.equal(gateway.calls.inFlight, 1);
    assert.ok((await later).ok);
    assert.deepEqual(seen, ['echo:ok', 'echo_sleep:ok']);
    assert.equal(gateway.calls.inFlight, 0);
  });

  it('with the audit log, a synchronous call is answered once the rows of its turn are in the journal, and is in flight until then', async () => {
    const gateway = await startGateway();
    const journal = () => readdirSync(join(gateway.config.dataDir, 'audit-journal')).map((name) => readFileSync(join(gateway.config.dataDir, 'audit-journal', name), 'utf8')).join('');
    const before = journal();
    const first = gateway.catalog.invoke('echo', { text: 'one' }, memory);
    const second = gateway.catalog.invoke('echo', { text: 'two' }, memory);
    assert.ok(isThenable(first) && isThenable(second), 'held until the batch is written');
    assert.equal(gateway.calls.inFlight, 2);
    assert.equal(journal(), before, 'nothing written during the turn');
    const written: string[] = [];
    const outcomes = await Promise.all([first, second].map((outcome) => outcome.then((settled) => (written.push(journal()), settled))));
    assert.ok(outcomes.every((outcome) => outcome.ok));
    // Both rows were in the journal when the first answer was released: one write for the turn.
    const texts = (journalText: string) => journalText.split('\n').filter(Boolean).map((line) => JSON.parse(JSON.parse(line)[7]).text);
    for (const text of written) assert.deepEqual(texts(text.slice(before.length)), ['one', 'two']);
    assert.equal(gateway.calls.inFlight, 0);
  });
});
