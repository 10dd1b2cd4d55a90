// runWithin: synchronous work stopped at its time bound, on the main thread, with what it
// returns or throws passed through otherwise. (Jobs here either end at once or never.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runWithin, TimeBoundExceeded } from '../../../core/catalog/time-bound.js';

describe('runWithin', () => {
  it('returns what the job returns', () => {
    assert.deepEqual(runWithin(1000, () => ({ sum: 1 + 2 })), { sum: 3 });
  });

  it('passes on what the job throws', () => {
    const thrown = new RangeError('from the job');
    assert.throws(() => runWithin(1000, () => { throw thrown; }), (err) => err === thrown);
  });

  it('stops a job that would never end, and runs the next one as usual', () => {
    let turns = 0;
    assert.throws(
      () => runWithin(20, () => {
        for (;;) turns++;
      }),
      (err: unknown) => err instanceof TimeBoundExceeded && err.ms === 20 && err.message === 'it took longer than 20 ms',
    );
    assert.ok(turns > 0);
    assert.equal(runWithin(1000, () => 'next'), 'next');
  });

  it("stops V8's own backtracking inside a job", () => {
    assert.throws(() => runWithin(20, () => /^(a+)+$/.test(`${'a'.repeat(40)}!`)), TimeBoundExceeded);
  });

  // Atomics.wait blocks the thread without using the CPU, as a process waiting for one does.
  const idle = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

  it('runs again a job stopped while it had no CPU, as on a loaded machine', () => {
    let attempts = 0;
    const result = runWithin(20, () => {
      attempts++;
      if (attempts === 1) idle(60);
      return 'valid';
    });
    assert.equal(result, 'valid');
    assert.equal(attempts, 2);
  });

  it('lets a job put back what its stop left half done before it runs again', () => {
    const state = { consistent: true };
    let reruns = 0;
    const result = runWithin(
      20,
      () => {
        assert.ok(state.consistent, 'a rerun found the state the stopped attempt left');
        state.consistent = false;
        if (reruns === 0) idle(60);
        state.consistent = true;
        return 'valid';
      },
      { beforeRerun: () => ((state.consistent = true), reruns++) },
    );
    assert.deepEqual([result, reruns], ['valid', 1]);
  });

  it('gives up after three such attempts', () => {
    let attempts = 0;
    assert.throws(() => runWithin(20, () => (attempts++, idle(60))), TimeBoundExceeded);
    assert.equal(attempts, 3);
  });
});
