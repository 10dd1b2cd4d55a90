/**
 * A list that keeps its last `capacity` items: what a page logs can never grow without bound.
 * Circular once full, so a flood of pushes costs O(1) each (Array.shift would move every item).
 */
export class Ring<T> {
  #items: T[] = [];
  /** Where the oldest item is, once the ring is full. */
  #start = 0;
  #dropped = 0;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    if (this.#items.length < this.capacity) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.capacity;
    this.#dropped++;
  }

  /** Oldest first (a copy). */
  items(): T[] {
    return [...this.#items.slice(this.#start), ...this.#items.slice(0, this.#start)];
  }

  /** How many were pushed out since the last `clear`. */
  get dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#items = [];
    this.#start = 0;
    this.#dropped = 0;
  }
}
