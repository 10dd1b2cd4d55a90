// Agents and presence: join (and bind the session), register, list, heartbeat, presence.
import type { ToolDefinition } from '@mcp-gateway/core';
import { toAgent } from '../agents.js';
import type { Collab } from '../collab.js';
import { nowIso } from '../model.js';
import { findAgentRow, listAgentRows, recordHeartbeat, updateAgentRow, upsertAgentRow } from '../store/agent-store.js';
import { countPendingTasks, taskExists } from '../store/task-store.js';
import {
  heartbeatInput,
  heartbeatOutput,
  joinInput,
  joinOutput,
  listAgentsInput,
  listAgentsOutput,
  registerInput,
  registerOutput,
  setPresenceInput,
  setPresenceOutput,
} from './agent-schemas.js';

export const collabJoin = {
  name: 'collab_join',
  title: 'Join as an agent',
  description:
    'Makes this session act as agent `name` (registered if new): its messages and tasks are notified here, and later collab calls leave `agent` out (without a session, pass agent_handle as `agent`). Call it first.',
  inputSchema: { ...joinInput, examples: [{ name: 'system', display_name: 'Explorer page', capabilities: ['review'] }] },
  outputSchema: joinOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabRegisterAgent = {
  name: 'collab_register_agent',
  title: 'Register an agent',
  description: 'Registers or updates an agent without acting as it, as a driver does for its workers; to act as one, use collab_join.',
  inputSchema: { ...registerInput, examples: [{ name: 'system', capabilities: ['docs'] }] },
  outputSchema: registerOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabListAgents = {
  name: 'collab_list_agents',
  title: 'List agents',
  description: 'Lists agents with their presence, current task and progress: see who is here and what each does before you assign or message.',
  inputSchema: { ...listAgentsInput, examples: [{ active_only: true }, { capability: 'review', presence: 'idle' }] },
  outputSchema: listAgentsOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabHeartbeat = {
  name: 'collab_heartbeat',
  title: 'Heartbeat',
  description: 'Says you are still here, optionally with your progress. Call it every minute or two during long work, or the watchdog marks you offline.',
  inputSchema: { ...heartbeatInput, examples: [{ progress: 'reading the parser', step: 2, total_steps: 5 }] },
  outputSchema: heartbeatOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export const collabSetPresence = {
  name: 'collab_set_presence',
  title: 'Set presence',
  description: 'Sets your status, note and current task for others to see; a new status clears the old note.',
  inputSchema: { ...setPresenceInput, examples: [{ status: 'away', note: 'back in ten minutes' }] },
  outputSchema: setPresenceOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerAgentTools({ ctx, store, identity, mailbox }: Collab): void {
  const staleMs = ctx.config.presence.staleSeconds * 1000;
  const activeWindowMs = ctx.config.presence.activeWindowSeconds * 1000;
  /** The agent's row after a write by the acting agent (which exists: acting checked it). */
  const reread = async (name: string) => toAgent((await findAgentRow(store.db, name))!, staleMs);

  ctx.tool(collabJoin, async (args, call) => {
    identity.checkName(args.name);
    identity.checkKeyRights(call, args.name);
    identity.checkBindable(call, args.name);
    const { row, created } = await upsertAgentRow(store.db, args);
    identity.bind(call, args.name);
    identity.seen(args.name);
    const pending = await countPendingTasks(store.db, args.name);
    ctx.events.publish('collab.agent.joined', { name: args.name, created, transport: call.caller.transport });
    const { handle, expiresAt } = identity.handles.mint(args.name, call.caller);
    return {
      agent: toAgent(row, staleMs),
      created,
      session_bound: call.caller.sessionId !== undefined,
      agent_handle: handle,
      handle_expires_at: expiresAt,
      unread_messages: await mailbox.unreadCount(args.name),
      pending_tasks: pending,
    };
  });

  ctx.tool(collabRegisterAgent, async (args, call) => {
    identity.checkName(args.name);
    // Registering changes the agent's description: the key rights of acting as it, but a
    // joined session may register others (a driver registering its workers).
    identity.checkKeyRights(call, args.name);
    const { row, created } = await upsertAgentRow(store.db, args);
    if (created) ctx.events.publish('collab.agent.registered', { name: args.name });
    return { agent: toAgent(row, staleMs), created };
  });

  ctx.tool(collabListAgents, async (args) => {
    const now = Date.now();
    const staleBefore = nowIso(now - staleMs);
    const filter = {
      after_name: args.cursor,
      seen_since: args.active_only ? nowIso(now - activeWindowMs) : undefined,
      project: args.project,
      presence: args.presence,
      stale_before: staleBefore,
    };
    // One more than asked: whether another page follows.
    const rows = await listAgentRows(store.db, filter, args.limit + 1);
    const page = rows.slice(0, args.limit);
    const agents = page
      .map((row) => toAgent(row, staleMs, now))
      // Capabilities are a JSON list in one column, matched here: the page is of the rows looked at.
      .filter((agent) => args.capability === undefined || agent.capabilities.includes(args.capability));
    return { agents, count: agents.length, ...(rows.length > args.limit ? { next_cursor: page.at(-1)!.name } : {}) };
  });

  ctx.tool(collabHeartbeat, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    if (args.step !== undefined && args.total_steps !== undefined && args.step > args.total_steps) {
      throw ctx.error('INVALID_ARGUMENTS', `step ${args.step} is past total_steps ${args.total_steps}: send the step you are on, at most total_steps.`, { step: args.step, total_steps: args.total_steps });
    }
    const reports = args.progress !== undefined || args.step !== undefined || args.total_steps !== undefined;
    await recordHeartbeat(store.db, agent, reports ? { progress: args.progress ?? null, step: args.step ?? null, total_steps: args.total_steps ?? null } : undefined);
    // Worker health and the watchdog listen for these.
    ctx.events.publish('collab.agent.heartbeat', { name: agent, step: args.step ?? null, total_steps: args.total_steps ?? null });
    return { ok: true as const, agent: await reread(agent) };
  });

  ctx.tool(collabSetPresence, async (args, call) => {
    const agent = await identity.acting(call, args.agent);
    const taskId = args.current_task_id;
    if (taskId != null) {
      if (!(await taskExists(store.db, taskId))) throw ctx.error('COLLAB_TASK_NOT_FOUND', `No task has id ${taskId}: list them with collab_list_tasks, or leave current_task_id out.`, { id: taskId });
    }
    await updateAgentRow(store.db, agent, { presence: args.status, presence_note: args.note ?? null, last_seen_at: nowIso(), ...(taskId !== undefined ? { current_task_id: taskId } : {}) });
    const updated = await reread(agent);
    ctx.events.publish('collab.agent.presence', { name: agent, presence: updated.presence, current_task_id: updated.current_task_id });
    return { agent: updated };
  });
}
