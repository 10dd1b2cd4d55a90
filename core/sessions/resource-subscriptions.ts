import type { SessionInfo } from './sessions.js';

/**
 * Which sessions subscribed to which resource URIs (resources/subscribe), so that an update
 * a plugin announces reaches exactly those sessions as `notifications/resources/updated`.
 * A subscription is to a concrete URI; for a template, to each URI it matches that the
 * client subscribed to. A session's subscriptions end with it.
 */
export class ResourceSubscriptions {
  readonly #byUri = new Map<string, Set<SessionInfo>>();
  readonly #bySession = new Map<SessionInfo, Set<string>>();
  /** Runs of an entry's onSubscribe under way, by URI (see `beforeFirst`). */
  readonly #opening = new Map<string, Promise<void>>();
  /** Told of every update, whoever subscribed: the 2026 era's `subscriptions/listen` streams filter by URI themselves. */
  readonly #listeners = new Set<(uri: string) => void>();

  /** Calls `listener` with the URI of every update from now on; returns the unsubscribe. */
  listen(listener: (uri: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  subscribe(session: SessionInfo, uri: string): void {
    let sessions = this.#byUri.get(uri);
    if (!sessions) this.#byUri.set(uri, (sessions = new Set()));
    sessions.add(session);
    let uris = this.#bySession.get(session);
    if (!uris) this.#bySession.set(session, (uris = new Set()));
    uris.add(uri);
  }

  /** Ends one subscription; false when the session did not hold it. */
  unsubscribe(session: SessionInfo, uri: string): boolean {
    const sessions = this.#byUri.get(uri);
    const held = sessions?.delete(session) ?? false;
    if (sessions?.size === 0) this.#byUri.delete(uri);
    this.#bySession.get(session)?.delete(uri);
    return held;
  }

  /**
   * Runs `open` (the entry's onSubscribe) when no session holds `uri` yet. Sessions that ask
   * while it runs wait for that same run instead of starting another, so that the entry hears
   * once of its first subscriber. Rejects as `open` does.
   */
  beforeFirst(uri: string, open: () => void | Promise<void>): Promise<void> {
    if (this.count(uri) > 0) return Promise.resolve();
    let running = this.#opening.get(uri);
    if (!running) {
      running = Promise.resolve()
        .then(open)
        .finally(() => this.#opening.delete(uri));
      this.#opening.set(uri, running);
    }
    return running;
  }

  /** Drops every subscription of a session that closed; returns the URIs it held. */
  forget(session: SessionInfo): string[] {
    const uris = [...(this.#bySession.get(session) ?? [])];
    for (const uri of uris) this.unsubscribe(session, uri);
    this.#bySession.delete(session);
    return uris;
  }

  /** How many sessions are subscribed to `uri`. */
  count(uri: string): number {
    return this.#byUri.get(uri)?.size ?? 0;
  }

  /** Sends notifications/resources/updated for `uri` to its subscribing sessions; returns how many. */
  updated(uri: string): number {
    for (const listener of this.#listeners) listener(uri);
    const sessions = this.#byUri.get(uri);
    if (!sessions) return 0;
    const notification = { method: 'notifications/resources/updated', params: { uri } };
    for (const session of sessions) session.notify(notification);
    return sessions.size;
  }

  /** The URIs `session` is subscribed to (for tests and status). */
  of(session: SessionInfo): string[] {
    return [...(this.#bySession.get(session) ?? [])];
  }
}
