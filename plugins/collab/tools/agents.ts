// Agents and presence: join (and bind the session), register.
import type { ToolDefinition } from '../../../core/index.js';
import { toAgent, upsertAgent } from '../agents.js';
import type { Collab } from '../collab.js';
import { joinInput, joinOutput, registerInput, registerOutput } from './agent-schemas.js';

export const collabJoin = {
  name: 'collab_join',
  title: 'Join as an agent',
  description:
    'Makes this session act as the agent `name` from now on (registering it if new): messages and tasks for it are then notified to this session, and later collab calls leave `agent` out. ' +
    'Call it once at the start. Errors: COLLAB_AGENT_NAME_RESERVED, COLLAB_ALREADY_JOINED (the session acts as another agent), COLLAB_NOT_PERMITTED (a key pinned to another agent).',
  inputSchema: { ...joinInput, examples: [{ name: 'explorer', display_name: 'Explorer page', capabilities: ['review'] }] },
  outputSchema: joinOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabRegisterAgent = {
  name: 'collab_register_agent',
  title: 'Register an agent',
  description:
    'Registers an agent, or updates its display name, capabilities or project, without binding this session to it (a driver registering its workers). Errors: COLLAB_AGENT_NAME_RESERVED, COLLAB_NOT_PERMITTED.',
  inputSchema: { ...registerInput, examples: [{ name: 'explorer-helper', capabilities: ['docs'] }] },
  outputSchema: registerOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerAgentTools({ ctx, store, identity, mailbox }: Collab): void {
  const staleMs = ctx.config.presence.staleSeconds * 1000;

  ctx.tool(collabJoin, async (args, call) => {
    identity.checkName(args.name);
    identity.checkKeyRights(call, args.name);
    identity.checkBindable(call, args.name);
    const { row, created } = await upsertAgent(store, args);
    identity.bind(call, args.name);
    const pending = await store.db
      .selectFrom('collab_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('assignee', '=', args.name)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    ctx.events.publish('collab.agent.joined', { name: args.name, created, transport: call.caller.transport });
    return {
      agent: toAgent(row, staleMs),
      created,
      session_bound: call.caller.sessionId !== undefined,
      unread_messages: await mailbox.unreadCount(args.name),
      pending_tasks: Number(pending.n),
    };
  });

  ctx.tool(collabRegisterAgent, async (args, call) => {
    identity.checkName(args.name);
    // Registering changes the agent's description: the key rights of acting as it, but a
    // joined session may register others (a driver registering its workers).
    identity.checkKeyRights(call, args.name);
    const { row, created } = await upsertAgent(store, args);
    if (created) ctx.events.publish('collab.agent.registered', { name: args.name });
    return { agent: toAgent(row, staleMs), created };
  });
}
