// The parts of collab the tools, resources, prompts and watchdog share.
import type { Banners } from './banner.js';
import type { CollabContext, CollabStore } from './context.js';
import type { AgentIdentity } from './identity.js';
import type { Mailbox } from './mailbox.js';
import type { PlanBook } from './plans/plan-book.js';
import type { Workers } from './workers/workers.js';

export interface Collab {
  readonly ctx: CollabContext;
  readonly store: CollabStore;
  /** Who a call acts as; the sessions bound to each agent. */
  readonly identity: AgentIdentity;
  /** Sending messages (and what the gateway itself says: alerts, handoffs, STOP). */
  readonly mailbox: Mailbox;
  /** The banner on an agent's next tool result. */
  readonly banners: Banners;
  /** Plans and their items. */
  readonly plans: PlanBook;
  /** The agents this gateway runs as child processes. */
  readonly workers: Workers;
}
