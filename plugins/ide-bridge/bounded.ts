// A Map that keeps at most `limit` entries, the least recently written going first.

export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Writes `value` as the newest entry, dropping the oldest ones beyond the limit. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limit) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }
}

/** The last `limit` items of `items`. */
export function lastOf<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - limit) : items;
}

/**
 * The last items of `items`, at most `limit` of them and at most `budget` characters together
 * as `size` counts them (always the newest one, whatever its size: the readers cap one item).
 */
export function lastWithin<T>(items: T[], limit: number, budget: number, size: (item: T) => number): T[] {
  const kept = lastOf(items, limit);
  let total = 0;
  let start = kept.length;
  while (start > 0) {
    total += size(kept[start - 1]!);
    if (total > budget && start < kept.length) break;
    start -= 1;
  }
  return start === 0 ? kept : kept.slice(start);
}
