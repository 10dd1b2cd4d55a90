// Turns what happened into what each agent hears: on every gateway of the team, a message or
// a task change for an agent goes to the sessions bound to it here, as a `claude/channel`
// notification and an MCP log message, and into its next banner.
import type { GatewayEvent } from '../../core/index.js';
import type { Banners } from './banner.js';
import type { CollabContext } from './context.js';
import type { TaskEvent } from './events.js';
import type { AgentIdentity } from './identity.js';
import type { MessageSentEvent } from './mailbox.js';
import { BROADCAST } from './model.js';

export function deliverNews(ctx: CollabContext, identity: AgentIdentity, banners: Banners): void {
  /** Sends to every session of this gateway bound to `agent`. */
  const tell = (agent: string, channel: 'collab.message' | 'collab.task', data: Record<string, unknown>, text: string) => {
    for (const session of identity.sessionsOf(agent)) {
      ctx.notify.channel({ session }, channel, data);
      ctx.notify.log({ session }, 'info', { text, ...data }, { logger: 'collab' });
    }
    banners.news(agent);
  };

  ctx.events.subscribe('collab.message.sent', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const message = event.data as MessageSentEvent;
    const text = `${message.kind === 'message' ? 'Message' : message.kind} #${message.id} from ${message.from}${message.subject ? `: ${message.subject}` : ''}`;
    if (message.to !== BROADCAST) {
      tell(message.to, 'collab.message', { ...message }, text);
      return;
    }
    const agents = new Set<string>();
    for (const [, agent] of identity.boundSessions()) if (agent !== message.from) agents.add(agent);
    for (const agent of Object.values(ctx.config.keyAgents)) if (agent !== message.from) agents.add(agent);
    for (const agent of agents) tell(agent, 'collab.message', { ...message }, text);
  });

  ctx.events.subscribe('collab.task.*', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const task = event.data as TaskEvent;
    // What an agent did itself is no news to it; `any` is nobody in particular.
    if (task.assignee === 'any' || task.assignee === task.by) return;
    if (task.status === 'cancelled' && task.previous_status !== 'cancelled') banners.stop(task.assignee, task.id, task.by);
    const change = event.channel.slice('collab.task.'.length);
    tell(task.assignee, 'collab.task', { change, ...task }, `Task #${task.id} ${change.replace('_', ' ')} by ${task.by}: ${task.title} (${task.status})`);
  });
}
