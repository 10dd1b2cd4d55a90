/** One plugin's lifetime: aborted at the gateway's shutdown, or earlier when its setup fails. */
export interface PluginLifetime {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Stops following the shutdown (the plugin is closed); idempotent. */
  release(): void;
}

/**
 * The lifetimes of one gateway's plugins, all aborted by its shutdown from a single listener.
 * A listener of their own per plugin on the shared shutdown signal went past node's limit of
 * ten listeners on one signal as soon as the shipped plugins were all enabled
 * (MaxListenersExceededWarning at every such boot), and grows with every plugin added.
 */
export class PluginLifetimes {
  readonly #live = new Set<AbortController>();
  readonly #shutdown: AbortSignal;

  constructor(shutdown: AbortSignal) {
    this.#shutdown = shutdown;
    shutdown.addEventListener(
      'abort',
      () => {
        for (const lifetime of this.#live) lifetime.abort(shutdown.reason);
        this.#live.clear();
      },
      { once: true },
    );
  }

  begin(): PluginLifetime {
    const controller = new AbortController();
    if (this.#shutdown.aborted) controller.abort(this.#shutdown.reason);
    else this.#live.add(controller);
    return {
      signal: controller.signal,
      abort: (reason) => controller.abort(reason),
      release: () => {
        this.#live.delete(controller);
      },
    };
  }
}
