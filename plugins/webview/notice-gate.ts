// How many events and notifications one browsing session may send: a token bucket. A page can
// log thousands of errors or raise dialogs in a loop; every watcher of /events and the MCP
// client would get each one. What is held back is still in the session's console record.

/** Sent per second once the burst is spent. */
export const NOTICES_PER_SECOND = 20;
/** Sent at once before the rate applies. */
export const NOTICE_BURST = 50;

export class NoticeGate {
  #tokens = NOTICE_BURST;
  #at = Date.now();
  #held = 0;
  #timer: NodeJS.Timeout | undefined;

  /** `summary` is called with how many were held back, once the bucket has refilled. */
  constructor(readonly summary: (held: number) => void) {}

  /** true: send this one now; false: it is held back (counted, and summarised later). */
  take(): boolean {
    const now = Date.now();
    this.#tokens = Math.min(NOTICE_BURST, this.#tokens + ((now - this.#at) / 1000) * NOTICES_PER_SECOND);
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens--;
      return true;
    }
    this.#held++;
    // One summary a second at most, whether the flood goes on or stops.
    this.#timer ??= setTimeout(() => this.#flush(), 1000).unref();
    return false;
  }

  #flush(): void {
    this.#timer = undefined;
    const held = this.#held;
    this.#held = 0;
    if (held > 0) this.summary(held);
  }
}
