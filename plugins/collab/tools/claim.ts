// collab_claim_next: the one call an agent makes to learn what to do next.
import type { ToolDefinition } from '../../../core/index.js';
import type { Collab } from '../collab.js';
import { claimNext } from '../tasks/claim-next.js';
import { claimNextInput, claimNextOutput } from './task-schemas.js';

export const collabClaimNext = {
  name: 'collab_claim_next',
  title: 'Claim the next thing to do',
  description:
    'Tells you what to do next, in this order: continue your task in progress (continue_task); read your unread messages (read_messages); else claims the best pending task you may take — yours or for any, every dependency completed, most urgent priority first, then oldest — ' +
    "atomically: it becomes in_progress and yours, and its files are locked for you (files other agents hold are listed in lock_conflicts) (claimed); else a pending item of the active plan without owner (work_on_plan_item); else idle. " +
    'Two agents calling at once never get the same task. dry_run answers the same without changing anything. Errors: COLLAB_BUSY (others kept claiming first: call again), COLLAB_AGENT_REQUIRED, COLLAB_AGENT_NOT_FOUND, COLLAB_NOT_PERMITTED.',
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
