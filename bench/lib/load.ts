/**
 * Closed-loop load: `inFlight` workers, each starting its next call as soon as its previous
 * one is answered, for `seconds`. Sequential is `inFlight = 1`. Any failed call fails the
 * benchmark: a number measured over errors would be meaningless.
 */
export async function closedLoop(call: () => Promise<unknown>, inFlight: number, seconds: number): Promise<{ calls: number; perSecond: number; elapsedMs: number }> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let calls = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await call();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsedMs = performance.now() - started;
  return { calls, perSecond: (calls * 1000) / elapsedMs, elapsedMs };
}

/** Exactly `count` calls with `inFlight` workers. */
export async function fixedCount(call: () => Promise<unknown>, inFlight: number, count: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return performance.now() - started;
}

/** Per-call latencies (ms) of `count` sequential calls. */
export async function latencies(call: () => Promise<unknown>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}
