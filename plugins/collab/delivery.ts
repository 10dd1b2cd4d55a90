// Turns what happened into what each agent hears: on every gateway of the team, a message or
// a task change for an agent goes to the sessions bound to it here, as a `claude/channel`
// notification and an MCP log message, and into its next banner.
import type { GatewayEvent } from '@mcp-gateway/core';
import type { Banners } from './banner.js';
import type { CollabContext } from './context.js';
import type { TaskEvent } from './events.js';
import type { AgentIdentity } from './identity.js';
import type { Mailbox, MessageSentEvent } from './mailbox.js';
import { ANYONE, BROADCAST } from './model.js';

export function deliverNews(ctx: CollabContext, identity: AgentIdentity, banners: Banners, mailbox: Mailbox): void {
  // Notifications leave one after the other, in the order the events came: a message's waits
  // for its subject to be read from the store (the event carries no text, mailbox.ts), and a
  // task change published after it waits behind it.
  let sending: Promise<void> = Promise.resolve();
  const inOrder = (send: () => Promise<void> | void) => {
    sending = sending.then(send).catch((err: unknown) => ctx.log.warn({ err }, 'collab: a notification could not be sent'));
  };
  /** Sends to every session of this gateway bound to `agent`. */
  const notify = (agent: string, channel: 'collab.message' | 'collab.task', data: Record<string, unknown>, text: string) => {
    for (const session of identity.sessionsOf(agent)) {
      ctx.notify.channel({ session }, channel, data);
      ctx.notify.log({ session }, 'info', { text, ...data }, { logger: 'collab' });
    }
  };
  const tell = (agent: string, data: Record<string, unknown>, text: string) => {
    if (identity.sessionsOf(agent).length > 0) inOrder(() => notify(agent, 'collab.task', data, text));
    banners.news(agent);
  };

  ctx.events.subscribe('collab.message.sent', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const message = event.data as MessageSentEvent;
    const recipients = message.to !== BROADCAST ? [message.to] : broadcastRecipients(ctx, identity, message.from);
    for (const agent of recipients) banners.news(agent);
    const here = recipients.filter((agent) => identity.sessionsOf(agent).length > 0);
    if (here.length === 0) return;
    inOrder(async () => {
      // Pruned meanwhile (retention): the recipient still hears that something came.
      const { subject, preview } = (await mailbox.summary(message.id)) ?? { subject: null, preview: '' };
      const text = `${message.kind === 'message' ? 'Message' : message.kind} #${message.id} from ${message.from}${subject ? `: ${subject}` : ''}`;
      for (const agent of here) notify(agent, 'collab.message', { ...message, subject, preview }, text);
    });
  });

  ctx.events.subscribe('collab.task.*', (event: GatewayEvent) => {
    if (event.source !== 'collab') return;
    const task = event.data as TaskEvent;
    const change = event.channel.slice('collab.task.'.length);
    const text = `Task #${task.id} ${change.replace('_', ' ')} by ${task.by}: ${task.title} (${task.status})`;
    // An agent working on a task that someone else cancelled, finished or gave to another must stop.
    const holder = task.previous_assignee ?? task.assignee;
    const taken = task.previous_status === 'in_progress' && holder !== ANYONE && holder !== task.by && (task.status !== 'in_progress' || task.assignee !== holder);
    if (taken) {
      const what = task.status === 'cancelled' ? 'cancelled' : task.assignee !== holder ? `given to ${task.assignee}` : `marked ${task.status}`;
      banners.stop(holder, task.id, `${what} by ${task.by}`);
      if (holder !== task.assignee) tell(holder, { change, ...task }, text);
    }
    // What an agent did itself is no news to it; `any` is nobody in particular.
    if (task.assignee === ANYONE || task.assignee === task.by) return;
    tell(task.assignee, { change, ...task }, text);
  });
}

/** A broadcast reaches every agent with a session here or a key pinned to it, but its sender. */
function broadcastRecipients(ctx: CollabContext, identity: AgentIdentity, from: string): string[] {
  const agents = new Set<string>();
  for (const [, agent] of identity.boundSessions()) if (agent !== from) agents.add(agent);
  for (const agent of Object.values(ctx.config.keyAgents)) if (agent !== from) agents.add(agent);
  return [...agents];
}
