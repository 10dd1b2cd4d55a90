// The one-line banner on an agent's next tool result ("collab: 2 unread messages, 1 pending
// task"), for clients that show neither notifications nor channels. It is worked out when
// something reaches the agent, and taken by the next result: core asks on every call, so the
// ask is a map lookup, never a query.
import type { CollabContext, CollabStore } from './context.js';
import type { AgentIdentity } from './identity.js';
import type { Mailbox } from './mailbox.js';
import { countPendingTasks } from './store/task-store.js';

export class Banners {
  readonly #store: CollabStore;
  readonly #mailbox: Mailbox;
  readonly #ctx: CollabContext;
  /** Agent → the counts its next result carries ("2 unread messages, 1 pending task"). */
  readonly #pending = new Map<string, string>();
  /** Agent → the STOP line of a task someone else cancelled; shown before the counts. */
  readonly #stops = new Map<string, string>();
  /**
   * Agent → a number bumped by every news and every clear. Only the latest news sets the counts:
   * one worked out earlier (fewer unread, or queried before the agent read its messages) must
   * not come after it.
   */
  readonly #generation = new Map<string, number>();
  #identity: AgentIdentity | undefined;

  constructor(ctx: CollabContext, store: CollabStore, mailbox: Mailbox) {
    this.#ctx = ctx;
    this.#store = store;
    this.#mailbox = mailbox;
  }

  /** Installs the banner on tool results (config banner: true). */
  install(identity: AgentIdentity): void {
    if (!this.#ctx.config.banner) return;
    this.#identity = identity;
    this.#ctx.sessions.resultNote((caller, tool) => {
      const agent = identity.agentOfCaller(caller);
      // Reading the messages is how the news is taken in; no banner on that very answer.
      if (agent === undefined || tool === 'collab_read_messages') return undefined;
      // The STOP is kept apart from the counts: a count worked out later must not drop it.
      const parts = [this.#stops.get(agent), this.#pending.get(agent)].filter((part) => part !== undefined);
      if (parts.length === 0) return undefined;
      this.#stops.delete(agent);
      this.#pending.delete(agent);
      return `[collab] ${agent}: ${parts.join('; ')}`;
    });
  }

  /** Something reached `agent`: work out its banner now, for its next result. */
  news(agent: string): void {
    // Counts are worked out only for agents someone here could be shown them to (two queries).
    if (!this.#ctx.config.banner || this.#identity?.reachable(agent) !== true) return;
    const generation = this.#bump(agent);
    // The counts now pending are out of date: no result shows them while the new ones are worked out.
    this.#pending.delete(agent);
    this.#line(agent).then(
      (line) => {
        if (this.#generation.get(agent) !== generation) return;
        if (line === undefined) this.#pending.delete(agent);
        else this.#pending.set(agent, line);
      },
      (err: unknown) => this.#ctx.log.debug({ err, agent }, 'collab: the banner could not be worked out'),
    );
  }

  /** A task `agent` was working on was taken from it (`how`: "cancelled by lead"): its next result says STOP. */
  stop(agent: string, taskId: number, how: string): void {
    if (!this.#ctx.config.banner || this.#identity?.reachable(agent) !== true) return;
    this.#stops.set(agent, `STOP: task #${taskId} was ${how}, stop working on it`);
    this.news(agent);
  }

  /** The agent read its messages: what it was told is no longer news. */
  clear(agent: string): void {
    this.#pending.delete(agent);
    this.#stops.delete(agent);
    if (this.#ctx.config.banner) this.#bump(agent);
  }

  #bump(agent: string): number {
    const generation = (this.#generation.get(agent) ?? 0) + 1;
    this.#generation.set(agent, generation);
    return generation;
  }

  async #line(agent: string): Promise<string | undefined> {
    const unread = await this.#mailbox.unreadCount(agent);
    const pending = await countPendingTasks(this.#store.db, agent);
    const parts: string[] = [];
    if (unread > 0) parts.push(`${unread} unread message${unread === 1 ? '' : 's'} (collab_read_messages)`);
    if (pending > 0) parts.push(`${pending} pending task${pending === 1 ? '' : 's'} (collab_claim_next)`);
    return parts.length === 0 ? undefined : parts.join('; ');
  }
}
