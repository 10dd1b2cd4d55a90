export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Linear-interpolated percentile (0–100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export interface Side<T> {
  readonly name: string;
  /** One measurement run; returns what was measured. */
  run(): Promise<T>;
}

export interface Comparison<T> {
  /** Per round, in round order: [first side's value, second side's value]. */
  readonly rounds: Array<[T, T]>;
}

/**
 * Runs two sides alternately, `rounds` times each, swapping which goes first every round so
 * that neither side always runs on a warmer (or more throttled) machine. One warm-up run of
 * each side is discarded first.
 */
export async function alternate<T>(a: Side<T>, b: Side<T>, rounds: number, warmUp?: { a(): Promise<unknown>; b(): Promise<unknown> }): Promise<Comparison<T>> {
  if (warmUp) {
    await warmUp.a();
    await warmUp.b();
  }
  const out: Array<[T, T]> = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      const va = await a.run();
      const vb = await b.run();
      out.push([va, vb]);
    } else {
      const vb = await b.run();
      const va = await a.run();
      out.push([va, vb]);
    }
  }
  return { rounds: out };
}

/**
 * `alternate` for more than two sides: every round runs each side once, the order rotated by
 * one place a round, so that over n rounds each side runs once in each place. Returns, per
 * round, the values in the order of `sides`.
 */
export async function rotate<T>(sides: ReadonlyArray<Side<T>>, rounds: number): Promise<T[][]> {
  const out: T[][] = [];
  for (let i = 0; i < rounds; i++) {
    const values = new Array<T>(sides.length);
    for (let k = 0; k < sides.length; k++) {
      const at = (i + k) % sides.length;
      values[at] = await sides[at]!.run();
    }
    out.push(values);
  }
  return out;
}

/** Median of the per-round ratios a/b, and the median of each side. */
export function summarise(comparison: Comparison<number>): { a: number; b: number; ratio: number; ratios: number[] } {
  const ratios = comparison.rounds.map(([a, b]) => a / b);
  return {
    a: median(comparison.rounds.map(([a]) => a)),
    b: median(comparison.rounds.map(([, b]) => b)),
    ratio: median(ratios),
    ratios,
  };
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
