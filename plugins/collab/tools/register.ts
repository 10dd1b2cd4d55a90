// Every collab_ tool, area by area. Each area's file has its definitions and handlers.
import type { Collab } from '../collab.js';
import { registerAgentTools } from './agents.js';
import { registerCancelAgentTool } from './cancel-agent.js';
import { registerClaimTools } from './claim.js';
import { registerHandoffTools } from './handoffs.js';
import { registerLockTools } from './locks.js';
import { registerMessageTools } from './messages.js';
import { registerNoteTools } from './notes.js';
import { registerSessionContextTool } from './session-context.js';
import { registerTaskWorkTools } from './task-work.js';
import { registerTaskTools } from './tasks.js';

export function registerCollabTools(collab: Collab): void {
  registerAgentTools(collab);
  registerSessionContextTool(collab);
  registerCancelAgentTool(collab);
  registerMessageTools(collab);
  registerNoteTools(collab);
  registerTaskTools(collab);
  registerTaskWorkTools(collab);
  registerClaimTools(collab);
  registerLockTools(collab);
  registerHandoffTools(collab);
}
