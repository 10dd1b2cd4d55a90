// collab_claim_next: the one call an agent makes to learn what to do next.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Collab } from '../collab.js';
import { claimNext } from '../tasks/claim-next.js';
import { claimNextInput, claimNextOutput } from './task-schemas.js';

export const collabClaimNext = {
  name: 'collab_claim_next',
  title: 'Claim the next thing to do',
  description:
    'Tells you what to do next: continue your task in progress, read unread messages, else claims the most urgent pending task you may take (it becomes yours, its files locked for you), else an unowned plan item, else idle.',
  inputSchema: { ...claimNextInput, examples: [{ dry_run: true }] },
  outputSchema: claimNextOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerClaimTools(collab: Collab): void {
  collab.ctx.tool(collabClaimNext, async (args, call) => {
    const agent = await collab.identity.acting(call, args.agent);
    return { ...(await claimNext(collab, agent, args.dry_run)), dry_run: args.dry_run };
  });
}
