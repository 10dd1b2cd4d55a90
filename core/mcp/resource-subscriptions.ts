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

  subscribe(session: SessionInfo, uri: string): void {
    let sessions = this.#byUri.get(uri);
    if (!sessions) this.#byUri.set(uri, (sessions = new Set()));
    sessions.add(session);
    let uris = this.#bySession.get(session);
    if (!uris) this.#bySession.set(session, (uris = new Set()));
    uris.add(uri);
  }

  unsubscribe(session: SessionInfo, uri: string): void {
    const sessions = this.#byUri.get(uri);
    sessions?.delete(session);
    if (sessions?.size === 0) this.#byUri.delete(uri);
    this.#bySession.get(session)?.delete(uri);
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

  /** Sends notifications/resources/updated for `uri` to its subscribers; returns how many. */
  updated(uri: string): number {
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
