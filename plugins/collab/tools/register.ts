// Every collab_ tool, area by area. Each area's file has its definitions and handlers.
import type { Collab } from '../collab.js';
import type { CollabContext } from '../context.js';
import type { ToolSummary } from '../guides.js';
import { registerAgentTools } from './agents.js';
import { registerCancelAgentTool } from './cancel-agent.js';
import { registerClaimTools } from './claim.js';
import { registerHandoffTools } from './handoffs.js';
import { registerLockTools } from './locks.js';
import { registerMessageTools } from './messages.js';
import { registerNoteTools } from './notes.js';
import { registerPlanTools } from './plans.js';
import { registerSessionContextTool } from './session-context.js';
import { registerTaskWorkTools } from './task-work.js';
import { registerTaskTools } from './tasks.js';
import { registerWorkerTools } from './workers.js';

/** Registers the tools; answers what the quick-reference guide says of each, in order. */
export function registerCollabTools(collab: Collab): ToolSummary[] {
  const summaries: ToolSummary[] = [];
  // The areas register through this ctx, which notes each definition on its way: the guide
  // then lists exactly the tools there are, whoever adds one.
  const ctx: CollabContext = {
    ...collab.ctx,
    tool(definition, handler) {
      summaries.push({ name: definition.name, title: definition.title, description: definition.description });
      collab.ctx.tool(definition, handler);
    },
  };
  const recording: Collab = { ...collab, ctx };
  registerAgentTools(recording);
  registerSessionContextTool(recording);
  registerCancelAgentTool(recording);
  registerMessageTools(recording);
  registerNoteTools(recording);
  registerTaskTools(recording);
  registerTaskWorkTools(recording);
  registerClaimTools(recording);
  registerLockTools(recording);
  registerHandoffTools(recording);
  registerPlanTools(recording);
  registerWorkerTools(recording);
  return summaries;
}
