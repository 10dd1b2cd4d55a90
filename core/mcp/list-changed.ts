import type { SessionRegistry } from './sessions.js';

export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * Sends `notifications/<kind>/list_changed` to every open session when a catalog changes at
 * run time. Coalesced: however many entries a plugin adds or removes in one go, each kind is
 * announced at most once per tick, after the changes, so a client re-lists once.
 */
export class ListChangedNotifier {
  readonly #sessions: SessionRegistry;
  readonly #pending = new Set<ListKind>();

  constructor(sessions: SessionRegistry) {
    this.#sessions = sessions;
  }

  changed(kind: ListKind): void {
    if (this.#pending.has(kind)) return;
    this.#pending.add(kind);
    process.nextTick(() => {
      this.#pending.delete(kind);
      const notification = { method: `notifications/${kind}/list_changed` };
      for (const session of this.#sessions.all()) session.notify(notification);
    });
  }
}
