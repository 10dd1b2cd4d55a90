import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Counts kept in plain maps on the call path and handed to prom-client only when /metrics is
 * scraped (each metric's `collect`). prom-client hashes the labels of every `inc()` and
 * `observe()` into a string key, a few µs per call on the REST bridge; a scrape comes every
 * few seconds at most. The scraped text is what prom-client made when it counted each call
 * itself: series in the order their labels were first seen, the same integer counts, and a
 * histogram's sum added up in the same order (so the same float), its buckets exact.
 */

type Labels = Record<string, string>;

/** Seconds: from a millisecond call to the longest tool time limit. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120];

/** Counts by two label values (say tool and outcome), for a Counter with those two labels. */
export class PairCounts {
  readonly #names: readonly [string, string];
  readonly #byFirst = new Map<string, Map<string, { readonly labels: Labels; count: number }>>();
  /** Every series in first-seen order, as prom-client lists them. */
  readonly #series: Array<{ readonly labels: Labels; count: number }> = [];

  constructor(names: readonly [string, string]) {
    this.#names = names;
  }

  add(first: string, second: string): void {
    let bySecond = this.#byFirst.get(first);
    if (!bySecond) this.#byFirst.set(first, (bySecond = new Map()));
    const series = bySecond.get(second);
    if (series) {
      series.count++;
      return;
    }
    const added = { labels: { [this.#names[0]]: first, [this.#names[1]]: second }, count: 1 };
    bySecond.set(second, added);
    this.#series.push(added);
  }

  /** Sets `counter` to these counts: its `collect`. */
  fill(counter: Counter<string>): void {
    counter.reset();
    for (const { labels, count } of this.#series) counter.inc(labels, count);
  }
}

/** What prom-client's Histogram keeps per series (lib/histogram.js, createBaseValues). */
interface HistogramSeries {
  readonly labels: Labels;
  readonly bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

/** Observations by one label value (say tool), for a Histogram with that one label and `buckets`. */
export class DurationTallies {
  readonly #name: string;
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, { readonly labels: Labels; readonly buckets: number[]; sum: number; count: number }>();

  constructor(name: string, buckets: readonly number[]) {
    this.#name = name;
    this.#bounds = buckets;
  }

  observe(value: string, seconds: number): void {
    // prom-client refuses (throws on) a value that is not finite, and counts nothing.
    if (!Number.isFinite(seconds)) return;
    let series = this.#series.get(value);
    if (!series) {
      series = { labels: { [this.#name]: value }, buckets: new Array<number>(this.#bounds.length).fill(0), sum: 0, count: 0 };
      this.#series.set(value, series);
    }
    // The first bound the value does not pass; past the last one it counts only in +Inf (count).
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        series.buckets[i]!++;
        break;
      }
    }
    series.sum += seconds;
    series.count++;
  }

  /**
   * Sets `histogram` to these observations: its `collect`. prom-client has no public call that
   * sets a series' buckets, so the series `zero()` made are filled in place;
   * test/core/http/call-tallies.test.ts compares the scraped text with prom-client's own.
   */
  fill(histogram: Histogram<string>): void {
    histogram.reset();
    for (const { labels } of this.#series.values()) histogram.zero(labels);
    const made = Object.values((histogram as unknown as { hashMap: Record<string, HistogramSeries> }).hashMap);
    for (const target of made) {
      const series = this.#series.get(target.labels[this.#name]!)!;
      for (let i = 0; i < this.#bounds.length; i++) target.bucketValues[this.#bounds[i]!] = series.buckets[i]!;
      target.sum = series.sum;
      target.count = series.count;
    }
  }
}

/** A Counter in `registry` with two labels, counted in a PairCounts and filled at each scrape. */
export function pairCounter(registry: Registry, name: string, help: string, labelNames: readonly [string, string]): PairCounts {
  const counts = new PairCounts(labelNames);
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      counts.fill(this);
    },
  });
  return counts;
}

/** A Histogram in `registry` with one label, tallied in a DurationTallies and filled at each scrape. */
export function durationHistogram(registry: Registry, name: string, help: string, labelName: string, buckets: readonly number[]): DurationTallies {
  const tallies = new DurationTallies(labelName, buckets);
  new Histogram({
    name,
    help,
    labelNames: [labelName],
    buckets: [...buckets],
    registers: [registry],
    collect() {
      tallies.fill(this);
    },
  });
  return tallies;
}
