import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { observeCall, type CallObserver } from '../../../core/catalog/call-observers.js';
import type { CallRecord } from '../../../core/catalog/call-observers.js';
import { GatewayError } from '../../../core/contract/errors.js';
import { createLogger } from '../../../core/lib/logger.js';

type Outcome = { ok: true } | { ok: false; code: string };

const log = createLogger('silent');
const failed = (error: GatewayError): Outcome => ({ ok: false, code: error.code });
const record = (outcome = 'ok'): CallRecord => ({ kind: 'tool', tool: 't', caller: { transport: 'memory' }, args: {}, startedAt: 0, durationMs: 0, outcome });
const unavailable = new GatewayError('AUDIT_UNAVAILABLE', 'the journal is full');

describe('observeCall', () => {
  it('answers synchronously when no observer holds the answer, and lets a GatewayError an observer throws replace the outcome', () => {
    const seen: string[] = [];
    const observers: CallObserver[] = [(r) => void seen.push(r.outcome)];
    assert.deepEqual(observeCall(observers, record(), { ok: true }, failed, log), { ok: true });
    const throwing: CallObserver[] = [
      () => {
        throw unavailable;
      },
      (r) => void seen.push(r.outcome),
    ];
    assert.deepEqual(observeCall(throwing, record(), { ok: true }, failed, log), { ok: false, code: 'AUDIT_UNAVAILABLE' });
    assert.deepEqual(seen, ['ok', 'ok'], 'every observer sees the call');
  });

  it('holds the answer until an observer’s promise settles; a rejection with a GatewayError fails a call that ran, not one refused with the same code', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = observeCall([() => held], record(), { ok: true } as Outcome, failed, log);
    assert.ok(answer instanceof Promise);
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'not answered before the observer is done');
    release();
    assert.deepEqual(await answer, { ok: true });

    const rejecting: CallObserver[] = [() => Promise.reject(unavailable)];
    assert.deepEqual(await observeCall(rejecting, record(), { ok: true } as Outcome, failed, log), { ok: false, code: 'AUDIT_UNAVAILABLE' });
    const refused: Outcome = { ok: false, code: 'REFUSED_BEFORE_IT_RAN' };
    assert.equal(await observeCall(rejecting, record('AUDIT_UNAVAILABLE'), refused, failed, log), refused);
    // Anything but a GatewayError is the observer's bug: logged, the outcome stands.
    assert.deepEqual(await observeCall([() => Promise.reject(new Error('bug'))], record(), { ok: true } as Outcome, failed, log), { ok: true });
  });
});
