import type { SessionRegistry } from './sessions.js';

/** The catalogs whose changes MCP clients hear about. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * Sends `notifications/<kind>/list_changed` to every ready session when a catalog changes at
 * run time, at most once per turn of the event loop per kind: a plugin that swaps ten tools
 * in a row makes one notification, and clients list once.
 */
export class ListChangedNotices {
  readonly #sessions: SessionRegistry;
  readonly #pending = new Set<ListKind>();
  /** Told of every change: the 2026 era's `subscriptions/listen` streams, which are no sessions. */
  readonly #listeners = new Set<(kind: ListKind) => void>();

  constructor(sessions: SessionRegistry) {
    this.#sessions = sessions;
  }

  /** Calls `listener` with the kind of every change from now on (once per turn, as sessions hear it); returns the unsubscribe. */
  listen(listener: (kind: ListKind) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changed(kind: ListKind): void {
    if (this.#pending.has(kind)) return;
    this.#pending.add(kind);
    setImmediate(() => {
      this.#pending.delete(kind);
      const notification = { method: `notifications/${kind}/list_changed` };
      for (const session of this.#sessions.all()) if (session.ready) session.notify(notification);
      for (const listener of this.#listeners) listener(kind);
    });
  }
}
