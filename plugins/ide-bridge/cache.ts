// What the backend has said, kept per kind within the configured limits. The cache outlives
// connections; what it holds is "fresh" only when it was heard on the connection that is open
// now (its epoch): anything older may have changed while the gateway was not listening, so a
// tool asks the backend again and falls back to the cached copy, marked stale, if it cannot.
import { BoundedMap, lastOf, lastWithin } from './bounded.js';
import type { CacheLimits } from './config.js';
import type { ActivityEvent, Build, ChatMessage, Overview, Plan, Session } from './model.js';

/** A cached value and the epoch it was last confirmed in; PARTIAL: assembled from pushes only, never complete. */
export interface Kept<T> {
  value: T;
  epoch: number;
}

const PARTIAL = -1;

/**
 * Characters kept at most per chat history and per build log, on top of the counts of the
 * config: with the readers' per-item caps, the cache's size has a known ceiling (README.md).
 */
export const CHAT_BUDGET_CHARS = 512 * 1024;
export const LOG_BUDGET_CHARS = 512 * 1024;
const messageSize = (message: ChatMessage) => message.content.length + 64;
const lineSize = (line: string) => line.length + 1;

export interface DashboardState {
  state: Record<string, unknown>;
  updatedAt: string | null;
}

export class IdeCache {
  readonly limits: CacheLimits;
  /** Odd while a connection is open (2n+1 for the nth), even between connections. */
  #epoch = 0;
  readonly sessions: BoundedMap<string, Session>;
  #sessionListEpoch = PARTIAL;
  readonly chats: BoundedMap<string, Kept<ChatMessage[]>>;
  readonly plans: BoundedMap<string, Kept<Plan>>;
  readonly builds: BoundedMap<string, Kept<Build>>;
  #buildListEpoch = PARTIAL;
  /** When each repo's own list was last heard whole. */
  readonly #repoListEpochs: BoundedMap<string, number>;
  readonly logs: BoundedMap<string, Kept<string[]>>;
  #activity: Kept<ActivityEvent[]> = { value: [], epoch: PARTIAL };
  #dashboard: Kept<DashboardState> = { value: { state: {}, updatedAt: null }, epoch: PARTIAL };
  #overview: Kept<Overview> | undefined;
  #droppedRecords = 0;
  /** A push about no session was dropped since the last settle (distrustShared). */
  #sharedDistrusted = false;

  constructor(limits: CacheLimits) {
    this.limits = limits;
    this.sessions = new BoundedMap(limits.sessions);
    this.chats = new BoundedMap(limits.chatSessions);
    this.plans = new BoundedMap(limits.plans);
    this.builds = new BoundedMap(limits.builds);
    this.logs = new BoundedMap(limits.logBuilds);
    this.#repoListEpochs = new BoundedMap(limits.builds);
  }

  /** Called when a connection opens and when it closes: what was heard before is no longer fresh. */
  nextEpoch(): void {
    this.#epoch += 1;
    this.#sharedDistrusted = false;
  }

  /**
   * A push about the chat session `sessionId` (chat.message, plan.updated) was dropped over the
   * rates: that session's history and plan may lack it, and their next read asks the backend.
   * Nothing else is touched: the other sessions' chats and plans, and the shared entries, cannot
   * have been changed by it, and a flood of one session keeps them answering from the cache.
   */
  distrustSession(sessionId: string): void {
    for (const kept of [this.chats.get(sessionId), this.plans.get(sessionId)]) if (kept) kept.epoch = PARTIAL;
  }

  /**
   * A push about no chat session (sessions, builds, logs, activity, the dashboard) was dropped
   * over the rates: any kept entry but the chats and plans may lack it. Only marked here: it
   * takes effect at the next read or write of the cache (#settle), so a flood of dropped pushes
   * costs a flag each, and the pass over the chats and plans is made once between two reads.
   */
  distrustShared(): void {
    if (this.#epoch % 2 === 1) this.#sharedDistrusted = true;
  }

  isFresh(kept: { epoch: number } | undefined): boolean {
    this.#settle();
    return kept !== undefined && kept.epoch === this.#epoch && this.#epoch % 2 === 1;
  }

  /** The epoch to stamp what is heard now with: after a pending distrustShared. */
  #stamp(): number {
    this.#settle();
    return this.#epoch;
  }

  /**
   * Applies a pending distrustShared: a new epoch of the same connection, into which the chats
   * and plans that were fresh move along (no push about no session feeds them). Whatever the
   * backend says after this was said after the dropped push, on the same ordered connection.
   */
  #settle(): void {
    if (!this.#sharedDistrusted) return;
    this.#sharedDistrusted = false;
    const was = this.#epoch;
    this.#epoch += 2;
    for (const kept of [...this.chats.values(), ...this.plans.values()]) if (kept.epoch === was) kept.epoch = this.#epoch;
  }

  get sessionListFresh(): boolean {
    return this.isFresh({ epoch: this.#sessionListEpoch });
  }

  /** Whether the list of every build (or of `repo`'s) was heard whole on this connection. */
  buildListFresh(repo?: string): boolean {
    if (this.isFresh({ epoch: this.#buildListEpoch })) return true;
    const epoch = repo === undefined ? undefined : this.#repoListEpochs.get(repo);
    return epoch !== undefined && this.isFresh({ epoch });
  }

  get activity(): Kept<ActivityEvent[]> {
    return this.#activity;
  }

  get dashboard(): Kept<DashboardState> {
    return this.#dashboard;
  }

  get overview(): Kept<Overview> | undefined {
    return this.#overview;
  }

  /** Records of the backend dropped as unreadable (the rest of their list is kept) since the gateway started. */
  get droppedRecords(): number {
    return this.#droppedRecords;
  }

  countDropped(records: number): void {
    this.#droppedRecords += records;
  }

  /** What was kept of the dashboard is no longer to be trusted (an answer or push about it was refused). */
  unconfirmDashboard(): void {
    this.#dashboard = { ...this.#dashboard, epoch: PARTIAL };
  }

  putSession(session: Session): void {
    this.sessions.set(session.id, session);
  }

  /** The backend's whole list: sessions it no longer has are forgotten. */
  putSessionList(sessions: Session[]): void {
    const kept = new Set(sessions.map((s) => s.id));
    for (const session of [...this.sessions.values()]) if (!kept.has(session.id)) this.sessions.delete(session.id);
    for (const session of sessions) this.putSession(session);
    this.#sessionListEpoch = this.#stamp();
  }

  /** A message heard as it was said: appended to a complete history, or starts a partial one. */
  addMessage(sessionId: string, message: ChatMessage): void {
    const kept = this.chats.get(sessionId);
    const messages = lastWithin([...(kept?.value ?? []), message], this.limits.messagesPerSession, CHAT_BUDGET_CHARS, messageSize);
    this.chats.set(sessionId, { value: messages, epoch: this.isFresh(kept) ? this.#stamp() : PARTIAL });
  }

  putHistory(sessionId: string, messages: ChatMessage[]): void {
    this.chats.set(sessionId, { value: lastWithin(messages, this.limits.messagesPerSession, CHAT_BUDGET_CHARS, messageSize), epoch: this.#stamp() });
  }

  putPlan(plan: Plan): void {
    this.plans.set(plan.sessionId, { value: plan, epoch: this.#stamp() });
  }

  putBuild(build: Build): void {
    this.builds.set(build.id, { value: build, epoch: this.#stamp() });
  }

  /**
   * The backend's list, newest first, of every build or of `repo`'s. When it is `whole` (shorter
   * than the limit asked), builds of its scope that it lacks are gone from the backend: forgotten.
   */
  putBuildList(builds: Build[], repo: string | undefined, whole: boolean): void {
    if (whole) {
      const listed = new Set(builds.map((build) => build.id));
      for (const kept of [...this.builds.values()]) {
        if (!listed.has(kept.value.id) && (repo === undefined || kept.value.repo === repo)) this.builds.delete(kept.value.id);
      }
    }
    for (const build of [...builds].reverse()) this.putBuild(build);
    if (repo === undefined) this.#buildListEpoch = this.#stamp();
    else this.#repoListEpochs.set(repo, this.#stamp());
  }

  addLogLines(buildId: string, lines: string[]): void {
    const kept = this.logs.get(buildId);
    const all = lastWithin([...(kept?.value ?? []), ...lines], this.limits.logLinesPerBuild, LOG_BUDGET_CHARS, lineSize);
    this.logs.set(buildId, { value: all, epoch: this.isFresh(kept) ? this.#stamp() : PARTIAL });
  }

  putLog(buildId: string, lines: string[]): void {
    this.logs.set(buildId, { value: lastWithin(lines, this.limits.logLinesPerBuild, LOG_BUDGET_CHARS, lineSize), epoch: this.#stamp() });
  }

  addActivity(event: ActivityEvent): void {
    const fresh = this.isFresh(this.#activity);
    this.#activity = { value: lastOf([...this.#activity.value, event], this.limits.activity), epoch: fresh ? this.#stamp() : PARTIAL };
  }

  putActivity(events: ActivityEvent[]): void {
    this.#activity = { value: lastOf(events, this.limits.activity), epoch: this.#stamp() };
  }

  putDashboard(state: DashboardState): void {
    this.#dashboard = { value: state, epoch: this.#stamp() };
  }

  putOverview(overview: Overview): void {
    this.#overview = { value: overview, epoch: this.#stamp() };
  }

  /** Sizes per kind, for ide_bridge_status. */
  counts(): Record<string, number> {
    return {
      sessions: this.sessions.size,
      chatSessions: this.chats.size,
      plans: this.plans.size,
      builds: this.builds.size,
      logBuilds: this.logs.size,
      activity: this.#activity.value.length,
    };
  }
}
