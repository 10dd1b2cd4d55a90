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

  constructor(sessions: SessionRegistry) {
    this.#sessions = sessions;
  }

  changed(kind: ListKind): void {
    if (this.#pending.has(kind)) return;
    this.#pending.add(kind);
    setImmediate(() => {
      this.#pending.delete(kind);
      const notification = { method: `notifications/${kind}/list_changed` };
      for (const session of this.#sessions.all()) if (session.ready) session.notify(notification);
    });
  }
}
