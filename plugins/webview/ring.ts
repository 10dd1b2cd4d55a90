/** A list that keeps its last `capacity` items: what a page logs can never grow without bound. */
export class Ring<T> {
  readonly #items: T[] = [];
  #dropped = 0;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.#items.push(item);
    if (this.#items.length > this.capacity) {
      this.#items.shift();
      this.#dropped++;
    }
  }

  /** Oldest first. */
  items(): readonly T[] {
    return this.#items;
  }

  /** How many were pushed out since the last `clear`. */
  get dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#items.length = 0;
    this.#dropped = 0;
  }
}
