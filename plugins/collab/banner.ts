// The one-line banner on an agent's next tool result ("collab: 2 unread messages, 1 pending
// task"), for clients that show neither notifications nor channels. It is worked out when
// something reaches the agent, and taken by the next result: core asks on every call, so the
// ask is a map lookup, never a query.
import type { CollabContext, CollabStore } from './context.js';
import type { AgentIdentity } from './identity.js';
import type { Mailbox } from './mailbox.js';

export class Banners {
  readonly #store: CollabStore;
  readonly #mailbox: Mailbox;
  readonly #ctx: CollabContext;
  /** Agent → the line its next result carries. */
  readonly #pending = new Map<string, string>();
  /** Agent → the STOP line of a task someone else cancelled; shown before the counts. */
  readonly #stops = new Map<string, string>();

  constructor(ctx: CollabContext, store: CollabStore, mailbox: Mailbox) {
    this.#ctx = ctx;
    this.#store = store;
    this.#mailbox = mailbox;
  }

  /** Installs the banner on tool results (config banner: true). */
  install(identity: AgentIdentity): void {
    if (!this.#ctx.config.banner) return;
    this.#ctx.sessions.resultNote((caller, tool) => {
      const agent = identity.agentOfCaller(caller);
      // Reading the messages is how the news is taken in; no banner on that very answer.
      if (agent === undefined || tool === 'collab_read_messages') return undefined;
      const line = this.#pending.get(agent);
      if (line !== undefined) this.#pending.delete(agent);
      return line;
    });
  }

  /** Something reached `agent`: work out its banner now, for its next result. */
  news(agent: string): void {
    if (!this.#ctx.config.banner) return;
    this.#line(agent).then(
      (line) => {
        if (line === undefined) this.#pending.delete(agent);
        else this.#pending.set(agent, line);
      },
      (err: unknown) => this.#ctx.log.debug({ err, agent }, 'collab: the banner could not be worked out'),
    );
  }

  /** A task of `agent` was cancelled by someone else: its next result says STOP. */
  stop(agent: string, taskId: number, by: string): void {
    this.#stops.set(agent, `STOP: task #${taskId} was cancelled by ${by}; stop working on it.`);
    this.news(agent);
  }

  /** The agent read its messages: what it was told is no longer news. */
  clear(agent: string): void {
    this.#pending.delete(agent);
    this.#stops.delete(agent);
  }

  async #line(agent: string): Promise<string | undefined> {
    const unread = await this.#mailbox.unreadCount(agent);
    const row = await this.#store.db
      .selectFrom('collab_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('assignee', '=', agent)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const pending = Number(row.n);
    const parts: string[] = [];
    const stop = this.#stops.get(agent);
    if (stop !== undefined) {
      this.#stops.delete(agent);
      parts.push(stop);
    }
    if (unread > 0) parts.push(`${unread} unread message${unread === 1 ? '' : 's'} (collab_read_messages)`);
    if (pending > 0) parts.push(`${pending} pending task${pending === 1 ? '' : 's'} (collab_claim_next)`);
    return parts.length === 0 ? undefined : `[collab] ${agent}: ${parts.join(', ')}`;
  }
}
