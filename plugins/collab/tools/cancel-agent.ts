// collab_cancel_agent: stop another agent (or yourself) — see stop-agent.ts for what stopping does.
import type { ToolDefinition } from '@mcp-gateway/core';
import { toAgent } from '../agents.js';
import type { Collab } from '../collab.js';
import { stopAgent } from '../stop-agent.js';
import { findAgentRow } from '../store/agent-store.js';
import { cancelAgentInput, cancelAgentOutput } from './agent-schemas.js';

export const collabCancelAgent = {
  name: 'collab_cancel_agent',
  title: 'Stop an agent',
  description: 'Stops an agent on the wrong track: cancels its tasks in progress, sets it idle and sends it a STOP message with your reason.',
  inputSchema: { ...cancelAgentInput, examples: [{ target: 'system', reason: 'trying the stop from the explorer' }] },
  outputSchema: cancelAgentOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerCancelAgentTool(collab: Collab): void {
  const { ctx, store, identity } = collab;
  const staleMs = ctx.config.presence.staleSeconds * 1000;

  ctx.tool(collabCancelAgent, async (args, call) => {
    const by = await identity.acting(call, args.agent);
    if (!(await findAgentRow(store.db, args.target))) {
      throw ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${args.target}": list them with collab_list_agents.`, { agent: args.target });
    }
    const { cancelled, message } = await stopAgent(collab, args.target, by, args.reason);
    return { agent: toAgent((await findAgentRow(store.db, args.target))!, staleMs), cancelled_tasks: cancelled, message_id: message.id };
  });
}
